package dev.nifigeoparquet.archive.error;

import java.io.IOException;

/**
 * An operation on the archive failed in a way its type explains, so callers decide what to do by the type and never
 * by the message: each subclass says its {@link FailureKind}. Among them:
 * <ul>
 *     <li>{@code CommitConflictException}: another writer committed first, or holds a partition. Nothing was committed;
 *     the same operation succeeds when redone on the new state. The engine redoes it itself a bounded number of times
 *     ({@link dev.nifigeoparquet.archive.concurrent.Retry}); one that still escapes may be retried later.</li>
 *     <li>{@link CorruptDataException}: data the archive holds cannot be used as its commit log describes it. Nothing was
 *     committed, and retrying cannot help until the archive is repaired.</li>
 *     <li>{@code PublishIncompleteException}: the operation is committed and is the archive's state, but publishing its
 *     files did not finish. The next operation on the partition finishes it; a retry is a replay that does.</li>
 *     <li>the storage's failures: {@link StorageUnavailableException} (throttled, timed out, unreachable),
 *     {@link StorageAccessDeniedException}, {@link StorageTlsException}, {@link StorageFullException}, {@link ArchivedObjectException}.</li>
 * </ul>
 * Input the archive refuses is {@link RejectedInputException}: unchecked, because it is found by code that checks
 * values, not by I/O. {@link FailureKind#of} classifies every failure, these and the JDK's.
 */
public abstract class ArchiveException extends IOException {

    protected ArchiveException(String message) {
        super(message);
    }

    protected ArchiveException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Whether the same operation can succeed later, and who acts. */
    public abstract FailureKind kind();

    /** For an {@link FailureKind#OPERATOR_ACTION} failure, what the operator should do; null otherwise. */
    public String advice() {
        return null;
    }
}
