package dev.nifigeoparquet.archive.error;

import java.io.IOException;

/**
 * Creating the decision (or a plain commit's entry) failed in a way that does not say whether it was created: the
 * operation may have been committed. Nothing was discarded; a retry finds out (a replay), and recovery removes the
 * staged files after the writer lease if it was not.
 */
public final class CommitStateUnknownException extends ArchiveException {
    public CommitStateUnknownException(String what, IOException cause) {
        super(what + " failed and may or may not have taken effect: " + cause.getMessage(), cause);
    }

    /** A retry finds out whether the operation was committed: it is then a replay. */
    @Override
    public FailureKind kind() {
        return FailureKind.TRANSIENT;
    }
}
