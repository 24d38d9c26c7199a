package dev.nifigeoparquet.cli;

/** Something the user gave cannot be used (a missing or unreadable file, an option that does not fit): exit 2. */
final class InputException extends RuntimeException {

    InputException(String message) {
        super(message);
    }

    InputException(String message, Throwable cause) {
        super(message, cause);
    }
}
