package dev.nifigeoparquet.archive.error;

import java.io.IOException;

/** A participant's work failed; nothing was committed. */
public final class ParticipantFailedException extends IOException {
    private final String cell;

    public ParticipantFailedException(String cell, Exception cause) {
        super(cause.getMessage(), cause);
        this.cell = cell;
    }

    /** The partition whose work failed. */
    public String cell() {
        return cell;
    }
}
