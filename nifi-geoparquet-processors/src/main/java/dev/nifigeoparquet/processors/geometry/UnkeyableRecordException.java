package dev.nifigeoparquet.processors.geometry;

/**
 * A record that cannot be given an H3 cell. The reason is a stable upper-case word (for example
 * {@code INVALID_GEOMETRY}, or one of the engine's keying reasons such as {@code LATITUDE_OUT_OF_RANGE}); the
 * message starts with it and says what was wrong with this record.
 */
public final class UnkeyableRecordException extends Exception {

    /** The record has no value in the geometry field(s). */
    public static final String MISSING_GEOMETRY = "MISSING_GEOMETRY";
    /** The value could not be read as a geometry of the configured format. */
    public static final String INVALID_GEOMETRY = "INVALID_GEOMETRY";

    private final String reason;

    public UnkeyableRecordException(String reason, String message) {
        this(reason, message, null);
    }

    public UnkeyableRecordException(String reason, String message, Throwable cause) {
        super(message.startsWith(reason) ? message : reason + ": " + message, cause);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
