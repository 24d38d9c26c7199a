package dev.nifigeoparquet.archive.ops;

import org.apache.parquet.example.data.Group;

/**
 * One row of a delta, in the archive's schema.
 *
 * @param row    the row; for a delete, only the key columns need values
 * @param delete whether this row deletes its key (the delete-marker field was true)
 */
public record DeltaRow(Group row, boolean delete) {

    public static DeltaRow upsert(Group row) {
        return new DeltaRow(row, false);
    }

    public static DeltaRow deletion(Group keyRow) {
        return new DeltaRow(keyRow, true);
    }
}
