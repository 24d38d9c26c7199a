package dev.nifigeoparquet.archive.error;

/**
 * The storage has no room left for what the operation writes. Nothing was committed (staged files are removed by the
 * next writer of the partition); the same operation succeeds once space is freed.
 */
public final class StorageFullException extends ArchiveException {

    public StorageFullException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public FailureKind kind() {
        return FailureKind.OPERATOR_ACTION;
    }

    @Override
    public String advice() {
        return "Free space on the archive's file system (or raise its quota), then retry the FlowFiles from failure.";
    }
}
