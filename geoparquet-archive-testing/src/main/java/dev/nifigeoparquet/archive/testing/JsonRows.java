package dev.nifigeoparquet.archive.testing;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HexFormat;
import java.util.Iterator;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Rows of the test vectors (docs/test-vectors/README.md): a JSON object per row in the raw Parquet structure of its
 * schema. A field that is absent or null has no value; a repeated field is an array of its values; a group is an object;
 * BOOLEAN, INT32, INT64, FLOAT and DOUBLE are JSON booleans and numbers; BINARY, FIXED_LEN_BYTE_ARRAY and INT96 are
 * strings, their UTF-8 text when annotated STRING, ENUM or JSON and lower-case hexadecimal otherwise.
 */
public final class JsonRows {

    private JsonRows() {}

    public static Group toGroup(GroupType type, JsonNode values) {
        SimpleGroup group = new SimpleGroup(type);
        fill(group, type, values);
        return group;
    }

    private static void fill(Group group, GroupType type, JsonNode values) {
        for (Iterator<String> names = values.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!type.containsField(name)) {
                throw new IllegalArgumentException("Field '" + name + "' is not in " + type);
            }
        }
        for (int field = 0; field < type.getFieldCount(); field++) {
            Type fieldType = type.getType(field);
            JsonNode value = values.get(fieldType.getName());
            if (value == null || value.isNull()) {
                continue;
            }
            if (fieldType.isRepetition(Type.Repetition.REPEATED)) {
                if (!value.isArray()) {
                    throw new IllegalArgumentException(
                            "Repeated field '" + fieldType.getName() + "' needs an array, found " + value);
                }
                for (JsonNode element : value) {
                    add(group, field, fieldType, element);
                }
            } else {
                add(group, field, fieldType, value);
            }
        }
    }

    private static void add(Group group, int field, Type type, JsonNode value) {
        if (!type.isPrimitive()) {
            fill(group.addGroup(field), type.asGroupType(), value);
            return;
        }
        PrimitiveType primitive = type.asPrimitiveType();
        switch (primitive.getPrimitiveTypeName()) {
            case BOOLEAN -> group.add(field, value.booleanValue());
            case INT32 -> group.add(field, value.intValue());
            case INT64 -> group.add(field, value.longValue());
            case FLOAT -> group.add(field, value.floatValue());
            case DOUBLE -> group.add(field, value.doubleValue());
            case INT96, BINARY, FIXED_LEN_BYTE_ARRAY ->
                group.add(
                        field,
                        isText(primitive)
                                ? Binary.fromString(value.textValue())
                                : Binary.fromConstantByteArray(HexFormat.of().parseHex(value.textValue())));
        }
    }

    private static boolean isText(PrimitiveType type) {
        LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
        return annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
    }
}
