package dev.nifigeoparquet.processors.geoparquet;

import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.parquet.ColumnEncodings;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.processors.record.RecordConversionException;
import dev.nifigeoparquet.processors.record.RecordConversionOptions;
import dev.nifigeoparquet.processors.record.RecordToGroupConverter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import org.apache.nifi.serialization.AbstractRecordSetWriter;
import org.apache.nifi.serialization.record.Record;
import org.apache.parquet.schema.MessageType;

/**
 * Writes records as one GeoParquet file to a FlowFile's output stream, through the engine's single Parquet
 * writer. The file is complete when the record set is finished (or the writer closed after records were written
 * without a failure); after a failed record the file is abandoned and gets no footer.
 */
final class WriteGeoParquetResult extends AbstractRecordSetWriter {

    static final String MIME_TYPE = "application/vnd.apache.parquet";

    private final MessageType schema;
    private final FooterEntries footer;
    private final WriterSettings settings;
    private final ColumnEncodings encodings;
    private final String name;
    private final RecordToGroupConverter converter;
    private GeoParquetFileWriter file;
    private boolean finished;
    private boolean failed;

    WriteGeoParquetResult(
            OutputStream out,
            MessageType schema,
            FooterEntries footer,
            WriterSettings settings,
            ColumnEncodings encodings,
            RecordConversionOptions options,
            String name) {
        super(out);
        this.schema = schema;
        this.footer = footer;
        this.settings = settings;
        this.encodings = encodings;
        this.name = name;
        GeoMetadata geo = footer.geo() == null ? null : GeoMetadata.parse(footer.geo());
        this.converter = new RecordToGroupConverter(schema, options, GeometryColumns.writers(schema, geo));
    }

    private GeoParquetFileWriter file() throws IOException {
        if (file == null) {
            // Helper threads compress the pages; only the thread writing the records touches the stream.
            file = GeoParquetFileWriter.create(
                    new StreamOutputFile(getOutputStream(), name),
                    name,
                    schema,
                    footer,
                    settings,
                    encodings,
                    GeoParquetFileWriter.PageCompression.AHEAD);
        }
        return file;
    }

    @Override
    protected Map<String, String> writeRecord(Record record) throws IOException {
        if (finished) {
            throw new IllegalStateException(name + " is already finished");
        }
        try {
            file().write(converter.convert(record));
        } catch (RecordConversionException e) {
            failed = true;
            throw new IOException(
                    "Record " + (getRecordCount() + 1) + " does not fit the GeoParquet schema: " + e.getMessage(), e);
        } catch (IOException | RuntimeException e) {
            failed = true;
            throw e;
        }
        return Map.of();
    }

    @Override
    protected Map<String, String> onFinishRecordSet() throws IOException {
        finish();
        return Map.of();
    }

    private void finish() throws IOException {
        if (!finished) {
            file().finish();
            finished = true;
        }
    }

    @Override
    public String getMimeType() {
        return MIME_TYPE;
    }

    @Override
    public void close() throws IOException {
        try {
            if (!failed && !finished && getRecordCount() > 0) {
                finish();
            }
        } finally {
            try {
                if (file != null && !finished) {
                    file.close();
                }
            } finally {
                super.close();
            }
        }
    }
}
