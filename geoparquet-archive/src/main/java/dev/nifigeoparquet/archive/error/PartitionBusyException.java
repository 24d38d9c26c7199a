package dev.nifigeoparquet.archive.error;

/** Another writer's transaction holds the partition; it is decided within moments, or aborted after the timeout. */
public final class PartitionBusyException extends CommitConflictException {
    public PartitionBusyException(String cell, String transaction) {
        super(
                "Partition " + cell + " is held by transaction " + transaction
                        + " of another writer, which is still in progress",
                cell,
                -1);
    }
}
