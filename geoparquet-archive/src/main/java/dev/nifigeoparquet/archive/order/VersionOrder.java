package dev.nifigeoparquet.archive.order;

import java.nio.ByteBuffer;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.PrimitiveComparator;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Orders the versions of one feature by the archive's version column (for example {@code updated_at}), so a late delta
 * carrying an older version of a feature does not overwrite a newer one, wherever the newer one is stored
 * (docs/archive-format.md, section 6.3). A null version is older than any value. Equal versions are not older: the
 * delta's row wins a tie, as it would without a version column, so redelivering the same version is idempotent and a
 * correction re-sent with the same version applies.
 *
 * <p>A version is carried as its value's canonical bytes (section 6.4: the bytes section 5.8 encodes a value with,
 * without the count), which is how the key index records the version of a key's stamp; values are compared in the
 * column type's own order.
 */
public final class VersionOrder {

    private final String column;
    private final PrimitiveType type;

    public VersionOrder(GroupType schema, String column) {
        if (!schema.containsField(column) || !schema.getType(column).isPrimitive()) {
            throw new IllegalArgumentException("Version column '" + column + "' must be a primitive column");
        }
        this.column = column;
        this.type = schema.getType(column).asPrimitiveType();
    }

    /** The version column's name. */
    public String column() {
        return column;
    }

    /**
     * Whether the delta row's version is older than the stored row's (then the stored row stays). Either row may be a
     * projection that holds the version column among others.
     */
    public boolean deltaIsOlder(Group delta, Group stored) {
        return compare(valueOf(delta), valueOf(stored)) < 0;
    }

    /** A row's version as canonical bytes; null when the row has none (or no version column at all). */
    public Binary valueOf(Group row) {
        if (!row.getType().containsField(column)) {
            return null;
        }
        int field = row.getType().getFieldIndex(column);
        if (row.getFieldRepetitionCount(field) == 0) {
            return null;
        }
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> Binary.fromConstantByteArray(new byte[] {(byte) (row.getBoolean(field, 0) ? 1 : 0)});
            case INT32 ->
                Binary.fromConstantByteArray(ByteBuffer.allocate(Integer.BYTES)
                        .putInt(row.getInteger(field, 0))
                        .array());
            case INT64 ->
                Binary.fromConstantByteArray(ByteBuffer.allocate(Long.BYTES)
                        .putLong(row.getLong(field, 0))
                        .array());
            case FLOAT ->
                Binary.fromConstantByteArray(ByteBuffer.allocate(Float.BYTES)
                        .putInt(Float.floatToRawIntBits(row.getFloat(field, 0)))
                        .array());
            case DOUBLE ->
                Binary.fromConstantByteArray(ByteBuffer.allocate(Double.BYTES)
                        .putLong(Double.doubleToRawLongBits(row.getDouble(field, 0)))
                        .array());
            case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> row.getBinary(field, 0).copy();
        };
    }

    /** Compares two versions given as canonical bytes, null first. */
    public int compare(Binary a, Binary b) {
        if (a == null || b == null) {
            return Boolean.compare(a != null, b != null);
        }
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> Boolean.compare(a.getBytesUnsafe()[0] != 0, b.getBytesUnsafe()[0] != 0);
            case INT32 -> type.comparator().compare(intOf(a), intOf(b));
            case INT64 -> type.comparator().compare(longOf(a), longOf(b));
            case FLOAT -> Float.compare(Float.intBitsToFloat(intOf(a)), Float.intBitsToFloat(intOf(b)));
            case DOUBLE -> Double.compare(Double.longBitsToDouble(longOf(a)), Double.longBitsToDouble(longOf(b)));
            // Parquet's own column order for the type: unsigned bytes for strings, signed for decimals, INT96 by value.
            case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> binaryOrder().compare(a, b);
        };
    }

    private static int intOf(Binary value) {
        requireLength(value, Integer.BYTES);
        return value.toByteBuffer().getInt();
    }

    private static long longOf(Binary value) {
        requireLength(value, Long.BYTES);
        return value.toByteBuffer().getLong();
    }

    private static void requireLength(Binary value, int length) {
        if (value.length() != length) {
            throw new IllegalArgumentException(
                    "A version of " + length + " bytes was expected, not of " + value.length());
        }
    }

    @SuppressWarnings("unchecked")
    private PrimitiveComparator<Binary> binaryOrder() {
        return (PrimitiveComparator<Binary>) (Object) type.comparator();
    }
}
