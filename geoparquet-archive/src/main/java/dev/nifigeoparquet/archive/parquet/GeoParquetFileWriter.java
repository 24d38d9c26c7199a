package dev.nifigeoparquet.archive.parquet;

import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.geo.GeoColumn;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.geo.GeometryEncoding;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.bytes.HeapByteBufferAllocator;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.locationtech.jts.geom.Geometry;

/**
 * The one place the archive writes Parquet: rows ({@link Group}) with an exact schema and the archive's canonical
 * footer entries, copied verbatim and in order.
 *
 * <p>It drives parquet-java's {@link ParquetFileWriter} directly rather than through {@code ParquetWriter},
 * because {@code ParquetWriter} copies the footer entries into a {@code HashMap} (losing their order) and cuts
 * row groups by estimated memory size; here a row group holds exactly {@link WriterSettings#rowGroupRowCount()}
 * rows. {@value #WRITER_MODEL_KEY} is written per file, after the canonical entries.
 *
 * <p>Call {@link #finish()} to complete the file; closing without it abandons the file.
 *
 * <p>When the {@code geo} entry declares a covering bbox for a column, that struct is computed from each row's
 * geometry (see {@link CoveringColumn}).
 */
public final class GeoParquetFileWriter implements Closeable {

    public static final String WRITER_MODEL_KEY = "writer.model.name";
    /** A row group whose pages are taken as stored holds at most this fraction, inverted, of a row group here. */
    private static final int LARGEST_STORED_SHARE_INVERSE = 8;

    static final String WRITER_MODEL = "nifi-geoparquet";

    private final String name;
    private final MessageType schema;
    private final Map<String, String> footerEntries;
    private final ParquetProperties properties;
    private final BytesInputCompressor compressor;
    private final CompressAheadPageStore.HandOff handOff;
    private final WriterSettings settings;
    private final PageCompression compression;
    private final ParquetFileWriter fileWriter;
    /** The file's stream, which tells a failure of the storage from one of encoding. */
    private final StorageStreams.Output output;

    private final GroupRowWriteSupport rowWriter;
    private final MessageColumnIO columnIO;

    private ColumnChunkPageWriteStore pageStore;
    private CompressAheadPageStore aheadStore;
    private ColumnWriteStore columnStore;
    private RecordConsumer recordConsumer;
    /** The columns the current row group takes as stored pages ({@link #copyRowGroup}); the column store has the rest. */
    private Set<ColumnDescriptor> storedColumns = Set.of();

    private long rowsInGroup;
    private long rowsWritten;
    private int rowGroups;
    private WrittenFile result;
    private ColumnarRowGroup checkedSource;

    private GeoParquetFileWriter(
            String name,
            MessageType schema,
            Map<String, String> footerEntries,
            WriterSettings settings,
            ColumnEncodings encodings,
            ParquetFileWriter fileWriter,
            StorageStreams.Output output,
            Map<Integer, CoveringColumn> covering,
            PageCompression compression) {
        this.name = name;
        this.schema = schema;
        this.footerEntries = footerEntries;
        this.properties = properties(schema, footerEntries, settings, encodings);
        this.compressor = new ArchiveCodecFactory(settings.zstdLevel()).getCompressor(settings.codec());
        this.settings = settings;
        this.compression = compression;
        this.handOff = new CompressAheadPageStore.HandOff(compressor);
        this.fileWriter = fileWriter;
        this.output = output;
        this.rowWriter = new GroupRowWriteSupport(
                schema,
                covering,
                covering.isEmpty()
                        ? null
                        : parsedGeo(footerEntries.get(FooterEntries.GEO)).primaryColumn());
        this.columnIO = new ColumnIOFactory(false).getColumnIO(schema);
    }

    /**
     * Starts a new file; it must not exist yet.
     *
     * @param footer the archive's canonical entries (e.g. {@code geo}), written first and unchanged
     */
    public static GeoParquetFileWriter create(
            OutputFile out, String name, MessageType schema, FooterEntries footer, WriterSettings settings)
            throws IOException {
        return create(out, name, schema, footer, settings, ColumnEncodings.defaults());
    }

