package dev.nifigeoparquet.archive.error;

import java.io.IOException;

/**
 * The operation is committed, but publishing its files or deleting superseded ones failed. The archive's state is the
 * new one; the next operation on the partition, or a retry of this one (a replay), completes it.
 */
public final class PublishIncompleteException extends ArchiveException {

    public PublishIncompleteException(String cell, IOException cause) {
        super(
                "Partition " + cell + " was committed but publishing its files did not complete (" + cause.getMessage()
                        + "); the next operation on the partition completes it",
                cause);
    }

    @Override
    public FailureKind kind() {
        return FailureKind.TRANSIENT;
    }
}
