package dev.nifigeoparquet.processors.testing;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.nifi.controller.AbstractControllerService;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.serialization.AbstractRecordSetWriter;
import org.apache.nifi.serialization.RecordSetWriter;
import org.apache.nifi.serialization.RecordSetWriterFactory;
import org.apache.nifi.serialization.record.Record;
import org.apache.nifi.serialization.record.RecordSchema;

/**
 * A record writer for tests: a JSON array of objects; bytes (WKB) are written as hexadecimal strings. Counts the
 * writers open at any moment, so tests can assert how many a processor holds at once.
 */
public class JsonRecordWriterService extends AbstractControllerService implements RecordSetWriterFactory {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final AtomicInteger open = new AtomicInteger();
    private final AtomicInteger maxOpen = new AtomicInteger();
    private final AtomicInteger created = new AtomicInteger();
    private final Set<Thread> recordThreads = ConcurrentHashMap.newKeySet();

    public int maxOpenWriters() {
        return maxOpen.get();
    }

    public int openWriters() {
        return open.get();
    }

    public int createdWriters() {
        return created.get();
    }

    /** The threads records were written on, by any writer. */
    public Set<Thread> recordThreads() {
        return Set.copyOf(recordThreads);
    }

    @Override
    public RecordSchema getSchema(Map<String, String> variables, RecordSchema readSchema) {
        return readSchema;
    }

    @Override
    public RecordSetWriter createWriter(
            ComponentLog logger, RecordSchema schema, OutputStream out, Map<String, String> variables)
            throws IOException {
        maxOpen.accumulateAndGet(open.incrementAndGet(), Math::max);
        created.incrementAndGet();
        JsonGenerator generator = JSON.createGenerator(out);
        return new AbstractRecordSetWriter(out) {
            private boolean closed;

            @Override
            protected void onBeginRecordSet() throws IOException {
                generator.writeStartArray();
            }

            @Override
            protected Map<String, String> onFinishRecordSet() throws IOException {
                generator.writeEndArray();
                generator.flush();
                return Map.of();
            }

            @Override
            protected Map<String, String> writeRecord(Record record) throws IOException {
                recordThreads.add(Thread.currentThread());
                writeValue(generator, record);
                return Map.of();
            }

            @Override
            public String getMimeType() {
                return "application/json";
            }

            @Override
            public void close() throws IOException {
                if (!closed) {
                    closed = true;
                    open.decrementAndGet();
                    generator.close();
                }
            }
        };
    }

    private static void writeValue(JsonGenerator generator, Object value) throws IOException {
        if (value == null) {
            generator.writeNull();
        } else if (value instanceof Record record) {
            generator.writeStartObject();
            for (String name : record.getRawFieldNames()) {
                generator.writeFieldName(name);
                writeValue(generator, record.getValue(name));
            }
            generator.writeEndObject();
        } else if (value instanceof byte[] bytes) {
            generator.writeString(HexFormat.of().formatHex(bytes));
        } else if (value instanceof Byte[] boxed) {
            byte[] bytes = new byte[boxed.length];
            for (int i = 0; i < boxed.length; i++) {
                bytes[i] = boxed[i];
            }
            generator.writeString(HexFormat.of().formatHex(bytes));
        } else if (value instanceof Object[] array) {
            generator.writeStartArray();
            for (Object element : array) {
                writeValue(generator, element);
            }
            generator.writeEndArray();
        } else if (value instanceof Number number) {
            generator.writeNumber(number.doubleValue());
        } else if (value instanceof Boolean bool) {
            generator.writeBoolean(bool);
        } else {
            generator.writeString(value.toString());
        }
    }
}
