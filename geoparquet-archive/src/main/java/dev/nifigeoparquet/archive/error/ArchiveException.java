package dev.nifigeoparquet.archive.error;

import dev.nifigeoparquet.archive.format.CommitConflictException;
import dev.nifigeoparquet.archive.format.PublishIncompleteException;
import java.io.IOException;

/**
 * An operation on the archive failed in a way its type explains, so callers decide what to do by the type and never
 * by the message. Three kinds, each a subclass:
 * <ul>
 *     <li>{@link CommitConflictException}: another writer committed first, or holds a partition. Nothing was committed;
 *     the same operation succeeds when redone on the new state. The engine redoes it itself a bounded number of times
 *     ({@link dev.nifigeoparquet.archive.concurrent.Retry}); one that still escapes may be retried later.</li>
 *     <li>{@link CorruptDataException}: data the archive holds cannot be used as its commit log describes it. Nothing was
 *     committed, and retrying cannot help until the archive is repaired.</li>
 *     <li>{@link PublishIncompleteException}: the operation is committed and is the archive's state, but publishing its
 *     files did not finish. The next operation on the partition finishes it; a retry is a replay that does.</li>
 * </ul>
 * Input the archive refuses is the fourth kind, {@link RejectedInputException}: unchecked, because it is found by code
 * that checks values, not by I/O. Any other {@link java.io.IOException} is a failure of the storage (a full disk, a
 * lost connection, a commit whose outcome the storage did not report): nothing or the whole operation was committed,
 * and the same operation may succeed once the storage recovers.
 */
public abstract class ArchiveException extends IOException {

    protected ArchiveException(String message) {
        super(message);
    }

    protected ArchiveException(String message, Throwable cause) {
        super(message, cause);
    }
}
