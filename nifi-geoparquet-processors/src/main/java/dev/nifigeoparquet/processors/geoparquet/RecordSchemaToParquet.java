package dev.nifigeoparquet.processors.geoparquet;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.nifi.serialization.record.DataType;
import org.apache.nifi.serialization.record.RecordField;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.nifi.serialization.record.RecordSchema;
import org.apache.nifi.serialization.record.type.ArrayDataType;
import org.apache.nifi.serialization.record.type.DecimalDataType;
import org.apache.nifi.serialization.record.type.MapDataType;
import org.apache.nifi.serialization.record.type.RecordDataType;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Chooses a Parquet schema for records that arrive without one (see {@link GeoParquetRecordSetWriter}): one column
 * per record field, nullable fields optional. Geometry fields become WKB binary columns; covering bbox structs are
 * added when the {@code geo} block declares them and the records lack them. The choices, where NiFi's type does not
 * settle them: TIMESTAMP is INT64 microseconds since the epoch, adjusted to UTC; TIME is INT32 milliseconds;
 * BIGINT is INT64 (values outside its range are refused, never cut); CHOICE types are refused.
 */
final class RecordSchemaToParquet {

    private static final String MESSAGE_NAME = "schema";
    private static final List<String> BBOX_KEYS = List.of("xmin", "ymin", "xmax", "ymax");

    private RecordSchemaToParquet() {}

    /**
     * @param geometryColumns names of the fields holding geometries
     * @param coveringColumns covering bbox struct name to its fields, for structs the writer fills
     * @throws IllegalArgumentException naming the field whose type has no single Parquet column type
     */
    static MessageType of(RecordSchema schema, Set<String> geometryColumns, Map<String, List<String>> coveringColumns) {
        Types.MessageTypeBuilder message = Types.buildMessage();
        for (RecordField field : schema.getFields()) {
            Type.Repetition repetition = field.isNullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED;
            if (geometryColumns.contains(field.getFieldName())) {
                message.addField(
                        Types.primitive(PrimitiveTypeName.BINARY, repetition).named(field.getFieldName()));
            } else if (coveringColumns.containsKey(field.getFieldName())) {
                message.addField(bbox(field.getFieldName(), coveringColumns.get(field.getFieldName())));
            } else {
                message.addField(typeOf(field.getDataType(), repetition, field.getFieldName(), field.getFieldName()));
            }
        }
        for (String geometry : geometryColumns) {
            if (schema.getField(geometry).isEmpty()) {
                throw new IllegalArgumentException("the records have no geometry field '" + geometry + "' (fields: "
                        + schema.getFieldNames() + ")");
            }
        }
        coveringColumns.forEach((name, keys) -> {
            if (schema.getField(name).isEmpty()) {
                message.addField(bbox(name, keys));
            }
        });
        return message.named(MESSAGE_NAME);
    }

    static Type bbox(String name, List<String> keys) {
        Types.GroupBuilder<GroupType> group = Types.buildGroup(Type.Repetition.OPTIONAL);
        for (String key : keys.isEmpty() ? BBOX_KEYS : keys) {
            group.addField(Types.required(PrimitiveTypeName.DOUBLE).named(key));
        }
        return group.named(name);
    }

