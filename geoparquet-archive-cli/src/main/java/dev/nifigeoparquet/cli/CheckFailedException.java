package dev.nifigeoparquet.cli;

/** A check the command makes failed (for example counts that do not reconcile): exit 1. */
final class CheckFailedException extends RuntimeException {

    CheckFailedException(String message) {
        super(message);
    }
}
