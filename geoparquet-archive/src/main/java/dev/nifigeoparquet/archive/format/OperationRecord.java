package dev.nifigeoparquet.archive.format;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Operations a commit applied to its partition together, and what they did to the partition's rows. A commit lists
 * one record per batch of operations it applied (usually one operation; several deltas of one partition applied in
 * one rewrite share a record, since a key in two of them is written once). The rows of a partition therefore
 * reconcile with the operations that changed it, however operations of several writers interleaved.
 *
 * @param ids       the operation ids, as in {@code recentOperationIds}
 * @param rows      their row changes to this partition; null when the commit changes no feature rows (the key index)
 * @param sequences the delta sequence of each id, in the order of {@code ids}, null for an unsequenced one; null when
 *                  none of them has a sequence (docs/archive-format.md, section 6.4)
 */
public record OperationRecord(List<String> ids, RowChanges rows, List<Long> sequences) {

    public OperationRecord {
        ids = List.copyOf(ids);
        if (ids.isEmpty()) {
            throw new IllegalArgumentException("An operation record names at least one operation");
        }
        if (sequences != null) {
            if (sequences.size() != ids.size()) {
                throw new IllegalArgumentException("An operation record has one sequence per id: " + ids.size()
                        + " ids, " + sequences.size() + " sequences");
            }
            sequences = sequences.stream().allMatch(Objects::isNull)
                    ? null
                    : Collections.unmodifiableList(new ArrayList<>(sequences));
        }
    }

    /** Operations without a sequence. */
    public OperationRecord(List<String> ids, RowChanges rows) {
        this(ids, rows, null);
    }
}