    private static Type typeOf(final DataType type, Type.Repetition repetition, String name, String path) {
        return switch (type.getFieldType()) {
            case BOOLEAN ->
                Types.primitive(PrimitiveTypeName.BOOLEAN, repetition).named(name);
            case BYTE ->
                Types.primitive(PrimitiveTypeName.INT32, repetition)
                        .as(LogicalTypeAnnotation.intType(8, true))
                        .named(name);
            case SHORT ->
                Types.primitive(PrimitiveTypeName.INT32, repetition)
                        .as(LogicalTypeAnnotation.intType(16, true))
                        .named(name);
            case INT -> Types.primitive(PrimitiveTypeName.INT32, repetition).named(name);
            case LONG, BIGINT ->
                Types.primitive(PrimitiveTypeName.INT64, repetition).named(name);
            case FLOAT -> Types.primitive(PrimitiveTypeName.FLOAT, repetition).named(name);
            case DOUBLE -> Types.primitive(PrimitiveTypeName.DOUBLE, repetition).named(name);
            case DECIMAL -> decimal((DecimalDataType) type, repetition, name);
            case DATE ->
                Types.primitive(PrimitiveTypeName.INT32, repetition)
                        .as(LogicalTypeAnnotation.dateType())
                        .named(name);
            case TIME ->
                Types.primitive(PrimitiveTypeName.INT32, repetition)
                        .as(LogicalTypeAnnotation.timeType(false, LogicalTypeAnnotation.TimeUnit.MILLIS))
                        .named(name);
            case TIMESTAMP ->
                Types.primitive(PrimitiveTypeName.INT64, repetition)
                        .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS))
                        .named(name);
            case STRING, CHAR, ENUM ->
                Types.primitive(PrimitiveTypeName.BINARY, repetition)
                        .as(LogicalTypeAnnotation.stringType())
                        .named(name);
            case UUID ->
                Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                        .length(16)
                        .as(LogicalTypeAnnotation.uuidType())
                        .named(name);
            case ARRAY -> array((ArrayDataType) type, repetition, name, path);
            case MAP -> map((MapDataType) type, repetition, name, path);
            case RECORD -> {
                RecordSchema child = ((RecordDataType) type).getChildSchema();
                Types.GroupBuilder<GroupType> group = Types.buildGroup(repetition);
                for (RecordField field : child.getFields()) {
                    group.addField(typeOf(
                            field.getDataType(),
                            field.isNullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED,
                            field.getFieldName(),
                            path + "." + field.getFieldName()));
                }
                if (child.getFieldCount() == 0) {
                    throw new IllegalArgumentException(
                            "field '" + path + "' is a record without fields, which Parquet cannot store");
                }
                yield group.named(name);
            }
            case CHOICE ->
                throw new IllegalArgumentException("field '" + path + "' has the CHOICE type " + type
                        + "; a Parquet column has one type. Give the records a schema without choices, or set the writer's "
                        + "Schema Source to Parquet Schema");
        };
    }

    private static Type decimal(DecimalDataType decimal, Type.Repetition repetition, String name) {
        int precision = decimal.getPrecision();
        LogicalTypeAnnotation annotation = LogicalTypeAnnotation.decimalType(decimal.getScale(), precision);
        if (precision <= 9) {
            return Types.primitive(PrimitiveTypeName.INT32, repetition)
                    .as(annotation)
                    .named(name);
        }
        if (precision <= 18) {
            return Types.primitive(PrimitiveTypeName.INT64, repetition)
                    .as(annotation)
                    .named(name);
        }
        int bytes = (int) Math.ceil((precision * Math.log(10) / Math.log(2) + 1) / 8);
        return Types.primitive(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY, repetition)
                .length(bytes)
                .as(annotation)
                .named(name);
    }

    private static Type array(final ArrayDataType array, Type.Repetition repetition, String name, String path) {
        if (array.getElementType().getFieldType() == RecordFieldType.BYTE) {
            return Types.primitive(PrimitiveTypeName.BINARY, repetition).named(name);
        }
        Type element = typeOf(
                array.getElementType(),
                array.isElementsNullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED,
                "element",
                path + "[]");
        return Types.buildGroup(repetition)
                .as(LogicalTypeAnnotation.listType())
                .addField(Types.repeatedGroup().addField(element).named("list"))
                .named(name);
    }

    private static Type map(final MapDataType map, Type.Repetition repetition, String name, String path) {
        Type value = typeOf(
                map.getValueType(),
                map.isValuesNullable() ? Type.Repetition.OPTIONAL : Type.Repetition.REQUIRED,
                "value",
                path + "{}");
        return Types.buildGroup(repetition)
                .as(LogicalTypeAnnotation.mapType())
                .addField(Types.repeatedGroup()
                        .addField(Types.required(PrimitiveTypeName.BINARY)
                                .as(LogicalTypeAnnotation.stringType())
                                .named("key"))
                        .addField(value)
                        .named("key_value"))
                .named(name);
    }
}
