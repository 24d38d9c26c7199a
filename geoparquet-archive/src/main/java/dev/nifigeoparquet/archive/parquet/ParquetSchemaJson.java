package dev.nifigeoparquet.archive.parquet;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.parquet.format.ColumnOrder;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.SchemaElement;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.MessageType;
import shaded.parquet.org.apache.thrift.TBase;
import shaded.parquet.org.apache.thrift.TFieldIdEnum;
import shaded.parquet.org.apache.thrift.TUnion;
import shaded.parquet.org.apache.thrift.meta_data.EnumMetaData;
import shaded.parquet.org.apache.thrift.meta_data.FieldMetaData;
import shaded.parquet.org.apache.thrift.meta_data.FieldValueMetaData;
import shaded.parquet.org.apache.thrift.meta_data.ListMetaData;
import shaded.parquet.org.apache.thrift.meta_data.StructMetaData;

/**
 * A Parquet schema as the footer holds it, in JSON: the {@code schema} ({@code SchemaElement} list) and
 * {@code column_orders} fields of the footer's {@code FileMetaData} (parquet.thrift), so every physical type,
 * repetition, field id and logical type with all its parameters (a {@code GEOMETRY} crs holding a whole PROJJSON
 * document, a {@code GEOGRAPHY} crs and edge algorithm, timestamp units, decimal scale and precision) survives exactly.
 * parquet-java's text form of a schema does not: it cannot be parsed back when a parameter holds commas or
 * parentheses (docs/archive-format.md, section 3).
 *
 * <p>The mapping is the Thrift struct's own: a struct is a JSON object whose members are the names of the fields that
 * are set, in field-id order; a union is an object with exactly one member, its set field; an enum is its name; a
 * list is an array; integers and booleans are JSON numbers and booleans; strings are strings. For example a
 * {@code GEOMETRY} column reads {@code {"type": "BYTE_ARRAY", "repetition_type": "OPTIONAL", "name": "geometry",
 * "logicalType": {"GEOMETRY": {"crs": "srid:5070"}}}}.
 *
 * <p>Reading is strict: a member this implementation does not know, or a schema that parquet-java would not write
 * back identically, is refused naming it, so a schema is never pinned or compared with something silently dropped.
 */
public final class ParquetSchemaJson {

    /** The {@code FileMetaData} field holding the element list. */
    public static final String SCHEMA = "schema";
    /** The {@code FileMetaData} field holding one column order per leaf column. */
    public static final String COLUMN_ORDERS = "column_orders";

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    // Thrift's type codes (org.apache.thrift.protocol.TType), which the shaded runtime inlines.
    private static final byte BOOL = 2;
    private static final byte BYTE = 3;
    private static final byte DOUBLE = 4;
    private static final byte I16 = 6;
    private static final byte I32 = 8;
    private static final byte I64 = 10;
    private static final byte STRING = 11;

    private ParquetSchemaJson() {}

    /** The schema's footer form, exactly as parquet-java writes it into every file of that schema. */
    public static ObjectNode toJson(MessageType schema) {
        FileMetaData footer = new ParquetMetadataConverter()
                .toParquetMetadata(
                        1,
                        new ParquetMetadata(
                                new org.apache.parquet.hadoop.metadata.FileMetaData(schema, Map.of(), null),
                                List.of()));
        ObjectNode json = NODES.objectNode();
        json.set(SCHEMA, list(footer.getSchema()));
        if (footer.isSetColumn_orders()) {
            json.set(COLUMN_ORDERS, list(footer.getColumn_orders()));
        }
        return json;
    }

