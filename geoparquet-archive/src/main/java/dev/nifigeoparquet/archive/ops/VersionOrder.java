package dev.nifigeoparquet.archive.ops;

import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.PrimitiveComparator;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Orders two rows by the archive's version column (for example {@code updated_at}), so a late delta carrying an
 * older version of a feature does not overwrite a newer one, wherever the newer one is stored. A null version is
 * older than any value. Equal versions are not older: the delta's row wins a tie, as it would without a version
 * column, so redelivering the same version is idempotent and a correction re-sent with the same version applies.
 */
final class VersionOrder {

    private final String column;
    private final PrimitiveType type;

    VersionOrder(GroupType schema, String column) {
        if (!schema.containsField(column) || !schema.getType(column).isPrimitive()) {
            throw new IllegalArgumentException("Version column '" + column + "' must be a primitive column");
        }
        this.column = column;
        this.type = schema.getType(column).asPrimitiveType();
    }

    /**
     * Whether the delta row's version is older than the stored row's (then the stored row stays). Either row may be a
     * projection that holds the version column among others.
     */
    boolean deltaIsOlder(Group delta, Group stored) {
        return compare(delta, stored) < 0;
    }

    private int compare(Group a, Group b) {
        int fieldA = a.getType().getFieldIndex(column);
        int fieldB = b.getType().getFieldIndex(column);
        boolean aNull = a.getFieldRepetitionCount(fieldA) == 0;
        boolean bNull = b.getFieldRepetitionCount(fieldB) == 0;
        if (aNull || bNull) {
            return Boolean.compare(!aNull, !bNull);
        }
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> Boolean.compare(a.getBoolean(fieldA, 0), b.getBoolean(fieldB, 0));
            case INT32 -> type.comparator().compare(a.getInteger(fieldA, 0), b.getInteger(fieldB, 0));
            case INT64 -> type.comparator().compare(a.getLong(fieldA, 0), b.getLong(fieldB, 0));
            case FLOAT -> Float.compare(a.getFloat(fieldA, 0), b.getFloat(fieldB, 0));
            case DOUBLE -> Double.compare(a.getDouble(fieldA, 0), b.getDouble(fieldB, 0));
            // Parquet's own column order for the type: unsigned bytes for strings, signed for decimals, INT96 by value.
            case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 ->
                binaryOrder().compare(a.getBinary(fieldA, 0), b.getBinary(fieldB, 0));
        };
    }

    @SuppressWarnings("unchecked")
    private PrimitiveComparator<Binary> binaryOrder() {
        return (PrimitiveComparator<Binary>) (Object) type.comparator();
    }
}
