package dev.nifigeoparquet.processors.record;

import java.math.BigInteger;
import org.apache.nifi.serialization.record.DataType;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.DecimalLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.IntLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimestampLogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;

/**
 * What a Parquet primitive column means, decided once from its physical type and logical annotation:
 * the single place that maps a column to its NiFi field type.
 */
record ParquetScalar(Kind kind, PrimitiveType type) {

    enum Kind {
        BOOLEAN,
        INTEGER,
        FLOAT,
        DOUBLE,
        DECIMAL,
        DATE,
        TIME,
        TIMESTAMP,
        INT96_TIMESTAMP,
        STRING,
        UUID,
        BYTES
    }

    static ParquetScalar of(PrimitiveType type) {
        return new ParquetScalar(kindOf(type), type);
    }

    private static Kind kindOf(PrimitiveType type) {
        LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
        if (annotation instanceof DecimalLogicalTypeAnnotation) {
            return Kind.DECIMAL;
        }
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> Kind.BOOLEAN;
            case INT32, INT64 ->
                switch (annotation) {
                    case LogicalTypeAnnotation.DateLogicalTypeAnnotation ignored -> Kind.DATE;
                    case TimeLogicalTypeAnnotation ignored -> Kind.TIME;
                    case TimestampLogicalTypeAnnotation ignored -> Kind.TIMESTAMP;
                    case null, default -> Kind.INTEGER;
                };
            case INT96 -> Kind.INT96_TIMESTAMP;
            case FLOAT -> Kind.FLOAT;
            case DOUBLE -> Kind.DOUBLE;
            case BINARY ->
                annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                                || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                                || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation
                        ? Kind.STRING
                        : Kind.BYTES;
            case FIXED_LEN_BYTE_ARRAY ->
                annotation instanceof LogicalTypeAnnotation.UUIDLogicalTypeAnnotation ? Kind.UUID : Kind.BYTES;
        };
    }

    /** The NiFi type whose Java values hold every value of this column exactly. */
    DataType nifiType() {
        return switch (kind) {
            case BOOLEAN -> RecordFieldType.BOOLEAN.getDataType();
            case INTEGER -> integerNifiType();
            case FLOAT -> RecordFieldType.FLOAT.getDataType();
            case DOUBLE -> RecordFieldType.DOUBLE.getDataType();
            case DECIMAL ->
                RecordFieldType.DECIMAL.getDecimalDataType(
                        decimal().getPrecision(), decimal().getScale());
            case DATE -> RecordFieldType.DATE.getDataType();
            case TIME -> RecordFieldType.TIME.getDataType();
            case TIMESTAMP, INT96_TIMESTAMP -> RecordFieldType.TIMESTAMP.getDataType();
            case STRING -> RecordFieldType.STRING.getDataType();
            case UUID -> RecordFieldType.UUID.getDataType();
            case BYTES -> RecordFieldType.ARRAY.getArrayDataType(RecordFieldType.BYTE.getDataType(), false);
        };
    }

    private DataType integerNifiType() {
        int bits = bitWidth();
        int widened = signed() ? bits : bits * 2;
        return switch (widened) {
            case 8 -> RecordFieldType.BYTE.getDataType();
            case 16 -> RecordFieldType.SHORT.getDataType();
            case 32 -> RecordFieldType.INT.getDataType();
            case 64 -> RecordFieldType.LONG.getDataType();
            default -> RecordFieldType.BIGINT.getDataType();
        };
    }

    /** Width of an INTEGER column's values: the annotation's, else the physical type's. */
    int bitWidth() {
        if (type.getLogicalTypeAnnotation() instanceof IntLogicalTypeAnnotation intType) {
            return intType.getBitWidth();
        }
        return type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.INT32 ? 32 : 64;
    }

    boolean signed() {
        return !(type.getLogicalTypeAnnotation() instanceof IntLogicalTypeAnnotation intType) || intType.isSigned();
    }

    BigInteger minimum() {
        return signed() ? BigInteger.ONE.shiftLeft(bitWidth() - 1).negate() : BigInteger.ZERO;
    }

    BigInteger maximum() {
        return signed()
                ? BigInteger.ONE.shiftLeft(bitWidth() - 1).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(bitWidth()).subtract(BigInteger.ONE);
    }

    DecimalLogicalTypeAnnotation decimal() {
        return (DecimalLogicalTypeAnnotation) type.getLogicalTypeAnnotation();
    }

    /** Unit of a TIME or TIMESTAMP column. */
    TimeUnit timeUnit() {
        return switch (type.getLogicalTypeAnnotation()) {
            case TimeLogicalTypeAnnotation time -> time.getUnit();
            case TimestampLogicalTypeAnnotation timestamp -> timestamp.getUnit();
            default -> TimeUnit.NANOS;
        };
    }

    /** Whether a TIMESTAMP column holds instants (true) or zone-less wall-clock values (false). INT96 holds instants. */
    boolean adjustedToUtc() {
        return !(type.getLogicalTypeAnnotation() instanceof TimestampLogicalTypeAnnotation timestamp)
                || timestamp.isAdjustedToUTC();
    }

    /** Name of the target type as shown in refusals, e.g. {@code INT(16, unsigned)} or {@code DECIMAL(9,2)}. */
    String describe() {
        return switch (kind) {
            case INTEGER ->
                type.getLogicalTypeAnnotation() instanceof IntLogicalTypeAnnotation
                        ? "INT(" + bitWidth() + (signed() ? ", signed)" : ", unsigned)")
                        : type.getPrimitiveTypeName().name();
            case DECIMAL ->
                "DECIMAL(" + decimal().getPrecision() + "," + decimal().getScale() + ")";
            case TIME, TIMESTAMP ->
                kind + "(" + timeUnit() + (kind == Kind.TIMESTAMP ? ", adjustedToUTC=" + adjustedToUtc() : "") + ")";
            case INT96_TIMESTAMP -> "INT96 timestamp";
            case BYTES ->
                type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY
                        ? "FIXED_LEN_BYTE_ARRAY(" + type.getTypeLength() + ")"
                        : "BINARY";
            default -> kind.name();
        };
    }
}
