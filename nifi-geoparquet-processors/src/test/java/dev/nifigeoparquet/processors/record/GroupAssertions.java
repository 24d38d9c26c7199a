package dev.nifigeoparquet.processors.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.Type;

/** Field-by-field equality of Parquet rows (SimpleGroup has no equals), down to the stored bits. */
public final class GroupAssertions {

    private GroupAssertions() {}

    public static void assertGroupsEqual(Group expected, Group actual) {
        assertEquals(expected.getType(), actual.getType(), "row schema");
        assertGroupsEqual(expected, actual, "");
    }

    private static void assertGroupsEqual(Group expected, Group actual, String path) {
        GroupType type = expected.getType();
        for (int field = 0; field < type.getFieldCount(); field++) {
            Type fieldType = type.getType(field);
            String fieldPath = path + "/" + fieldType.getName();
            int count = expected.getFieldRepetitionCount(field);
            assertEquals(count, actual.getFieldRepetitionCount(field), "repetitions of " + fieldPath);
            for (int index = 0; index < count; index++) {
                String valuePath = fieldPath + "[" + index + "]";
                if (fieldType.isPrimitive()) {
                    assertPrimitiveEquals(expected, actual, field, index, fieldType, valuePath);
                } else {
                    assertGroupsEqual(expected.getGroup(field, index), actual.getGroup(field, index), valuePath);
                }
            }
        }
    }

    private static void assertPrimitiveEquals(
            Group expected, Group actual, int field, int index, Type type, String path) {
        switch (type.asPrimitiveType().getPrimitiveTypeName()) {
            case BOOLEAN -> assertEquals(expected.getBoolean(field, index), actual.getBoolean(field, index), path);
            case INT32 -> assertEquals(expected.getInteger(field, index), actual.getInteger(field, index), path);
            case INT64 -> assertEquals(expected.getLong(field, index), actual.getLong(field, index), path);
            case FLOAT ->
                assertEquals(
                        Float.floatToIntBits(expected.getFloat(field, index)),
                        Float.floatToIntBits(actual.getFloat(field, index)),
                        path);
            case DOUBLE ->
                assertEquals(
                        Double.doubleToLongBits(expected.getDouble(field, index)),
                        Double.doubleToLongBits(actual.getDouble(field, index)),
                        path);
            case INT96 ->
                assertArrayEquals(
                        expected.getInt96(field, index).getBytes(),
                        actual.getInt96(field, index).getBytes(),
                        path);
            case BINARY, FIXED_LEN_BYTE_ARRAY ->
                assertArrayEquals(
                        expected.getBinary(field, index).getBytes(),
                        actual.getBinary(field, index).getBytes(),
                        path);
        }
    }
}