    /**
     * The schema a footer form describes.
     *
     * @throws IllegalArgumentException naming the member that is malformed or unknown, or when the schema would not
     *                                  be written back exactly as given
     */
    public static MessageType fromJson(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw new IllegalArgumentException("a Parquet schema must be a JSON object with '" + SCHEMA + "' and '"
                    + COLUMN_ORDERS + "', got " + (json == null ? "nothing" : json.getNodeType()));
        }
        for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!name.equals(SCHEMA) && !name.equals(COLUMN_ORDERS)) {
                throw new IllegalArgumentException("a Parquet schema has no member '" + name + "' (only '" + SCHEMA
                        + "' and '" + COLUMN_ORDERS + "')");
            }
        }
        List<SchemaElement> elements = readList(json.get(SCHEMA), SchemaElement.class, SCHEMA);
        if (elements.isEmpty()) {
            throw new IllegalArgumentException(
                    "'" + SCHEMA + "' is empty: a Parquet schema has at least its root element");
        }
        FileMetaData footer = new FileMetaData(1, elements, 0, List.of());
        if (json.has(COLUMN_ORDERS)) {
            footer.setColumn_orders(readList(json.get(COLUMN_ORDERS), ColumnOrder.class, COLUMN_ORDERS));
        }
        MessageType schema;
        try {
            schema = new ParquetMetadataConverter()
                    .fromParquetMetadata(footer)
                    .getFileMetaData()
                    .getSchema();
        } catch (IOException | RuntimeException e) {
            throw new IllegalArgumentException("not a valid Parquet schema: " + e.getMessage(), e);
        }
        ObjectNode written = toJson(schema);
        if (!written.equals(json)) {
            throw new IllegalArgumentException(
                    "the Parquet schema would not be written back as given (it holds something "
                            + "this implementation does not write): given " + json + ", written " + written);
        }
        return schema;
    }

    // ---- Thrift to JSON

    private static ArrayNode list(List<?> values) {
        ArrayNode array = NODES.arrayNode();
        for (Object value : values) {
            array.add(value(value));
        }
        return array;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static JsonNode value(Object value) {
        return switch (value) {
            case TUnion union ->
                NODES.objectNode().set(union.getSetField().getFieldName(), value(union.getFieldValue()));
            case TBase struct -> {
                ObjectNode object = NODES.objectNode();
                for (TFieldIdEnum field : fields(struct.getClass()).keySet()) {
                    if (struct.isSet(field)) {
                        object.set(field.getFieldName(), value(struct.getFieldValue(field)));
                    }
                }
                yield object;
            }
            case List<?> elements -> list(elements);
            case Enum<?> constant -> NODES.textNode(constant.name());
            case Boolean flag -> NODES.booleanNode(flag);
            case Byte number -> NODES.numberNode(number.intValue());
            case Short number -> NODES.numberNode(number.intValue());
            case Integer number -> NODES.numberNode(number);
            case Long number -> NODES.numberNode(number);
            case Double number -> NODES.numberNode(number);
            case String text -> NODES.textNode(text);
            default ->
                throw new IllegalArgumentException(
                        "cannot write a " + value.getClass().getSimpleName() + " of a Parquet schema");
        };
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Map<? extends TFieldIdEnum, FieldMetaData> fields(Class<? extends TBase> type) {
        return FieldMetaData.getStructMetaDataMap((Class) type);
    }

    // ---- JSON to Thrift

    private static <T extends TBase<?, ?>> List<T> readList(JsonNode array, Class<T> type, String path) {
        if (array == null || !array.isArray()) {
            throw new IllegalArgumentException("'" + path + "' must be a JSON array");
        }
        List<T> values = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            values.add(type.cast(struct(array.get(i), type, path + "[" + i + "]")));
        }
        return values;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static TBase struct(JsonNode json, Class<?> type, String path) {
        if (!json.isObject()) {
            throw new IllegalArgumentException("'" + path + "' must be a JSON object, is " + json.getNodeType());
        }
        TBase struct;
        try {
            struct = (TBase) type.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot create " + type.getSimpleName(), e);
        }
        Map<? extends TFieldIdEnum, FieldMetaData> fields = fields(struct.getClass());
        if (struct instanceof TUnion && json.size() != 1) {
            throw new IllegalArgumentException("'" + path + "' must have exactly one member (it is a union of "
                    + fields.keySet().stream().map(TFieldIdEnum::getFieldName).toList() + "), has " + json.size());
        }
        for (Map.Entry<String, JsonNode> member : json.properties()) {
            String memberPath = path + "." + member.getKey();
            Map.Entry<? extends TFieldIdEnum, FieldMetaData> field = fields.entrySet().stream()
                    .filter(entry -> entry.getKey().getFieldName().equals(member.getKey()))
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(
                            "'" + memberPath + "' is not a field of " + type.getSimpleName() + " (its fields are "
                                    + fields.keySet().stream()
                                            .map(TFieldIdEnum::getFieldName)
                                            .toList() + ")"));
            struct.setFieldValue(field.getKey(), read(member.getValue(), field.getValue().valueMetaData, memberPath));
        }
        return struct;
    }

    @SuppressWarnings({"rawtypes", "unchecked"})
    private static Object read(JsonNode json, FieldValueMetaData meta, String path) {
        if (meta instanceof StructMetaData struct) {
            return struct(json, struct.structClass, path);
        }
        if (meta instanceof EnumMetaData enumeration) {
            if (!json.isTextual()) {
                throw new IllegalArgumentException(
                        "'" + path + "' must be the name of a " + enumeration.enumClass.getSimpleName());
            }
            try {
                return Enum.valueOf((Class) enumeration.enumClass, json.textValue());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "'" + path + "' is " + json + ", not a " + enumeration.enumClass.getSimpleName() + " (one of "
                                + List.of(enumeration.enumClass.getEnumConstants()) + ")",
                        e);
            }
        }
        if (meta instanceof ListMetaData list) {
            if (!json.isArray()) {
                throw new IllegalArgumentException("'" + path + "' must be a JSON array");
            }
            List<Object> values = new ArrayList<>(json.size());
            for (int i = 0; i < json.size(); i++) {
                values.add(read(json.get(i), list.elemMetaData, path + "[" + i + "]"));
            }
            return values;
        }
        return switch (meta.type) {
            case BOOL -> {
                require(json.isBoolean(), path, "true or false");
                yield json.booleanValue();
            }
            case BYTE -> {
                require(
                        json.canConvertToExactIntegral()
                                && json.canConvertToInt()
                                && json.intValue() == (byte) json.intValue(),
                        path,
                        "an 8-bit integer");
                yield (byte) json.intValue();
            }
            case I16 -> {
                require(
                        json.canConvertToExactIntegral()
                                && json.canConvertToInt()
                                && json.intValue() == (short) json.intValue(),
                        path,
                        "a 16-bit integer");
                yield (short) json.intValue();
            }
            case I32 -> {
                require(json.isIntegralNumber() && json.canConvertToInt(), path, "a 32-bit integer");
                yield json.intValue();
            }
            case I64 -> {
                require(json.isIntegralNumber() && json.canConvertToLong(), path, "a 64-bit integer");
                yield json.longValue();
            }
            case DOUBLE -> {
                require(json.isNumber(), path, "a number");
                yield json.doubleValue();
            }
            case STRING -> {
                require(json.isTextual() && !meta.isBinary(), path, "a string");
                yield json.textValue();
            }
            default ->
                throw new IllegalArgumentException(
                        "'" + path + "' has a Thrift type (" + meta.type + ") a schema never holds");
        };
    }

    private static void require(boolean ok, String path, String expected) {
        if (!ok) {
            throw new IllegalArgumentException("'" + path + "' must be " + expected);
        }
    }
}
