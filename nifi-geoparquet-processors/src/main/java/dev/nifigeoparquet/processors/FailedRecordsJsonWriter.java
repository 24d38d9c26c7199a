package dev.nifigeoparquet.processors;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.HexFormat;
import java.util.Map;
import org.apache.nifi.serialization.AbstractRecordSetWriter;
import org.apache.nifi.serialization.record.Record;

/**
 * Writes records that could not be keyed as one JSON array of objects, for when the configured Record Writer cannot
 * write them (a GeoParquet writer needs a geometry column that such records may lack or hold garbage in). Values
 * keep their JSON shape where they have one; bytes (WKB) become hexadecimal text, anything else its text form, so
 * every record can be written whatever it holds.
 */
final class FailedRecordsJsonWriter extends AbstractRecordSetWriter {

    static final String MIME_TYPE = "application/json";

    private static final JsonFactory JSON = new JsonFactory();

    private final JsonGenerator generator;

    FailedRecordsJsonWriter(OutputStream out) throws IOException {
        super(out);
        generator = JSON.createGenerator(out);
        generator.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET); // the stream is closed by this writer's close()
    }

    @Override
    protected void onBeginRecordSet() throws IOException {
        generator.writeStartArray();
    }

    @Override
    protected Map<String, String> writeRecord(Record record) throws IOException {
        writeValue(record);
        return Map.of();
    }

    @Override
    protected Map<String, String> onFinishRecordSet() throws IOException {
        generator.writeEndArray();
        generator.flush();
        return Map.of();
    }

    @Override
    public String getMimeType() {
        return MIME_TYPE;
    }

    @Override
    public void close() throws IOException {
        try {
            generator.close();
        } finally {
            super.close();
        }
    }

    private void writeValue(Object value) throws IOException {
        switch (value) {
            case null -> generator.writeNull();
            case Record record -> writeObject(record.toMap());
            case Map<?, ?> map -> writeObject(map);
            case byte[] bytes -> generator.writeString(HexFormat.of().formatHex(bytes));
            case Byte[] boxed -> generator.writeString(hex(boxed));
            case Object[] array -> {
                generator.writeStartArray();
                for (Object element : array) {
                    writeValue(element);
                }
                generator.writeEndArray();
            }
            case Collection<?> list -> {
                generator.writeStartArray();
                for (Object element : list) {
                    writeValue(element);
                }
                generator.writeEndArray();
            }
            case Boolean bool -> generator.writeBoolean(bool);
            case Integer number -> generator.writeNumber(number);
            case Long number -> generator.writeNumber(number);
            case Short number -> generator.writeNumber(number);
            case Byte number -> generator.writeNumber(number);
            case BigInteger number -> generator.writeNumber(number);
            case BigDecimal number -> generator.writeNumber(number);
            case Double number when Double.isFinite(number) -> generator.writeNumber(number);
            case Float number when Float.isFinite(number) -> generator.writeNumber(number);
            default -> generator.writeString(value.toString()); // text, dates and times, NaN and infinities
        }
    }

    private void writeObject(Map<?, ?> fields) throws IOException {
        generator.writeStartObject();
        for (Map.Entry<?, ?> field : fields.entrySet()) {
            generator.writeFieldName(String.valueOf(field.getKey()));
            writeValue(field.getValue());
        }
        generator.writeEndObject();
    }

    private static String hex(Byte[] boxed) {
        byte[] bytes = new byte[boxed.length];
        for (int i = 0; i < boxed.length; i++) {
            bytes[i] = boxed[i] == null ? 0 : boxed[i];
        }
        return HexFormat.of().formatHex(bytes);
    }
}