    /** Where a writer's data pages are compressed. The file's bytes are the same either way. */
    public enum PageCompression {
        /** On the thread that writes the rows, as parquet-java does. */
        ON_WRITING_THREAD,
        /**
         * On shared helper threads (one per core) while the writing thread goes on encoding: for long writes
         * (compaction), and for files written whole when they finish (routed cells), whose pages the helpers then
         * compress side by side. Up to 16 MiB of uncompressed pages are held meanwhile.
         */
        AHEAD
    }

    /**
     * Like {@link #create(OutputFile, String, MessageType, FooterEntries, WriterSettings)}, with these encoding
     * choices instead of the defaults.
     */
    public static GeoParquetFileWriter create(
            OutputFile out,
            String name,
            MessageType schema,
            FooterEntries footer,
            WriterSettings settings,
            ColumnEncodings encodings)
            throws IOException {
        return create(out, name, schema, footer, settings, encodings, PageCompression.ON_WRITING_THREAD);
    }

    /** Like {@link #create(OutputFile, String, MessageType, FooterEntries, WriterSettings, ColumnEncodings)}. */
    public static GeoParquetFileWriter create(
            OutputFile out,
            String name,
            MessageType schema,
            FooterEntries footer,
            WriterSettings settings,
            ColumnEncodings encodings,
            PageCompression compression)
            throws IOException {
        Map<Integer, CoveringColumn> covering = coveringColumns(schema, footer, name);
        Map<String, String> entries = new LinkedHashMap<>(footer.asMap());
        entries.put(WRITER_MODEL_KEY, WRITER_MODEL);
        StorageStreams.Output output = new StorageStreams.Output(out);
        ParquetFileWriter fileWriter;
        try {
            fileWriter = new ParquetFileWriter(
                    output,
                    schema,
                    ParquetFileWriter.Mode.CREATE,
                    ParquetWriterDefaults.ROW_GROUP_BYTES_HINT,
                    ParquetWriterDefaults.NO_PADDING,
                    null,
                    properties(schema, entries, settings, encodings));
            fileWriter.start();
        } catch (IOException | RuntimeException e) {
            throw writeFailure(name, output, "cannot create", e);
        }
        GeoParquetFileWriter writer = new GeoParquetFileWriter(
                name, schema, entries, settings, encodings, fileWriter, output, covering, compression);
        writer.startRowGroup();
        return writer;
    }

    /**
     * Row groups by row count, and no dictionary for geometry columns: every WKB value is distinct, so parquet-java
     * would build a dictionary for each page only to fall back to plain encoding (most of a rewrite's CPU time when
     * measured).
     */
    private static ParquetProperties properties(
            MessageType schema, Map<String, String> footerEntries, WriterSettings settings, ColumnEncodings encodings) {
        ParquetProperties.Builder builder = ParquetProperties.builder()
                .withRowGroupRowCountLimit(settings.rowGroupRowCount())
                .withDictionaryEncoding(encodings.dictionary());
        long bloomValues = encodings.bloomFilterValues() == 0
                ? settings.rowGroupRowCount()
                : Math.min(encodings.bloomFilterValues(), settings.rowGroupRowCount());
        builder.withSizeStatisticsEnabled(encodings.sizeStatistics());
        if (encodings.pageRowCountLimit() > 0) {
            builder.withPageRowCountLimit(encodings.pageRowCountLimit());
        }
        if (encodings.pageSize() > 0) {
            builder.withPageSize(encodings.pageSize());
        }
        for (String column : encodings.withoutDictionary()) {
            builder.withDictionaryEncoding(column, false);
        }
        for (String column : encodings.withoutStatistics()) {
            builder.withStatisticsEnabled(column, false);
        }
        for (String column : encodings.bloomFilterColumns()) {
            builder.withBloomFilterEnabled(column, true).withBloomFilterNDV(column, Math.max(1, bloomValues));
            if (encodings.bloomFilterFpp() > 0) {
                builder.withBloomFilterFPP(column, encodings.bloomFilterFpp());
            }
        }
        Set<String> geometryColumns = new HashSet<>();
        String geo = footerEntries.get(FooterEntries.GEO);
        if (geo != null) {
            try {
                parsedGeo(geo).columns().forEach((column, meta) -> {
                    if (meta.encoding() == GeometryEncoding.WKB) {
                        geometryColumns.add(column);
                    }
                    // A covering bbox holds each geometry's own extremes, as distinct as the geometries: a dictionary
                    // hashed every value only to be dropped when the page was written.
                    meta.coveringBbox()
                            .ifPresent(paths -> paths.values()
                                    .forEach(path -> builder.withDictionaryEncoding(String.join(".", path), false)));
                });
            } catch (IllegalArgumentException unreadable) {
                // The caller validates the geo block; an unreadable one simply keeps parquet-java's defaults.
            }
        }
        for (Type field : schema.getFields()) {
            if (GeometryCodec.isParquetGeospatial(field)) {
                geometryColumns.add(field.getName());
            }
        }
        for (String column : geometryColumns) {
            if (schema.containsField(column) && schema.getType(column).isPrimitive()) {
                builder.withDictionaryEncoding(column, false);
                if (!GeometryCodec.isParquetGeospatial(schema.getType(column))) {
                    // Byte-wise min/max of WKB says nothing about where geometries are (GeoParquet readers prune by
                    // the covering bbox), and comparing every value's bytes was a sizeable share of writing it.
                    // Parquet GEOMETRY columns keep their statistics: theirs are bounding boxes.
                    builder.withStatisticsEnabled(column, false);
                }
            }
        }
        return builder.build();
    }

