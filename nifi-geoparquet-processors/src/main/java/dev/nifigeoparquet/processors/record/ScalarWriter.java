package dev.nifigeoparquet.processors.record;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.UUID;
import java.util.regex.Pattern;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;

/**
 * Appends one NiFi value to a primitive column, converting it exactly or refusing it with a
 * {@link ValueRefusal} that says why.
 */
@FunctionalInterface
interface ScalarWriter {

    Pattern CANONICAL_UUID =
            Pattern.compile("\\p{XDigit}{8}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{4}-\\p{XDigit}{12}");

    void write(Group group, int field, Object value);

    static ScalarWriter of(ParquetScalar scalar) {
        PrimitiveTypeName physical = scalar.type().getPrimitiveTypeName();
        return switch (scalar.kind()) {
            case BOOLEAN -> (group, field, value) -> group.add(field, ExactNumbers.booleanOf(value));
            case INTEGER -> integerWriter(scalar);
            case FLOAT -> (group, field, value) -> group.add(field, ExactNumbers.floatOf(value));
            case DOUBLE -> (group, field, value) -> group.add(field, ExactNumbers.doubleOf(value));
            case DECIMAL -> decimalWriter(scalar);
            case DATE -> (group, field, value) -> group.add(field, TemporalValues.epochDayOf(value));
            case TIME ->
                physical == PrimitiveTypeName.INT32
                        ? (group, field, value) ->
                                group.add(field, (int) TemporalValues.timeCountOf(value, scalar.timeUnit()))
                        : (group, field, value) ->
                                group.add(field, TemporalValues.timeCountOf(value, scalar.timeUnit()));
            case TIMESTAMP ->
                (group, field, value) -> group.add(
                        field, TemporalValues.timestampCountOf(value, scalar.timeUnit(), scalar.adjustedToUtc()));
            case INT96_TIMESTAMP ->
                (group, field, value) -> group.add(field, Binary.fromConstantByteArray(TemporalValues.int96Of(value)));
            case STRING -> (group, field, value) -> group.add(field, Binary.fromString(textOf(value)));
            case UUID -> (group, field, value) -> group.add(field, Binary.fromConstantByteArray(uuidBytesOf(value)));
            case BYTES -> bytesWriter(scalar);
        };
    }

    private static ScalarWriter integerWriter(ParquetScalar scalar) {
        boolean int32 = scalar.type().getPrimitiveTypeName() == PrimitiveTypeName.INT32;
        return (group, field, value) -> {
            BigInteger number = ExactNumbers.integerOf(value);
            if (number.compareTo(scalar.minimum()) < 0 || number.compareTo(scalar.maximum()) > 0) {
                throw new ValueRefusal(
                        RecordConversionException.Reason.OUT_OF_RANGE,
                        "does not fit " + scalar.describe() + " [" + scalar.minimum() + ", " + scalar.maximum() + "]");
            }
            // Unsigned values above the signed maximum are stored as their two's complement bit pattern.
            if (int32) {
                group.add(field, number.intValue());
            } else {
                group.add(field, number.longValue());
            }
        };
    }

    private static ScalarWriter decimalWriter(ParquetScalar scalar) {
        return switch (scalar.type().getPrimitiveTypeName()) {
            case INT32 ->
                (group, field, value) -> group.add(
                        field,
                        DecimalValues.unscaledFor(ExactNumbers.decimalOf(value), scalar.decimal())
                                .intValueExact());
            case INT64 ->
                (group, field, value) -> group.add(
                        field,
                        DecimalValues.unscaledFor(ExactNumbers.decimalOf(value), scalar.decimal())
                                .longValueExact());
            case FIXED_LEN_BYTE_ARRAY ->
                (group, field, value) -> group.add(
                        field,
                        Binary.fromConstantByteArray(DecimalValues.fixedLength(
                                DecimalValues.unscaledFor(ExactNumbers.decimalOf(value), scalar.decimal()),
                                scalar.type().getTypeLength())));
            default ->
                (group, field, value) -> group.add(
                        field,
                        Binary.fromConstantByteArray(
                                DecimalValues.unscaledFor(ExactNumbers.decimalOf(value), scalar.decimal())
                                        .toByteArray()));
        };
    }

    private static ScalarWriter bytesWriter(ParquetScalar scalar) {
        boolean fixed = scalar.type().getPrimitiveTypeName() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY;
        int length = scalar.type().getTypeLength();
        return (group, field, value) -> {
            byte[] bytes = BinaryValues.bytesOf(value);
            if (fixed && bytes.length != length) {
                throw new ValueRefusal(
                        RecordConversionException.Reason.OUT_OF_RANGE,
                        "has " + bytes.length + " bytes; " + scalar.describe() + " needs exactly " + length);
            }
            // Copy: the caller's array may be reused or changed after the row is built.
            group.add(field, Binary.fromConstantByteArray(bytes == value ? bytes.clone() : bytes));
        };
    }

    /** Text, and values whose string form is unique and lossless (integers, booleans, UUIDs, enum names). */
    private static String textOf(Object value) {
        return switch (value) {
            case CharSequence text -> text.toString();
            case Character character -> character.toString();
            case Enum<?> constant -> constant.name();
            case UUID uuid -> uuid.toString();
            case Boolean bool -> bool.toString();
            case Byte number -> number.toString();
            case Short number -> number.toString();
            case Integer number -> number.toString();
            case Long number -> number.toString();
            case BigInteger number -> number.toString();
            default ->
                throw new ValueRefusal(
                        RecordConversionException.Reason.WRONG_TYPE,
                        "cannot be stored as STRING without choosing a format");
        };
    }

    private static byte[] uuidBytesOf(Object value) {
        UUID uuid = switch (value) {
            case UUID id -> id;
            case CharSequence text -> {
                String trimmed = text.toString().trim();
                if (!CANONICAL_UUID.matcher(trimmed).matches()) {
                    throw new ValueRefusal(
                            RecordConversionException.Reason.UNPARSEABLE, "is not a UUID in 8-4-4-4-12 hex form");
                }
                yield UUID.fromString(trimmed);
            }
            default -> {
                byte[] bytes = BinaryValues.bytesOf(value);
                if (bytes.length != 16) {
                    throw new ValueRefusal(
                            RecordConversionException.Reason.OUT_OF_RANGE,
                            "has " + bytes.length + " bytes; a UUID has 16");
                }
                yield new UUID(
                        ByteBuffer.wrap(bytes).getLong(), ByteBuffer.wrap(bytes).getLong(8));
            }
        };
        return ByteBuffer.allocate(16)
                .putLong(uuid.getMostSignificantBits())
                .putLong(uuid.getLeastSignificantBits())
                .array();
    }
}
