package dev.nifigeoparquet.archive.error;

import java.io.InterruptedIOException;
import java.nio.file.AccessDeniedException;

/**
 * What a failed operation means for whoever asked for it: the one closed classification of every failure of the
 * engine, decided by type, never by message. An operation that failed left the archive unchanged (or, for
 * {@link PublishIncompleteException}-like failures, committed and to be completed), whatever its kind; the kind only
 * says whether the same request can succeed later, and who has to act.
 */
public enum FailureKind {

    /**
     * Goes away by itself: another writer committed first or holds a partition, the storage throttled, timed out,
     * reset the connection or is down for a while, the task was interrupted. The same request succeeds later; a caller
     * retries it after a pause (NiFi: route to retry and yield).
     */
    TRANSIENT,

    /**
     * The request itself is wrong and fails again as it is: records that cannot be keyed or converted, a delta the
     * archive refuses. Retrying cannot help; the reason names the record or field (NiFi: route to failure).
     */
    BAD_INPUT,

    /**
     * Neither the request nor time is the cause: the archive or its storage needs an operator. Permission denied, an
     * object in an archive storage class, metadata that is corrupt or of a newer format, a damaged data file, a full
     * disk, a missing archive, and every failure of an unknown kind. Retrying spins until someone acts, so a caller
     * reports what to do ({@link #adviceFor}) and backs off (NiFi: route to failure, raise a bulletin, yield).
     */
    OPERATOR_ACTION;

    /**
     * The kind of a failure: that of the first exception of its chain whose type has one (a plain wrapper, such as the
     * {@code IOException} a Parquet writer wraps a storage failure in, takes its cause's kind). Unknown failures are
     * {@link #OPERATOR_ACTION}: never retried blindly.
     */
    public static FailureKind of(Throwable failure) {
        return switch (classified(failure)) {
            case ArchiveException known -> known.kind();
            case RejectedInputException rejected -> BAD_INPUT;
            case InterruptedIOException interrupted -> TRANSIENT;
            case null, default -> OPERATOR_ACTION;
        };
    }

    /**
     * For an {@link #OPERATOR_ACTION} failure, what the operator should do, as one sentence to put beside its message;
     * null for the other kinds.
     */
    public static String adviceFor(Throwable failure) {
        if (of(failure) != OPERATOR_ACTION) {
            return null;
        }
        return switch (classified(failure)) {
            case ArchiveException known -> known.advice();
            case AccessDeniedException denied ->
                "Give the user the process runs as read and write access to " + denied.getFile()
                        + " and the archive's directories (a read-only mount is refused the same way).";
            case null, default ->
                "This failure is of no known kind: read the stack trace in the log, fix its cause, then "
                        + "retry the FlowFiles from failure.";
        };
    }

    /** The first exception of the chain whose type has a kind; null when none has. */
    private static Throwable classified(Throwable failure) {
        Throwable current = failure;
        for (int depth = 0; current != null && depth < MAX_CAUSES; depth++) {
            if (current instanceof ArchiveException
                    || current instanceof RejectedInputException
                    || current instanceof InterruptedIOException
                    || current instanceof AccessDeniedException) {
                return current;
            }
            current = current.getCause() == current ? null : current.getCause();
        }
        return null;
    }

    /** Causes followed at most: a chain is never that long, and a cycle must end. */
    private static final int MAX_CAUSES = 32;
}