    /** The archive's few geo blocks, parsed once: every file written would otherwise parse the same JSON twice. */
    private static final Map<String, GeoMetadata> PARSED_GEO = Collections.synchronizedMap(new LruMap<>(16));

    private static GeoMetadata parsedGeo(String geo) {
        GeoMetadata parsed = PARSED_GEO.get(geo);
        if (parsed == null) {
            parsed = GeoMetadata.parse(geo);
            PARSED_GEO.put(geo, parsed);
        }
        return parsed;
    }

    private static Map<Integer, CoveringColumn> coveringColumns(MessageType schema, FooterEntries footer, String name)
            throws ParquetFileException {
        Map<Integer, CoveringColumn> covering = new HashMap<>();
        if (footer.geo() == null) {
            return covering;
        }
        try {
            GeoMetadata geo = parsedGeo(footer.geo());
            for (Map.Entry<String, GeoColumn> column : geo.columns().entrySet()) {
                Map<String, List<String>> paths =
                        column.getValue().coveringBbox().orElse(null);
                if (paths != null) {
                    CoveringColumn bbox = CoveringColumn.of(schema, column.getKey(), column.getValue(), paths);
                    covering.put(bbox.fieldIndex(), bbox);
                }
            }
        } catch (IllegalArgumentException e) {
            throw new ParquetFileException(name, "geo metadata does not fit the schema: " + e.getMessage(), e);
        }
        return covering;
    }

    private void startRowGroup() {
        startRowGroup(Set.of());
    }

    /** Starts a row group whose {@code stored} columns take stored pages and whose other columns are encoded here. */
    private void startRowGroup(Set<ColumnDescriptor> stored) {
        pageStore = ColumnChunkPageWriteStore.builder()
                .withCompressorProvider(column -> handOff)
                .withSchema(schema)
                .withAllocator(HeapByteBufferAllocator.getInstance())
                .withColumnIndexTruncateLength(properties.getColumnIndexTruncateLength())
                .withPageWriteChecksumEnabled(properties.getPageWriteChecksumEnabled())
                .withRowGroupOrdinal(rowGroups)
                .build();
        aheadStore = compression == PageCompression.AHEAD
                ? new CompressAheadPageStore(pageStore, handOff, settings.codec(), settings.zstdLevel())
                : null;
        storedColumns = stored;
        // A column store holds only the columns it encodes: one without values would fail its row-count page check.
        columnStore = properties.newColumnWriteStore(
                stored.isEmpty() ? schema : withoutColumns(stored),
                aheadStore == null ? pageStore : aheadStore,
                pageStore);
        recordConsumer = stored.isEmpty() ? columnIO.getRecordWriter(columnStore) : null;
        if (recordConsumer != null) {
            rowWriter.prepareForWrite(recordConsumer);
        }
        rowsInGroup = 0;
    }

