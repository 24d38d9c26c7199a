package dev.nifigeoparquet.processors.record;

import java.util.Objects;

/**
 * A NiFi value or record that cannot be represented exactly in the target Parquet schema (or a Parquet
 * value that has no exact NiFi form). The message names the field path, the offending value and its type,
 * and why; {@link #reason()} lets callers route on the kind of failure without parsing the message.
 */
public final class RecordConversionException extends RuntimeException {

    /** What kind of mismatch stopped the conversion. */
    public enum Reason {
        /** A field of the target schema is absent from the record. */
        MISSING_FIELD,
        /** A null value was given for a required Parquet field. */
        NULL_INTO_REQUIRED,
        /** The record carries a field the target schema does not have. */
        EXTRA_FIELD,
        /** The value lies outside the range of the target type. */
        OUT_OF_RANGE,
        /** The value has more precision than the target type keeps. */
        PRECISION_LOSS,
        /** The value's Java type has no conversion to the target type. */
        WRONG_TYPE,
        /** A string value is not an unambiguous representation of the target type. */
        UNPARSEABLE,
        /** The Parquet schema uses a shape this mapping does not support. */
        UNSUPPORTED_SCHEMA
    }

    private final String fieldPath;
    private final Reason reason;

    RecordConversionException(String fieldPath, Reason reason, String message) {
        super(message);
        this.fieldPath = Objects.requireNonNull(fieldPath);
        this.reason = Objects.requireNonNull(reason);
    }

    /** Dotted path of the field, with {@code [i]} for list elements and {@code ['k']} for map entries. */
    public String fieldPath() {
        return fieldPath;
    }

    public Reason reason() {
        return reason;
    }

    /**
     * A refusal of one value, for conversions that callers plug in (see the converters' {@code ColumnOverride}).
     *
     * @param why completes "field 'path' value v ...", e.g. "is not valid WKB"
     */
    public static RecordConversionException forValue(final String path, Object value, Reason reason, String why) {
        return new RecordConversionException(
                path, reason, "field '" + path + "' value " + ValueDescriptions.describe(value) + " " + why);
    }

    static RecordConversionException forField(String path, Reason reason, String what) {
        return new RecordConversionException(path, reason, what.replace("{}", "'" + path + "'"));
    }
}
