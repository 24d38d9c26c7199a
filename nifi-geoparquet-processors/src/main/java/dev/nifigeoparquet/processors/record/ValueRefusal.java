package dev.nifigeoparquet.processors.record;

/**
 * Raised by the value-level helpers, which do not know where in the record they are; the field converter
 * catches it and rethrows it as a {@link RecordConversionException} with the path and the value.
 */
final class ValueRefusal extends RuntimeException {

    private final RecordConversionException.Reason reason;

    ValueRefusal(RecordConversionException.Reason reason, String why) {
        super(why, null, false, false);
        this.reason = reason;
    }

    RecordConversionException.Reason reason() {
        return reason;
    }

    RecordConversionException at(String path, Object value) {
        return RecordConversionException.forValue(path, value, reason, getMessage());
    }
}
