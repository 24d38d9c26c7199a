package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.format.CommitConflictException;
import dev.nifigeoparquet.archive.format.PartitionCommitter;
import dev.nifigeoparquet.archive.format.PartitionRecovery;
import dev.nifigeoparquet.archive.parquet.ParquetFileException;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Decides whether an engine failure is worth retrying. The archive is unchanged by a failed operation either way
 * (the commit protocol commits all or nothing); the question is only whether the same input may succeed later.
 */
final class ArchiveFailures {

    private ArchiveFailures() {
    }

    /**
     * True for what goes away by itself: a commit lost to another writer, a partition busy with another writer's
     * transaction, a publish the next writer completes, and I/O errors of the storage. False for what does not: a
     * corrupt or missing data file, a rejected delta, a value that cannot be stored, a bad cell name.
     */
    static boolean isTransient(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof PartitionRecovery.CommittedFileMissingException) {
                return false;
            }
        }
        // The storage itself refused (disk full, read-only, a file replaced by another writer): the same input can
        // succeed once that clears, even when the refusal surfaced while a Parquet file was being written.
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.nio.file.FileSystemException || String.valueOf(cause.getMessage()).contains("No space left on device")) {
                return true;
            }
        }
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ParquetFileException) {
                return false;
            }
        }
        return switch (failure) {
            case CommitConflictException conflict -> true;
            case PartitionCommitter.PublishIncompleteException incomplete -> true;
            case UncheckedIOException unchecked -> isTransient(unchecked.getCause());
            case IOException io -> true;
            default -> false;
        };
    }

    /** The message to show an operator: the exception's, or its type when it has none. */
    static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    }
}
