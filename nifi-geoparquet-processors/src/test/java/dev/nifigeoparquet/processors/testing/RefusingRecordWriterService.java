package dev.nifigeoparquet.processors.testing;

import java.io.OutputStream;
import java.util.Map;
import org.apache.nifi.controller.AbstractControllerService;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.schema.access.SchemaNotFoundException;
import org.apache.nifi.serialization.RecordSetWriter;
import org.apache.nifi.serialization.RecordSetWriterFactory;
import org.apache.nifi.serialization.record.RecordSchema;

/**
 * A record writer for tests that refuses every schema when asked for a writer, after the caller has opened the
 * output stream: the situation of a GeoParquet writer handed records without a geometry column.
 */
public class RefusingRecordWriterService extends AbstractControllerService implements RecordSetWriterFactory {

    public static final String REFUSAL = "this writer refuses every schema";

    @Override
    public RecordSchema getSchema(Map<String, String> variables, RecordSchema readSchema) {
        return readSchema;
    }

    @Override
    public RecordSetWriter createWriter(
            ComponentLog logger, RecordSchema schema, OutputStream out, Map<String, String> variables)
            throws SchemaNotFoundException {
        throw new SchemaNotFoundException(REFUSAL);
    }
}