    /** The schema's top-level fields that hold none of {@code stored}'s columns. */
    private MessageType withoutColumns(Set<ColumnDescriptor> stored) {
        Set<String> storedFields = new HashSet<>();
        stored.forEach(column -> storedFields.add(column.getPath()[0]));
        return new MessageType(
                schema.getName(),
                schema.getFields().stream()
                        .filter(field -> !storedFields.contains(field.getName()))
                        .toList());
    }

    /**
     * Makes the current row group one that takes {@code stored}'s columns as stored pages and {@code rows} more rows:
     * it ends first if it takes other stored columns, or if the rows would not fit in it.
     */
    private void useStoredRowGroup(Set<ColumnDescriptor> stored, long rows) throws IOException {
        if (!stored.equals(storedColumns) || rowsInGroup + rows > properties.getRowGroupRowCountLimit()) {
            restartRowGroup(stored);
        }
    }

    /** Ends a row group that takes stored pages, whose column store lacks their columns, before rows are encoded. */
    private void useEncodedRowGroup() throws IOException {
        if (!storedColumns.isEmpty()) {
            restartRowGroup(Set.of());
        }
    }

    /** Ends the current row group, or drops it if it holds no row, and starts one with these stored columns. */
    private void restartRowGroup(Set<ColumnDescriptor> stored) throws IOException {
        if (rowsInGroup > 0) {
            flushRowGroup();
        } else {
            columnStore.close();
            pageStore.close();
        }
        startRowGroup(stored);
    }

    public void write(Group row) throws IOException {
        write(row, null);
    }

    /**
     * Like {@link #write(Group)}, for a row whose primary geometry the caller has decoded already (routing keys every
     * row by it): a covering bbox of the primary column is computed from {@code primaryGeometry} rather than from the
     * value decoded once more. It must be the geometry the row's value encodes; null decodes the value here.
     */
    public void write(Group row, Geometry primaryGeometry) throws IOException {
        requireUnfinished();
        useEncodedRowGroup();
        rowWriter.write(row, rowsWritten, primaryGeometry);
        rowWritten();
    }

    /**
     * Copies the next row of {@code source} value by value, without assembling it: for rows that are rewritten
     * unchanged. The source must have this file's schema and its covering columns (if any) must be right already,
     * as in files this writer wrote: they are copied, not recomputed.
     */
    public void copyRow(ColumnarRowGroup source) throws IOException {
        requireUnfinished();
        if (source != checkedSource) {
            if (!source.schema().equals(schema)) {
                throw new IllegalArgumentException(
                        name + ": cannot copy rows of schema " + source.schema() + " into " + schema);
            }
            checkedSource = source;
        }
        useEncodedRowGroup();
        source.copyNextRowTo(columnStore);
        columnStore.endRecord();
        rowWritten();
    }

