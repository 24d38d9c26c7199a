package dev.nifigeoparquet.processors.testing;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.nifi.controller.AbstractControllerService;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.serialization.MalformedRecordException;
import org.apache.nifi.serialization.RecordReader;
import org.apache.nifi.serialization.RecordReaderFactory;
import org.apache.nifi.serialization.SimpleRecordSchema;
import org.apache.nifi.serialization.record.DataType;
import org.apache.nifi.serialization.record.MapRecord;
import org.apache.nifi.serialization.record.Record;
import org.apache.nifi.serialization.record.RecordField;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.nifi.serialization.record.RecordSchema;
import org.apache.nifi.serialization.record.type.ArrayDataType;
import org.apache.nifi.serialization.record.type.RecordDataType;

/**
 * A record reader for tests: a JSON array of objects, read one object at a time. The schema is inferred from the
 * first object that has each field (numbers as DOUBLE, objects as nested records, arrays of the first element's type),
 * as NiFi's JSON readers do in spirit. NiFi's own JsonTreeReader is not available to this build.
 */
public class JsonRecordReaderService extends AbstractControllerService implements RecordReaderFactory {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public RecordReader createRecordReader(
            Map<String, String> variables, InputStream in, long inputLength, ComponentLog logger)
            throws MalformedRecordException, IOException {
        byte[] content = in.readAllBytes();
        RecordSchema schema = inferSchema(content);
        JsonParser parser = JSON.createParser(content);
        if (parser.nextToken() != JsonToken.START_ARRAY) {
            throw new MalformedRecordException("expected a JSON array of objects");
        }
        return new RecordReader() {
            @Override
            public Record nextRecord(boolean coerceTypes, boolean dropUnknownFields) throws IOException {
                if (parser.nextToken() != JsonToken.START_OBJECT) {
                    return null;
                }
                JsonNode node = JSON.readTree(parser);
                return toRecord(node, schema);
            }

            @Override
            public RecordSchema getSchema() {
                return schema;
            }

            @Override
            public void close() throws IOException {
                parser.close();
            }
        };
    }

    private static RecordSchema inferSchema(byte[] content) throws IOException {
        Map<String, DataType> fields = new LinkedHashMap<>();
        try (JsonParser parser = JSON.createParser(content)) {
            parser.nextToken();
            while (parser.nextToken() == JsonToken.START_OBJECT) {
                JsonNode node = JSON.readTree(parser);
                addFields(node, fields);
            }
        }
        return schemaOf(fields);
    }

    private static void addFields(JsonNode object, Map<String, DataType> fields) {
        for (Map.Entry<String, JsonNode> field : object.properties()) {
            if (!field.getValue().isNull() && !fields.containsKey(field.getKey())) {
                fields.put(field.getKey(), typeOf(field.getValue()));
            }
        }
    }

    private static RecordSchema schemaOf(Map<String, DataType> fields) {
        List<RecordField> list = new ArrayList<>();
        fields.forEach((name, type) -> list.add(new RecordField(name, type, true)));
        return new SimpleRecordSchema(list);
    }

    private static DataType typeOf(JsonNode value) {
        if (value.isNumber()) {
            return RecordFieldType.DOUBLE.getDataType();
        }
        if (value.isBoolean()) {
            return RecordFieldType.BOOLEAN.getDataType();
        }
        if (value.isObject()) {
            Map<String, DataType> nested = new LinkedHashMap<>();
            addFields(value, nested);
            return RecordFieldType.RECORD.getRecordDataType(schemaOf(nested));
        }
        if (value.isArray()) {
            DataType element = value.isEmpty() ? RecordFieldType.DOUBLE.getDataType() : typeOf(value.get(0));
            return RecordFieldType.ARRAY.getArrayDataType(element);
        }
        return RecordFieldType.STRING.getDataType();
    }

    private static Record toRecord(JsonNode object, RecordSchema schema) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (RecordField field : schema.getFields()) {
            JsonNode value = object.get(field.getFieldName());
            values.put(field.getFieldName(), value == null ? null : valueOf(value, field.getDataType()));
        }
        return new MapRecord(schema, values);
    }

    private static Object valueOf(JsonNode value, DataType type) {
        if (value.isNull()) {
            return null;
        }
        if (value.isObject()) {
            RecordSchema nested = type instanceof RecordDataType recordType
                    ? recordType.getChildSchema()
                    : new SimpleRecordSchema(List.of());
            return toRecord(value, nested);
        }
        if (value.isArray()) {
            DataType element = type instanceof ArrayDataType arrayType
                    ? arrayType.getElementType()
                    : RecordFieldType.STRING.getDataType();
            Object[] array = new Object[value.size()];
            for (int i = 0; i < array.length; i++) {
                array[i] = valueOf(value.get(i), element);
            }
            return array;
        }
        if (value.isNumber()) {
            return value.doubleValue();
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        return value.asText();
    }
}
