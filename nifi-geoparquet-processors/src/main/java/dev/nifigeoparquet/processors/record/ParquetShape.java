package dev.nifigeoparquet.processors.record;

import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * How a Parquet type nests, independent of its own repetition: a primitive, a struct, a LIST or a MAP.
 * The one place that resolves the LIST backward-compatibility rules of the Parquet format (3-level lists
 * and the legacy 2-level forms), so the schema mapping, the reader and the writer always agree.
 */
sealed interface ParquetShape {

    /** A primitive column value. */
    record Scalar(PrimitiveType type) implements ParquetShape {}

    /** A group without LIST or MAP annotation: a nested record. */
    record Struct(GroupType type) implements ParquetShape {}

    /**
     * A LIST-annotated group. When {@code elementIsRepeated} the repeated field itself is the element
     * (legacy 2-level form, never null); otherwise each repeated group wraps one {@code element} field.
     */
    record ListOf(GroupType listType, Type repeated, Type element, boolean elementIsRepeated) implements ParquetShape {

        boolean elementsNullable() {
            return !elementIsRepeated && element.isRepetition(Type.Repetition.OPTIONAL);
        }
    }

    /** A MAP (or legacy MAP_KEY_VALUE) group: a repeated key/value group. */
    record MapOf(GroupType mapType, GroupType keyValue, PrimitiveType key, Type value) implements ParquetShape {}

    static ParquetShape of(Type type, String path) {
        if (type.isPrimitive()) {
            return new Scalar(type.asPrimitiveType());
        }
        GroupType group = type.asGroupType();
        LogicalTypeAnnotation annotation = group.getLogicalTypeAnnotation();
        if (annotation instanceof LogicalTypeAnnotation.ListLogicalTypeAnnotation) {
            return listOf(group, path);
        }
        if (annotation instanceof LogicalTypeAnnotation.MapLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.MapKeyValueTypeAnnotation) {
            return mapOf(group, path);
        }
        return new Struct(group);
    }

    private static ListOf listOf(GroupType list, String path) {
        if (list.getFieldCount() != 1 || !list.getType(0).isRepetition(Type.Repetition.REPEATED)) {
            throw unsupported(path, "a LIST group must hold exactly one repeated field: " + list);
        }
        Type repeated = list.getType(0);
        if (repeated.isPrimitive()
                || repeated.asGroupType().getFieldCount() > 1
                || repeated.getName().equals("array")
                || repeated.getName().equals(list.getName() + "_tuple")) {
            return new ListOf(list, repeated, repeated, true);
        }
        Type element = repeated.asGroupType().getType(0);
        if (element.isRepetition(Type.Repetition.REPEATED)) {
            throw unsupported(path, "a LIST element must not itself be repeated: " + list);
        }
        return new ListOf(list, repeated, element, false);
    }

    private static MapOf mapOf(GroupType map, String path) {
        if (map.getFieldCount() != 1
                || map.getType(0).isPrimitive()
                || !map.getType(0).isRepetition(Type.Repetition.REPEATED)
                || map.getType(0).asGroupType().getFieldCount() != 2
                || !map.getType(0).asGroupType().getType(0).isPrimitive()) {
            throw unsupported(path, "a MAP group must hold one repeated group of a primitive key and a value: " + map);
        }
        GroupType keyValue = map.getType(0).asGroupType();
        return new MapOf(map, keyValue, keyValue.getType(0).asPrimitiveType(), keyValue.getType(1));
    }

    private static RecordConversionException unsupported(String path, String why) {
        return RecordConversionException.forField(
                path, RecordConversionException.Reason.UNSUPPORTED_SCHEMA, "field {} is not supported: " + why);
    }
}
