package dev.nifigeoparquet.archive.format;

import java.util.List;

/**
 * Operations a commit applied to its partition together, and what they did to the partition's rows. A commit lists
 * one record per batch of operations it applied (usually one operation; several deltas of one partition applied in
 * one rewrite share a record, since a key in two of them is written once). The rows of a partition therefore
 * reconcile with the operations that changed it, however operations of several writers interleaved.
 *
 * @param ids  the operation ids, as in {@code recentOperationIds}
 * @param rows their row changes to this partition; null when the commit changes no feature rows (the key index)
 */
public record OperationRecord(List<String> ids, RowChanges rows) {

    public OperationRecord {
        ids = List.copyOf(ids);
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("An operation record names at least one operation");
        }
    }
}
