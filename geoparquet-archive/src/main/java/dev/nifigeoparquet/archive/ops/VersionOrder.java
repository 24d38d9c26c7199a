package dev.nifigeoparquet.archive.ops;

import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.PrimitiveType;

/**
 * Orders two rows by the archive's version column (for example {@code updated_at}), so a late delta carrying an
 * older version of a feature does not overwrite a newer one. A null version is older than any value.
 */
final class VersionOrder {

    private final int field;
    private final PrimitiveType type;

    VersionOrder(org.apache.parquet.schema.GroupType schema, String column) {
        this.field = schema.getFieldIndex(column);
        if (!schema.getType(field).isPrimitive()) {
            throw new IllegalArgumentException("Version column '" + column + "' must be a primitive column");
        }
        this.type = schema.getType(field).asPrimitiveType();
    }

    /** Whether the delta row's version is older than the archive row's (then the archive row stays). */
    boolean deltaIsOlder(Group delta, Group archive) {
        return compare(delta, archive) < 0;
    }

    private int compare(Group a, Group b) {
        boolean aNull = a.getFieldRepetitionCount(field) == 0;
        boolean bNull = b.getFieldRepetitionCount(field) == 0;
        if (aNull || bNull) {
            return Boolean.compare(!aNull, !bNull);
        }
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> Boolean.compare(a.getBoolean(field, 0), b.getBoolean(field, 0));
            case INT32 -> Integer.compare(a.getInteger(field, 0), b.getInteger(field, 0));
            case INT64 -> Long.compare(a.getLong(field, 0), b.getLong(field, 0));
            case FLOAT -> Float.compare(a.getFloat(field, 0), b.getFloat(field, 0));
            case DOUBLE -> Double.compare(a.getDouble(field, 0), b.getDouble(field, 0));
            // Parquet's own column order for the type: unsigned bytes for strings, signed for decimals, INT96 by value.
            case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> binaryOrder().compare(a.getBinary(field, 0), b.getBinary(field, 0));
        };
    }

    @SuppressWarnings("unchecked")
    private org.apache.parquet.schema.PrimitiveComparator<org.apache.parquet.io.api.Binary> binaryOrder() {
        return (org.apache.parquet.schema.PrimitiveComparator<org.apache.parquet.io.api.Binary>) (Object) type.comparator();
    }
}