    /**
     * The top-level fields of row group {@code rowGroup} of {@code input}, a file of this schema, whose pages this
     * writer can take as they are stored ({@link #copyRowGroup}): every column of the field is written here without a
     * dictionary or bloom filter, and stored there as {@link StoredColumnChunk#whyNotCopyable} allows. One field at
     * least is left to be copied value by value.
     *
     * <p>None for a row group of more than {@value #LARGEST_STORED_SHARE_INVERSE}th of a row group's rows here, or
     * while the current row group holds rows copied value by value: a row group ends before one whose stored pages do
     * not fit in it whole, so it falls short of the configured row count by less than that share.
     */
    public Set<String> storedFieldsCopyable(ParquetFooter input, int rowGroup) {
        BlockMetaData block = input.rowGroups().get(rowGroup);
        if (block.getRowCount() > properties.getRowGroupRowCountLimit() / LARGEST_STORED_SHARE_INVERSE
                || (rowsInGroup > 0 && storedColumns.isEmpty())) {
            return Set.of();
        }
        Set<String> copyable = new LinkedHashSet<>();
        Set<String> refused = new HashSet<>();
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            String field = chunk.getPath().toArray()[0];
            ColumnDescriptor column =
                    schema.getColumnDescription(chunk.getPath().toArray());
            boolean copies = encodesPlainly(column)
                    && !GeometryCodec.isParquetGeospatial(schema.getType(field))
                    && StoredColumnChunk.whyNotCopyable(
                                    chunk,
                                    settings.codec(),
                                    properties.getStatisticsEnabled(column),
                                    properties.getColumnIndexTruncateLength())
                            == null;
            (copies ? copyable : refused).add(field);
        }
        copyable.removeAll(refused);
        if (copyable.size() == schema.getFieldCount()) {
            copyable.remove(schema.getFields().get(0).getName());
        }
        return copyable;
    }

    /**
     * Copies a whole row group read for copying ({@link GeoParquetFileReader#nextStoredRowGroup}): its stored columns'
     * pages as they are, neither decoded nor compressed again, and its other columns value by value. The rows stay
     * together in one row group here, which ends first if they would not fit in it or it takes other stored columns.
     * With no stored column, the rows are copied as {@link #copyRow} copies them.
     */
    public void copyRowGroup(StoredRowGroup group) throws IOException {
        requireUnfinished();
        if (group.stored().isEmpty()) {
            while (group.rest().hasNext()) {
                copyRow(group.rest());
            }
            return;
        }
        Set<ColumnDescriptor> stored = new HashSet<>();
        for (StoredColumnChunk chunk : group.stored()) {
            if (!encodesPlainly(chunk.column())) {
                throw new IllegalArgumentException(
                        name + ": column " + String.join(".", chunk.column().getPath())
                                + " is encoded with a dictionary or bloom filter here, so it cannot take stored pages");
            }
            stored.add(chunk.column());
        }
        if (group.rowCount() > properties.getRowGroupRowCountLimit()) {
            throw new IllegalArgumentException(name + ": a row group of " + group.rowCount()
                    + " rows exceeds the row count of one here, " + properties.getRowGroupRowCountLimit());
        }
        useStoredRowGroup(stored, group.rowCount());
        for (StoredColumnChunk chunk : group.stored()) {
            writeStoredPages(chunk);
        }
        ColumnarRowGroup rest = group.rest();
        if (rest != null) {
            if (!rest.schema().equals(withoutColumns(stored))) {
                throw new IllegalArgumentException(
                        name + ": cannot copy rows of schema " + rest.schema() + " beside stored columns " + stored);
            }
            long rows = 0;
            for (; rest.hasNext(); rows++) {
                rest.copyNextRowTo(columnStore);
                columnStore.endRecord();
            }
            if (rows != group.rowCount()) {
                throw new ParquetFileException(
                        name, "copied " + rows + " rows of a row group of " + group.rowCount() + " rows");
            }
        }
        rowsInGroup += group.rowCount();
        rowsWritten += group.rowCount();
        if (rowsInGroup >= properties.getRowGroupRowCountLimit()) {
            flushRowGroup();
            startRowGroup();
        }
    }

    /** Whether this writer encodes the column without a dictionary or bloom filter, as a stored page must be. */
    private boolean encodesPlainly(ColumnDescriptor column) {
        return !properties.isDictionaryEnabled(column) && !properties.isBloomFilterEnabled(column);
    }

    /** Hands a stored chunk's pages to the page store, whose compressor returns each page's stored bytes. */
    private void writeStoredPages(StoredColumnChunk chunk) throws IOException {
        ColumnDescriptor column = chunk.column();
        PageWriter target = pageStore.getPageWriter(column);
        boolean statistics = properties.getStatisticsEnabled(column);
        boolean sizeStatistics = properties.getSizeStatisticsEnabled(column);
        for (StoredColumnChunk.StoredPage page : chunk.pages()) {
            // Only the page's size is read: the compressor returns its stored bytes instead of compressing it.
            BytesInput sized = BytesInput.from(InputStream.nullInputStream(), page.uncompressedSize());
            handOff.handingOn(
                    page.compressed(),
                    () -> target.writePage(
                            sized,
                            page.valueCount(),
                            page.rowCount(),
                            statistics ? page.statistics() : Statistics.noopStats(column.getPrimitiveType()),
                            sizeStatistics ? page.sizeStatistics() : null,
                            null,
                            page.repetitionLevels(),
                            page.definitionLevels(),
                            page.values()));
        }
    }

    private void requireUnfinished() {
        if (result != null) {
            throw new IllegalStateException(name + " is already finished");
        }
    }

    /** Counts a row just written and closes the row group once it holds the configured rows. */
    private void rowWritten() throws IOException {
        rowsInGroup++;
        rowsWritten++;
        if (rowsInGroup >= properties.getRowGroupRowCountLimit()) {
            flushRowGroup();
            startRowGroup();
        }
    }

    /**
     * Closes the current row group now, if it holds any row, so the next row starts a new one: for writers that cut
     * row groups by content (a spatial tile each) rather than at the configured row count, which stays the maximum.
     */
    public void endRowGroup() throws IOException {
        requireUnfinished();
        if (rowsInGroup > 0) {
            flushRowGroup();
            startRowGroup();
        }
    }

    /** Whether this writer wrote {@code footer}'s file, so its covering columns were computed here. */
    public static boolean wrote(ParquetFooter footer) {
        return WRITER_MODEL.equals(footer.keyValues().get(WRITER_MODEL_KEY));
    }

    private void flushRowGroup() throws IOException {
        try {
            if (recordConsumer != null) {
                recordConsumer.flush();
            }
            fileWriter.startBlock(rowsInGroup);
            columnStore.flush();
            if (aheadStore != null) {
                aheadStore.drain();
            }
            pageStore.flushToFileWriter(fileWriter);
            fileWriter.endBlock();
            rowGroups++;
        } catch (IOException | RuntimeException e) {
            abandonPagesAhead();
            throw writeFailure(name, output, "cannot write row group " + rowGroups, e);
        } finally {
            columnStore.close();
            pageStore.close();
        }
    }

    /**
     * A failure of the storage beneath (a full disk, a lost connection), however parquet-java wrapped it, is a plain
     * {@link IOException}, so callers may try again. Anything else means the rows could not be encoded: a
     * {@link ParquetFileException}.
     */
    private static IOException writeFailure(String name, StorageStreams.Output output, String what, Throwable e) {
        return output.storageFailure() != null
                ? new IOException(name + ": " + what + ": " + storageReason(e), output.storageFailure())
                : new ParquetFileException(name, what + ": " + storageReason(e), e);
    }

    /**
     * Why a write failed, as the storage said it: the innermost cause's message. parquet-java wraps a failed footer
     * write in an exception whose message prints the whole footer, which would bury "No space left on device".
     */
    private static String storageReason(Throwable failure) {
        Throwable cause = failure;
        while (cause.getCause() != null && cause.getCause() != cause) {
            cause = cause.getCause();
        }
        return cause.getMessage() == null || cause.getMessage().isBlank()
                ? cause.getClass().getSimpleName()
                : cause.getMessage();
    }

    /** Writes the last row group and the footer, closes the file and says what it holds. */
    public WrittenFile finish() throws IOException {
        if (result != null) {
            return result;
        }
        if (rowsInGroup > 0) {
            flushRowGroup();
        } else {
            columnStore.close();
            pageStore.close();
        }
        try {
            fileWriter.end(footerEntries);
            result = new WrittenFile(rowsWritten, rowGroups, fileWriter.getPos());
        } catch (IOException | RuntimeException e) {
            throw writeFailure(name, output, "cannot write footer", e);
        }
        compressor.release();
        return result;
    }

    /** Drops the pages waiting to be handed on to the page store: the file is not completed. */
    private void abandonPagesAhead() {
        if (aheadStore != null) {
            aheadStore.abandon();
        }
    }

    /**
     * Without a prior {@link #finish()}, abandons the file: no footer is written, so no reader will take the
     * partial file for a complete one. Callers delete it.
     */
    @Override
    public void close() throws IOException {
        if (result == null) {
            abandonPagesAhead();
            compressor.release();
            fileWriter.abort();
            columnStore.close();
            pageStore.close();
            fileWriter.close();
        }
    }
}
