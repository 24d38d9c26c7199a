package dev.nifigeoparquet.processors.record;

import java.util.ArrayList;
import java.util.List;
import org.apache.nifi.serialization.SimpleRecordSchema;
import org.apache.nifi.serialization.record.DataType;
import org.apache.nifi.serialization.record.RecordField;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.nifi.serialization.record.RecordSchema;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Derives the NiFi record schema of a Parquet schema. Every column maps to the NiFi type whose values
 * hold it exactly; optional fields are nullable, required and repeated ones are not.
 */
public final class ParquetRecordSchemas {

    private ParquetRecordSchemas() {}

    public static RecordSchema toRecordSchema(MessageType schema) {
        return recordSchemaOf(schema, "");
    }

    static RecordSchema recordSchemaOf(GroupType group, String path) {
        List<RecordField> fields = new ArrayList<>(group.getFieldCount());
        for (Type field : group.getFields()) {
            String fieldPath = FieldPaths.child(path, field.getName());
            fields.add(new RecordField(
                    field.getName(), fieldTypeOf(field, fieldPath), field.isRepetition(Type.Repetition.OPTIONAL)));
        }
        return new SimpleRecordSchema(fields);
    }

    /** Type of a field as it sits in its parent: a repeated field without LIST annotation is an array. */
    static DataType fieldTypeOf(Type field, String path) {
        DataType valueType = dataTypeOf(field, path);
        return field.isRepetition(Type.Repetition.REPEATED)
                ? RecordFieldType.ARRAY.getArrayDataType(valueType, false)
                : valueType;
    }

    /** Type of one value of {@code type}, ignoring the type's own repetition. */
    static DataType dataTypeOf(Type type, String path) {
        return switch (ParquetShape.of(type, path)) {
            case ParquetShape.Scalar scalar -> ParquetScalar.of(scalar.type()).nifiType();
            case ParquetShape.Struct struct ->
                RecordFieldType.RECORD.getRecordDataType(recordSchemaOf(struct.type(), path));
            case ParquetShape.ListOf list ->
                RecordFieldType.ARRAY.getArrayDataType(
                        dataTypeOf(list.element(), FieldPaths.child(path, "element")), list.elementsNullable());
            case ParquetShape.MapOf map -> {
                MapKeys.requireSupported(map.key(), path);
                yield RecordFieldType.MAP.getMapDataType(
                        dataTypeOf(map.value(), FieldPaths.child(path, "value")),
                        map.value().isRepetition(Type.Repetition.OPTIONAL));
            }
        };
    }
}
