package dev.nifigeoparquet.archive.error;

/** Thrown when a stored value is not a valid geometry; the message names the row and column. */
public final class GeometryCodecException extends IllegalArgumentException {
    public GeometryCodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
