package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.format.PartitionCommit;

/**
 * The result of committing one operation to one partition.
 *
 * @param before   the state the operation was applied to
 * @param after    the state after the commit; equal to {@code before} for a replay
 * @param change   what the operation changed; empty for a replay
 * @param replay   the operation id had already been committed, so nothing was done
 * @param attempts how many attempts it took (more than 1 after losing commit races)
 */
public record CommitOutcome(
        PartitionCommit before, PartitionCommit after, PartitionChange change, boolean replay, int attempts) {}
