package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.ArchiveException;
import dev.nifigeoparquet.archive.CorruptDataException;
import dev.nifigeoparquet.archive.RejectedInputException;

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
     * Whether an engine failure is worth retrying, by its type ({@link ArchiveException} says what each means). True for
     * what goes away by itself: a commit lost to another writer, a partition busy with another writer's transaction, a
     * publish the next writer completes, a failure of the storage. False for what does not: input the archive refuses,
     * corrupt data in the archive, and anything else (a value that cannot be stored, a fault of the code).
     */
    static boolean isTransient(Throwable failure) {
        return switch (failure) {
            case RejectedInputException rejected -> false;
            case CorruptDataException corrupt -> false;
            case ArchiveException conflictOrUnpublished -> true;
            case UncheckedIOException unchecked -> isTransient(unchecked.getCause());
            case IOException storage -> true;
            default -> false;
        };
    }

    /** The message to show an operator: the exception's, or its type when it has none. */
    static String describe(Throwable failure) {
        String message = failure.getMessage();
        return message == null || message.isBlank() ? failure.getClass().getSimpleName() : message;
    }
}
