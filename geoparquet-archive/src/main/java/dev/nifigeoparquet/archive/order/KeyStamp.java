package dev.nifigeoparquet.archive.order;

import java.time.Instant;
import java.util.Objects;
import org.apache.parquet.io.api.Binary;

/**
 * The order of the latest write of a key by a sequenced operation, as the key index records it (docs/archive-format.md,
 * section 6.4): the written row's version, in an archive with a version column, and the operation's delta sequence. A
 * later write older than the key's stamp is not applied; a deleted key keeps its stamp (a tombstone), so a late older
 * row cannot bring it back.
 *
 * @param version   the version value's canonical bytes ({@link VersionOrder#valueOf}); null in an archive without a
 *                  version column, or for a row without a version
 * @param sequence  the delta sequence of the operation that wrote the key
 * @param stampedAt when the stamp was recorded: a tombstone is pruned by its age
 */
public record KeyStamp(Binary version, long sequence, Instant stampedAt) {

    public KeyStamp {
        Objects.requireNonNull(stampedAt, "stampedAt");
    }
}
