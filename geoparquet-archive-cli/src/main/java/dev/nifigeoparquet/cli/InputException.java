package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.error.RejectedInputException;

/** Something the user gave cannot be used (a missing or unreadable file, an option that does not fit): exit 2. */
final class InputException extends RejectedInputException {

    InputException(String message) {
        super(message);
    }

    InputException(String message, Throwable cause) {
        super(message, cause);
    }
}
