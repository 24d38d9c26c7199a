package dev.nifigeoparquet.archive.order;

import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import java.time.Instant;
import java.util.Comparator;
import java.util.Objects;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;

/**
 * The total order of the writes of one key by sequenced operations (docs/archive-format.md, section 6.4): by the
 * written row's version first, in an archive with a version column, then by the delta sequence. Because it is total,
 * applying a backlog of deltas in any order, serially or at once, leaves every key at the write that is greatest in
 * it: the state applying them in order leaves.
 */
public final class StampOrder implements Comparator<KeyStamp> {

    private final VersionOrder versions;

    /** The order of an archive whose version column is {@code versions}; null for an archive without one. */
    public StampOrder(VersionOrder versions) {
        this.versions = versions;
    }

    /** The order of the archive described by {@code descriptor}, whose data files have {@code schema}. */
    public static StampOrder of(ArchiveDescriptor descriptor, GroupType schema) {
        String column = descriptor.versionColumn();
        return new StampOrder(column == null ? null : new VersionOrder(schema, column));
    }

    /** The archive's version order; null when it has no version column. */
    public VersionOrder versions() {
        return versions;
    }

    @Override
    public int compare(KeyStamp a, KeyStamp b) {
        int byVersion = versions == null ? 0 : versions.compare(a.version(), b.version());
        return byVersion != 0 ? byVersion : Long.compare(a.sequence(), b.sequence());
    }

    /** The stamp of a write of {@code row} by an operation of {@code sequence}, recorded at {@code at}. */
    public KeyStamp stampOf(Group row, long sequence, Instant at) {
        return new KeyStamp(versions == null ? null : versions.valueOf(row), sequence, at);
    }

    /** Compares the writes of two rows of one key by operations of the given sequences. */
    public int compareWrites(Group a, long sequenceA, Group b, long sequenceB) {
        int byVersion = versions == null ? 0 : versions.compare(versions.valueOf(a), versions.valueOf(b));
        return byVersion != 0 ? byVersion : Long.compare(sequenceA, sequenceB);
    }

    /** The greater of two stamps, either of which may be null (no stamp). */
    public KeyStamp max(KeyStamp a, KeyStamp b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        return compare(a, b) >= 0 ? a : b;
    }

    /**
     * Whether a write stamped {@code write} is older than the key's current state, which is then kept: the stored row's
     * version when the key is stored (an unsequenced write may have changed it since the stamp), else the tombstone's,
     * then the recorded stamp's sequence. A key stored nowhere without a stamp, and a stored key whose version equals the
     * write's and that no sequenced write stamped, are never newer. Equal stamps are not older: the write wins a tie.
     *
     * @param stored        whether some partition stores the key
     * @param storedVersion the stored row's version (canonical bytes; null when none)
     * @param recorded      the key's stamp in the index; null when it has none
     */
    public boolean isOlder(KeyStamp write, boolean stored, Binary storedVersion, KeyStamp recorded) {
        Objects.requireNonNull(write, "write");
        if (!stored && recorded == null) {
            return false;
        }
        if (versions != null) {
            Binary current = stored ? storedVersion : recorded.version();
            int byVersion = versions.compare(write.version(), current);
            if (byVersion != 0) {
                return byVersion < 0;
            }
        }
        return recorded != null && write.sequence() < recorded.sequence();
    }
}
