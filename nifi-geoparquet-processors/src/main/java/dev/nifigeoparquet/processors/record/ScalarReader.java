package dev.nifigeoparquet.processors.record;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.PrimitiveType;

/** Reads one primitive value of a column as the Java value NiFi expects for the column's field type. */
@FunctionalInterface
interface ScalarReader {

    Object read(Group group, int field, int index);

    static ScalarReader of(ParquetScalar scalar, String path) {
        return switch (scalar.kind()) {
            case BOOLEAN -> Group::getBoolean;
            case INTEGER -> integerReader(scalar, path);
            case FLOAT -> Group::getFloat;
            case DOUBLE -> Group::getDouble;
            case DECIMAL -> decimalReader(scalar);
            case DATE -> (group, field, index) -> TemporalValues.dateOf(group.getInteger(field, index));
            case TIME ->
                (group, field, index) ->
                        TemporalValues.timeOf(count(scalar, group, field, index), scalar.timeUnit(), path);
            case TIMESTAMP ->
                (group, field, index) -> TemporalValues.timestampOf(
                        group.getLong(field, index), scalar.timeUnit(), scalar.adjustedToUtc(), path);
            case INT96_TIMESTAMP ->
                (group, field, index) -> TemporalValues.timestampOfInt96(
                        group.getInt96(field, index).getBytes());
            case STRING -> (group, field, index) -> utf8(group.getBinary(field, index), path);
            case UUID ->
                (group, field, index) -> uuid(group.getBinary(field, index).toByteBuffer());
            case BYTES ->
                (group, field, index) ->
                        BinaryValues.boxed(group.getBinary(field, index).getBytes());
        };
    }

    private static long count(ParquetScalar scalar, Group group, int field, int index) {
        return switch (scalar.type().getPrimitiveTypeName()) {
            case INT32 -> group.getInteger(field, index);
            default -> group.getLong(field, index);
        };
    }

    private static ScalarReader integerReader(ParquetScalar scalar, String path) {
        boolean int32 = scalar.type().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32;
        boolean signed = scalar.signed();
        return switch (scalar.bitWidth() * (signed ? 1 : 2)) {
            case 8 -> (group, field, index) -> (byte) inRange(scalar, path, group.getInteger(field, index));
            case 16 ->
                (group, field, index) -> (short) inRange(
                        scalar,
                        path,
                        int32 ? unsigned(group.getInteger(field, index), signed) : group.getLong(field, index));
            case 32 ->
                int32
                        ? (group, field, index) ->
                                (int) inRange(scalar, path, unsigned(group.getInteger(field, index), signed))
                        : (group, field, index) -> (int) inRange(scalar, path, group.getLong(field, index));
            case 64 ->
                int32 ? (group, field, index) -> unsigned(group.getInteger(field, index), signed) : Group::getLong;
            default -> (group, field, index) -> new BigInteger(Long.toUnsignedString(group.getLong(field, index)));
        };
    }

    private static long unsigned(int stored, boolean signed) {
        return signed ? stored : Integer.toUnsignedLong(stored);
    }

    /** Values outside the annotated width are corrupt data; report them rather than wrap around. */
    private static long inRange(ParquetScalar scalar, String path, long value) {
        if (BigInteger.valueOf(value).compareTo(scalar.minimum()) < 0
                || BigInteger.valueOf(value).compareTo(scalar.maximum()) > 0) {
            throw RecordConversionException.forValue(
                    path,
                    value,
                    RecordConversionException.Reason.OUT_OF_RANGE,
                    "is outside the range of its annotation " + scalar.describe());
        }
        return value;
    }

    private static ScalarReader decimalReader(ParquetScalar scalar) {
        int scale = scalar.decimal().getScale();
        return switch (scalar.type().getPrimitiveTypeName()) {
            case INT32 -> (group, field, index) -> BigDecimal.valueOf(group.getInteger(field, index), scale);
            case INT64 -> (group, field, index) -> BigDecimal.valueOf(group.getLong(field, index), scale);
            default ->
                (group, field, index) -> new BigDecimal(
                        new BigInteger(group.getBinary(field, index).getBytes()), scale);
        };
    }

    private static String utf8(Binary binary, String path) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(binary.toByteBuffer())
                    .toString();
        } catch (CharacterCodingException e) {
            throw RecordConversionException.forValue(
                    path,
                    binary.getBytes(),
                    RecordConversionException.Reason.UNPARSEABLE,
                    "is not valid UTF-8 text for a STRING column");
        }
    }

    private static UUID uuid(ByteBuffer bytes) {
        return new UUID(bytes.getLong(bytes.position()), bytes.getLong(bytes.position() + 8));
    }
}
