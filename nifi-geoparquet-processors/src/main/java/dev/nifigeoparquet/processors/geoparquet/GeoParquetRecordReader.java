package dev.nifigeoparquet.processors.geoparquet;

import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.processors.record.GroupToRecordConverter;
import dev.nifigeoparquet.processors.record.RecordConversionException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import org.apache.nifi.serialization.MalformedRecordException;
import org.apache.nifi.serialization.RecordReader;
import org.apache.nifi.serialization.SimpleRecordSchema;
import org.apache.nifi.serialization.record.MapRecord;
import org.apache.nifi.serialization.record.Record;
import org.apache.nifi.serialization.record.RecordSchema;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;

/**
 * Reads the rows of one (Geo)Parquet file, spooled to a temporary file, as NiFi records; created by
 * {@link GeoParquetReader}. Rows are decoded one row group at a time. Geometry columns become WKB bytes or WKT
 * text, every other column keeps its exact type mapping.
 *
 * <p>Processors of this bundle that need the file's GeoParquet metadata (the {@code geo} footer entry) or its
 * exact Parquet schema can check {@code reader instanceof GeoParquetRecordReader} and call {@link #geoMetadata()},
 * {@link #geoJson()}, {@link #parquetSchema()} or {@link #canonicalFooter()}.
 *
 * <p>{@link #close()} closes the file and deletes the spooled copy.
 */
public final class GeoParquetRecordReader implements RecordReader {

    private final SpooledContent content;
    private final GeoParquetFileReader file;
    private final ParquetFooter footer;
    private final GeoMetadata geo;
    private final List<String> geometryColumns;
    private final GroupToRecordConverter converter;
    private final RecordSchema schema;
    private final Iterator<Group> rows;
    private long rowIndex;

    /** Takes ownership of {@code content}: it is deleted when this reader is closed or cannot be created. */
    GeoParquetRecordReader(SpooledContent content, String name, RecordGeometryEncoding geometryFormat)
            throws IOException, MalformedRecordException {
        this.content = content;
        GeoParquetFileReader opened = null;
        try {
            opened = GeoParquetFileReader.open(new LocalInputFile(content.file()), name);
            this.file = opened;
            this.footer = opened.footer();
            this.geo = parseGeo(footer, name);
            this.geometryColumns = GeometryColumns.of(footer.schema(), geo);
            try {
                this.converter = new GroupToRecordConverter(
                        footer.schema(), GeometryColumns.readers(footer.schema(), geo, geometryFormat));
            } catch (RecordConversionException | IllegalArgumentException e) {
                throw new MalformedRecordException(name + ": " + e.getMessage(), e);
            }
            RecordSchema fields = converter.recordSchema();
            this.schema = FileSchemaText.of(footer.schema(), footer.canonicalEntries())
                    .<RecordSchema>map(
                            text -> new SimpleRecordSchema(fields.getFields(), text, FileSchemaText.FORMAT, null))
                    .orElse(fields);
            this.rows = opened.rows();
        } catch (IOException | MalformedRecordException | RuntimeException | Error e) {
            closeQuietly(opened, e);
            try {
                content.close();
            } catch (IOException deleteFailure) {
                e.addSuppressed(deleteFailure);
            }
            throw e;
        }
    }

    private static GeoMetadata parseGeo(ParquetFooter footer, String name) throws MalformedRecordException {
        String geo = footer.keyValues().get(FooterEntries.GEO);
        if (geo == null) {
            return null;
        }
        try {
            return GeoMetadata.parse(geo);
        } catch (IllegalArgumentException e) {
            throw new MalformedRecordException(name + " has invalid GeoParquet metadata: " + e.getMessage(), e);
        }
    }

    @Override
    public Record nextRecord(boolean coerceTypes, boolean dropUnknownFields)
            throws IOException, MalformedRecordException {
        // Values already have exactly the types of the schema, and the schema has every field of the file.
        try {
            if (!rows.hasNext()) {
                return null;
            }
            Group row = rows.next();
            Record record = converter.convert(row);
            rowIndex++;
            return record.getSchema() == schema ? record : new MapRecord(schema, new LinkedHashMap<>(record.toMap()));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        } catch (RecordConversionException | IllegalArgumentException e) {
            throw new MalformedRecordException("Row " + rowIndex + " of " + footer.file() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public RecordSchema getSchema() {
        return schema;
    }

    /** The parsed {@code geo} footer entry, empty for plain Parquet (e.g. files with only the native GEOMETRY type). */
    public Optional<GeoMetadata> geoMetadata() {
        return Optional.ofNullable(geo);
    }

    /** The {@code geo} footer entry exactly as stored in the file. */
    public Optional<String> geoJson() {
        return Optional.ofNullable(footer.keyValues().get(FooterEntries.GEO));
    }

    /** The file's exact Parquet schema. */
    public MessageType parquetSchema() {
        return footer.schema();
    }

    /** The footer entries a rewrite of this file carries unchanged, in file order ({@code geo} among them). */
    public FooterEntries canonicalFooter() {
        return footer.canonicalEntries();
    }

    /** Names of the columns delivered as geometries (WKB bytes or WKT text). */
    public List<String> geometryColumns() {
        return geometryColumns;
    }

    /** Rows in the file, from its footer. */
    public long rowCount() {
        return footer.rowCount();
    }

    @Override
    public void close() throws IOException {
        try {
            file.close();
        } finally {
            content.close();
        }
    }

    private static void closeQuietly(GeoParquetFileReader reader, Throwable cause) {
        if (reader != null) {
            try {
                reader.close();
            } catch (IOException e) {
                cause.addSuppressed(e);
            }
        }
    }
}
