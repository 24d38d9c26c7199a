package dev.nifigeoparquet.archive.error;

import java.util.Objects;

/**
 * A feature or a CRS that cannot be given a partition key. The {@link Reason} lets callers route
 * or count failures without parsing messages; the message starts with the reason's name.
 */
public final class KeyingException extends RuntimeException {

    /** Why a feature or CRS cannot be keyed. */
    public enum Reason {
        NULL_GEOMETRY,
        EMPTY_GEOMETRY,
        NON_FINITE_COORDINATE,
        LATITUDE_OUT_OF_RANGE,
        LONGITUDE_OUT_OF_RANGE,
        /** The CRS is unknown: explicit JSON null, or a definition without a usable identifier. */
        UNKNOWN_CRS,
        /** The CRS is identified, but the projection library has no definition for it, or cannot build it. */
        UNSUPPORTED_CRS,
        /** A file declares a column's CRS twice (its geo metadata and its Parquet logical type), differently. */
        CONFLICTING_CRS,
        REPROJECTION_FAILED
    }

    private final Reason reason;

    public KeyingException(Reason reason, String message) {
        this(reason, message, null);
    }

    public KeyingException(Reason reason, String message, Throwable cause) {
        super(reason + ": " + message, cause);
        this.reason = Objects.requireNonNull(reason);
    }

    public Reason reason() {
        return reason;
    }
}
