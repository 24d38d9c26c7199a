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
import org.apache.nifi.serialization.WriteResult;
import org.apache.nifi.serialization.record.Record;
import org.apache.parquet.schema.MessageType;
import org.locationtech.jts.geom.Geometry;

/**
 * Writes records as one GeoParquet file to a FlowFile's output stream, through the engine's single Parquet
 * writer. The file is complete when the record set is finished (or the writer closed after records were written
 * without a failure); after a failed record the file is abandoned and gets no footer.
 */
final class WriteGeoParquetResult extends AbstractRecordSetWriter implements PrimaryGeometryRecordWriter {

    static final String MIME_TYPE = "application/vnd.apache.parquet";

    private final MessageType schema;
    private final FooterEntries footer;
    private final WriterSettings settings;
    private final ColumnEncodings encodings;
    private final String name;
    private final RecordToGroupConverter converter;
    /** The {@code geo} block's primary column, or null without one. */
    private final String primaryGeometryColumn;

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
        this.primaryGeometryColumn = geo == null ? null : geo.primaryColumn();
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
        return writeRecord(record, null);
    }

    @Override
    public WriteResult write(Record record, String geometryField, Geometry geometry) throws IOException {
        Map<String, String> attributes = writeRecord(
                record, primaryGeometryColumn != null && primaryGeometryColumn.equals(geometryField) ? geometry : null);
        return WriteResult.of(incrementRecordCount(), attributes);
    }

    /** Writes one record; {@code primaryGeometry}, when not null, is the geometry its primary column holds. */
    private Map<String, String> writeRecord(Record record, Geometry primaryGeometry) throws IOException {
        if (finished) {
            throw new IllegalStateException(name + " is already finished");
        }
        try {
            file().write(converter.convert(record), primaryGeometry);
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
