package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.parquet.RowValues;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.BitSet;
import java.util.HexFormat;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;

/**
 * The default operation id of a partition's delta (docs/archive-format.md, section 5.8; the vectors in
 * docs/test-vectors/delta-ids.json): the SHA-256, in lower-case hexadecimal, of a domain line, the write mode and the
 * cell, then every row in order as its delete flag and its canonical encoding ({@link RowValues#canonicalBytes}); a
 * deletion is encoded by its deletion columns only, so a deletion that came with its whole row and one that came with
 * its key alone give the same id. The same rows for the same partition and mode always give the same id, so a
 * redelivered delta is a replay, whichever of the command line and the processors applies it.
 */
public final class DeltaId {

    static final String DOMAIN = "geoparquet-archive delta v1\n";
    /** The cell part of the id of a Delete by key, which has no cell. */
    static final String ANY_CELL = "*";

    private final MessageDigest digest;
    private final BitSet deletionFields;

    private DeltaId(WriteMode mode, String cell, BitSet deletionFields) {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
        this.deletionFields = deletionFields;
        digest.update(RowValues.utf8(DOMAIN));
        digest.update(RowValues.utf8(mode.name() + "\n" + (cell == null ? ANY_CELL : cell) + "\n"));
    }

    /**
     * An id computed row by row; {@code cell} null for a Delete by key.
     *
     * @param schema          the archive's schema
     * @param deletionColumns the columns a deletion is encoded by ({@code ArchiveDescriptor.deletionColumns()})
     */
    static DeltaId start(WriteMode mode, String cell, MessageType schema, List<String> deletionColumns) {
        BitSet fields = new BitSet(schema.getFieldCount());
        deletionColumns.forEach(column -> fields.set(schema.getFieldIndex(column)));
        return new DeltaId(mode, cell, fields);
    }

    /** Adds the next row of the delta. */
    void add(DeltaRow row) {
        digest.update((byte) (row.delete() ? 1 : 0));
        digest.update(RowValues.canonicalBytes(row.row(), row.delete() ? deletionFields : null));
    }

    /** The id of the rows added; the id cannot be extended after this. */
    String hex() {
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The id of a delta of these rows; {@code cell} null for a Delete by key. */
    public static String of(
            WriteMode mode, String cell, MessageType schema, List<String> deletionColumns, Iterable<DeltaRow> rows) {
        DeltaId id = start(mode, cell, schema, deletionColumns);
        rows.forEach(id::add);
        return id.hex();
    }

    /** A row's canonical encoding, the bytes its delete flag is followed by. */
    public static byte[] canonicalBytes(Group row) {
        return RowValues.canonicalBytes(row);
    }
}
