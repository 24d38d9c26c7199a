package dev.nifigeoparquet.archive.error;

/**
 * The archive refuses what it was given: a delta, a template, a cell name, an option. Nothing was written because of
 * it, and the same input fails again; the message says what is wrong with it. An {@link IllegalArgumentException}, like
 * the checks of values that raise it; an {@link IllegalArgumentException} of any other type is a fault of the caller's
 * code, not of its input.
 *
 * @see ArchiveException the other kinds of failure
 */
public class RejectedInputException extends IllegalArgumentException {

    public RejectedInputException(String message) {
        super(message);
    }

    public RejectedInputException(String message, Throwable cause) {
        super(message, cause);
    }
}
