package dev.nifigeoparquet.archive.parquet;

import dev.nifigeoparquet.archive.error.ParquetFileException;
import java.io.ByteArrayInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.PrimitiveIterator;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.values.bloomfilter.BloomFilter;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.filter2.columnindex.RowRanges;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.KeyValue;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Reads a Parquet file one row group at a time; at most one row group's pages are in memory.
 *
 * <p>Before anything is allocated from the footer's numbers, they are checked against the file's length:
 * the footer length here, every column chunk's offset and size in {@link FooterSanity}, every page header in
 * {@link PageHeaderGuard}. Unsupported codecs are reported when the file is opened. Every error names the file.
 */
public final class GeoParquetFileReader implements Closeable {

    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);
    private static final int TAIL_BYTES = 8; // footer length (4, little-endian) + magic (4)

    private final String name;
    private final ParsedFooter parsed;
    private final ParquetFooter footer;
    private final ParquetFileReader reader;
    /** The file's stream, which tells a failure of the storage from bytes that cannot be read as Parquet. */
    private final StorageStreams.Input stream;

    private MessageType readSchema;
    private MessageColumnIO columnIO;
    private long rowsRead;
    private int nextRowGroup;

    private GeoParquetFileReader(
            String name, ParsedFooter parsed, ParquetFileReader reader, StorageStreams.Input stream) {
        this.name = name;
        this.stream = stream;
        this.parsed = parsed;
        this.footer = parsed.footer();
        this.reader = reader;
        this.readSchema = footer.schema();
        this.columnIO = new ColumnIOFactory().getColumnIO(readSchema);
    }

    /**
     * A file's footer, parsed and checked: all that opening the file again needs. Archive files never change once
     * written, so a footer parsed once serves every later read of the same file.
     */
    public record ParsedFooter(ParquetFooter footer, ParquetMetadata metadata) {}

    /**
     * Reads only these top-level columns from now on (rows then have the projected schema); a key scan reads a
     * few bytes of each row group instead of every column.
     */
    public GeoParquetFileReader project(List<String> columns) {
        MessageType projection = new MessageType(
                footer.schema().getName(),
                columns.stream().map(column -> footer.schema().getType(column)).toList());
        reader.setRequestedSchema(projection);
        readSchema = projection;
        columnIO = new ColumnIOFactory().getColumnIO(projection, footer.schema());
        return this;
    }

    public static GeoParquetFileReader open(Path file) throws IOException {
        return open(new LocalInputFile(file), file.toString());
    }

    /**
     * Opens a file and checks its footer. A failure of the storage is reported as the storage raised it; bytes that are
     * not a readable Parquet file as a {@link ParquetFileException}, now or when rows are read.
     *
     * @param name how errors refer to the file
     */
    public static GeoParquetFileReader open(InputFile file, String name) throws IOException {
        SeekableInputStream opened = file.newStream();
        long length;
        try {
            length = file.getLength();
        } catch (IOException | RuntimeException e) {
            opened.close();
            throw e;
        }
        StorageStreams.Input stream = new StorageStreams.Input(opened);
        try {
            FileMetaData thriftFooter = readFooter(stream, length, name);
            ParquetMetadata metadata = new ParquetMetadataConverter().fromParquetMetadata(thriftFooter);
            long dataEnd = length - TAIL_BYTES - footerLength(stream, length); // already checked to fit
            FooterSanity.check(metadata, dataEnd, name);
            metadata = withoutEmptyRowGroups(metadata);
            ParquetFooter footer = new ParquetFooter(
                    name,
                    metadata.getFileMetaData().getSchema(),
                    keyValuesInFileOrder(thriftFooter),
                    metadata.getBlocks().stream()
                            .mapToLong(BlockMetaData::getRowCount)
                            .sum(),
                    metadata.getBlocks());
            return open(file, new ParsedFooter(footer, metadata), stream);
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw e instanceof ParquetFileException parquetFileException
                    ? parquetFileException
                    : failure(
                            stream,
                            () -> new ParquetFileException(name, "not a readable Parquet file: " + e.getMessage(), e));
        }
    }

    /**
     * The footer without its row groups of 0 rows: they hold nothing to read, and parquet-java refuses to read them
     * (pyarrow writes one for an empty table, and one for each empty batch it is given).
     */
    private static ParquetMetadata withoutEmptyRowGroups(ParquetMetadata metadata) {
        if (metadata.getBlocks().stream().allMatch(block -> block.getRowCount() > 0)) {
            return metadata;
        }
        return new ParquetMetadata(
                metadata.getFileMetaData(),
                metadata.getBlocks().stream()
                        .filter(block -> block.getRowCount() > 0)
                        .toList());
    }

    /** Opens a file whose footer was parsed before (see {@link #parsedFooter()}), without reading the footer again. */
    public static GeoParquetFileReader open(InputFile file, ParsedFooter parsed) throws IOException {
        StorageStreams.Input stream = new StorageStreams.Input(file.newStream());
        try {
            return open(file, parsed, stream);
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw failure(
                    stream,
                    () -> new ParquetFileException(
                            parsed.footer().file(), "not a readable Parquet file: " + e.getMessage(), e));
        }
    }

    private static GeoParquetFileReader open(InputFile file, ParsedFooter parsed, StorageStreams.Input stream)
            throws IOException {
        ParquetFileReader reader = ParquetFileReader.open(
                file, parsed.metadata(), readOptions(), new PageHeaderGuard(stream, parsed.metadata()));
        return new GeoParquetFileReader(parsed.footer().file(), parsed, reader, stream);
    }

    /** The storage's failure when the storage failed, else the file's. */
    private static IOException failure(StorageStreams.Input stream, Supplier<ParquetFileException> ofTheFile) {
        IOException storage = stream.storageFailure();
        return storage != null ? storage : ofTheFile.get();
    }

    /** This file's parsed footer, to open the file again without parsing it. */
    public ParsedFooter parsedFooter() {
        return parsed;
    }

    /**
     * The largest buffer a row group's read allocates (parquet-java's default is 8 MiB). G1 puts an array of half a heap
     * region or more outside the young generation, and each such allocation may start a concurrent marking cycle: these
     * reads made most of a rewrite's. A quarter of G1's smallest region (1 MiB) stays young on any heap; a page that
     * straddles two buffers is copied whole, once.
     */
    static final int MAX_READ_BUFFER_BYTES = 256 * 1024;

    private static ParquetReadOptions readOptions() {
        return ParquetReadOptions.builder(new PlainParquetConfiguration())
                .withCodecFactory(ArchiveCodecFactory.forReading())
                .withMaxAllocationInBytes(MAX_READ_BUFFER_BYTES)
                .build();
    }

    private static FileMetaData readFooter(SeekableInputStream stream, long length, String name) throws IOException {
        if (length < MAGIC.length + TAIL_BYTES) {
            throw new ParquetFileException(name, "too short for a Parquet file (" + length + " bytes)");
        }
        int footerLength = footerLength(stream, length);
        byte[] magic = new byte[MAGIC.length];
        stream.readFully(magic);
        if (!Arrays.equals(magic, MAGIC)) {
            throw new ParquetFileException(name, "no Parquet magic at the end (truncated or not Parquet)");
        }
        if (footerLength <= 0 || footerLength > length - MAGIC.length - TAIL_BYTES) {
            throw new ParquetFileException(
                    name,
                    "footer length " + footerLength + " does not fit in a file of " + length
                            + " bytes (truncated or corrupt)");
        }
        byte[] footer = new byte[footerLength];
        stream.seek(length - TAIL_BYTES - footerLength);
        stream.readFully(footer);
        try {
            return Util.readFileMetaData(new ByteArrayInputStream(footer));
        } catch (IOException | RuntimeException e) {
            throw new ParquetFileException(name, "corrupt footer: " + e.getMessage(), e);
        }
    }

    /** Reads the 4-byte footer length and leaves the stream at the trailing magic. */
    private static int footerLength(SeekableInputStream stream, long length) throws IOException {
        byte[] tail = new byte[4];
        stream.seek(length - TAIL_BYTES);
        stream.readFully(tail);
        return ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN).getInt();
    }

    private static Map<String, String> keyValuesInFileOrder(FileMetaData footer) {
        Map<String, String> entries = new LinkedHashMap<>();
        if (footer.getKey_value_metadata() != null) {
            for (KeyValue entry : footer.getKey_value_metadata()) {
                entries.put(entry.getKey(), entry.getValue());
            }
        }
        return entries;
    }

    public ParquetFooter footer() {
        return footer;
    }

    /** The schema rows are read with: the file's, or the projection. */
    public MessageType readSchema() {
        return readSchema;
    }

    /** Skips the next row group without reading its pages; true when there was one. */
    private boolean skipRowGroup() throws IOException {
        if (nextRowGroup >= footer.rowGroupCount()) {
            return false;
        }
        reader.skipNextRowGroup();
        nextRowGroup++;
        return true;
    }

    /**
     * A test of whether a row group may hold a value of a top-level binary column, by the column chunk's bloom
     * filter: false only when the filter rules the value out; always true when the file has no filter for it.
     */
    public Predicate<Binary> bloomFilter(int rowGroup, String column) throws IOException {
        BlockMetaData group = footer.rowGroups().get(rowGroup);
        ColumnChunkMetaData chunk = chunk(rowGroup, column);
        BloomFilter filter;
        try {
            filter = reader.getBloomFilterDataReader(group).readBloomFilter(chunk);
        } catch (RuntimeException e) {
            throw failure(
                    stream,
                    () -> new ParquetFileException(
                            name,
                            "cannot read the bloom filter of row group " + rowGroup + ", column " + column + ": "
                                    + e.getMessage(),
                            e));
        }
        return filter == null ? value -> true : value -> filter.findHash(filter.hash(value));
    }

    /**
     * The size of a column's bloom filter in a row group as the footer records it: 0 without a filter, and the largest
     * filter parquet-java writes (1 MiB) when the footer gives a filter's place but not its size.
     */
    public long bloomFilterBytes(int rowGroup, String column) {
        ColumnChunkMetaData chunk = chunk(rowGroup, column);
        if (chunk.getBloomFilterOffset() < 0) {
            return 0;
        }
        return chunk.getBloomFilterLength() >= 0 ? chunk.getBloomFilterLength() : 1024 * 1024;
    }

    private ColumnChunkMetaData chunk(int rowGroup, String column) {
        return footer.rowGroups().get(rowGroup).getColumns().stream()
                .filter(c -> c.getPath().size() == 1 && c.getPath().toArray()[0].equals(column))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(name + " has no column " + column));
    }

    /**
     * A top-level column's page index in a row group: each page's statistics (its column index) and where it lies and
     * which row it starts at (its offset index).
     *
     * @param statistics null when the file has no column index for the column (a writer leaves it out of a column
     *                   without statistics)
     */
    public record PageIndex(ColumnIndex statistics, OffsetIndex pages) {}

    /** The column's page index in the row group; null when the file has no offset index for it. */
    public PageIndex pageIndex(int rowGroup, String column) throws IOException {
        ColumnChunkMetaData chunk = chunk(rowGroup, column);
        if (chunk.getOffsetIndexReference() == null) {
            return null;
        }
        try {
            OffsetIndex pages = reader.readOffsetIndex(chunk);
            ColumnIndex statistics = chunk.getColumnIndexReference() == null ? null : reader.readColumnIndex(chunk);
            return pages == null ? null : new PageIndex(statistics, pages);
        } catch (IOException | RuntimeException e) {
            throw failure(
                    stream,
                    () -> new ParquetFileException(
                            name,
                            "cannot read the page index of row group " + rowGroup + ", column " + column + ": "
                                    + e.getMessage(),
                            e));
        }
    }

    /**
     * The rows of a row group that lie in some pages of one of its columns, reading of every column only the pages
     * holding those rows (columns' pages need not start at the same rows: parquet-java reads each column's pages that
     * overlap them and skips the other rows). Random access: the row group {@link #nextRowGroup()} reads stays as it
     * was.
     *
     * @param pagesOf the offset index of the column whose pages are chosen
     * @param pages   the chosen pages' indexes in {@code pagesOf}, ascending
     */
    public RowGroup rowsInPages(int rowGroup, OffsetIndex pagesOf, PrimitiveIterator.OfInt pages) throws IOException {
        long rowCount = footer.rowGroups().get(rowGroup).getRowCount();
        RowRanges.Builder rows = RowRanges.builder();
        while (pages.hasNext()) {
            int page = pages.nextInt();
            rows.addSelectedRange(pagesOf.getFirstRowIndex(page), pagesOf.getLastRowIndex(page, rowCount));
        }
        PageReadStore read;
        try {
            read = reader.readFilteredRowGroup(rowGroup, rows.build());
        } catch (IOException | RuntimeException e) {
            throw failure(
                    stream,
                    () -> new ParquetFileException(
                            name, "cannot read pages of row group " + rowGroup + ": " + e.getMessage(), e));
        }
        return read == null ? null : rowsOf(read);
    }

    /** The rows of a row group, by random access: the row group {@link #nextRowGroup()} reads stays as it was. */
    public RowGroup rowGroup(int rowGroup) throws IOException {
        PageReadStore read;
        try {
            read = reader.readRowGroup(rowGroup);
        } catch (IOException | RuntimeException e) {
            throw failure(
                    stream,
                    () -> new ParquetFileException(
                            name, "cannot read row group " + rowGroup + ": " + e.getMessage(), e));
        }
        return rowsOf(read);
    }

    /** The next row group's rows, or {@code null} after the last one. Earlier row groups are released. */
    public RowGroup nextRowGroup() throws IOException {
        PageReadStore pages = readNextPages();
        return pages == null ? null : rowsOf(pages);
    }

    private RowGroup rowsOf(PageReadStore pages) throws ParquetFileException {
        try {
            // Building the column readers decodes each column's dictionary and first page.
            RecordReader<Group> records = columnIO.getRecordReader(pages, new GroupRecordConverter(readSchema));
            return new RowGroup(pages.getRowCount(), records);
        } catch (RuntimeException e) {
            throw undecodable(e);
        }
    }

    /**
     * The next row group for copying column by column (see {@link ColumnarRowGroup}), or {@code null} after the last
     * one; an alternative to {@link #nextRowGroup()}, not to be mixed with it for the same row group.
     */
    public ColumnarRowGroup nextColumnarRowGroup() throws IOException {
        PageReadStore pages = readNextPages();
        if (pages == null) {
            return null;
        }
        try {
            ColumnarRowGroup group = new ColumnarRowGroup(
                    name, pages, readSchema, parsed.metadata().getFileMetaData().getCreatedBy());
            rowsRead += pages.getRowCount();
            return group;
        } catch (RuntimeException e) {
            throw undecodable(e);
        }
    }

    /**
     * The next row group, read for copying into a file of the same schema: the columns of the top-level fields in
     * {@code storedFields} as their pages are stored ({@link StoredColumnChunk}), the other fields column by column;
     * {@code null} after the last row group. From then on the reader reads only those other fields.
     */
    public StoredRowGroup nextStoredRowGroup(Set<String> storedFields) throws IOException {
        if (nextRowGroup >= footer.rowGroupCount()) {
            return null;
        }
        BlockMetaData block = parsed.metadata().getBlocks().get(nextRowGroup);
        String where = "row group " + nextRowGroup;
        List<ColumnChunkMetaData> chunks = block.getColumns().stream()
                .filter(chunk -> storedFields.contains(chunk.getPath().toArray()[0]))
                .toList();
        List<StoredColumnChunk> stored = new ArrayList<>(chunks.size());
        try {
            // Every page index first: they lie together before the footer, which a storage may hold read already.
            List<OffsetIndex> offsets = new ArrayList<>(chunks.size());
            List<ColumnIndex> statistics = new ArrayList<>(chunks.size());
            for (ColumnChunkMetaData chunk : chunks) {
                offsets.add(reader.readOffsetIndex(chunk));
                statistics.add(reader.readColumnIndex(chunk));
            }
            for (int i = 0; i < chunks.size(); i++) {
                ColumnChunkMetaData chunk = chunks.get(i);
                stored.add(StoredColumnChunk.read(
                        stream,
                        footer.schema().getColumnDescription(chunk.getPath().toArray()),
                        chunk,
                        offsets.get(i),
                        statistics.get(i),
                        block.getRowCount(),
                        name + ", " + where));
            }
        } catch (ParquetFileException e) {
            throw e;
        } catch (IOException | RuntimeException e) {
            throw failure(
                    stream,
                    () -> new ParquetFileException(
                            name, "cannot read the stored pages of " + where + ": " + e.getMessage(), e));
        }
        List<String> others = footer.schema().getFields().stream()
                .map(Type::getName)
                .filter(field -> !storedFields.contains(field))
                .toList();
        if (others.isEmpty()) {
            skipRowGroup();
            rowsRead += block.getRowCount();
            return new StoredRowGroup(block.getRowCount(), stored, null);
        }
        if (!others.equals(readSchema.getFields().stream().map(Type::getName).toList())) {
            project(others);
        }
        return new StoredRowGroup(block.getRowCount(), stored, nextColumnarRowGroup());
    }

    /** The next row group's pages, or {@code null} after the last one. */
    private PageReadStore readNextPages() throws IOException {
        nextRowGroup++;
        try {
            return reader.readNextRowGroup();
        } catch (IOException | RuntimeException e) {
            throw failure(
                    stream,
                    () -> new ParquetFileException(
                            name, "cannot read row group after row " + rowsRead + ": " + e.getMessage(), e));
        }
    }

    private ParquetFileException undecodable(RuntimeException e) {
        return new ParquetFileException(
                name, "cannot decode row group after row " + rowsRead + ": " + ParquetFileException.reasons(e), e);
    }

    /** All rows, row group by row group. I/O errors surface as {@link UncheckedIOException}. */
    public Iterator<Group> rows() {
        return new Iterator<>() {
            private RowGroup current;

            @Override
            public boolean hasNext() {
                try {
                    while (current == null || !current.hasNext()) {
                        current = nextRowGroup();
                        if (current == null) {
                            return false;
                        }
                    }
                    return true;
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }

            @Override
            public Group next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return current.next();
            }
        };
    }

    /** Rows read so far, across row groups. */
    public long rowsRead() {
        return rowsRead;
    }

    @Override
    public void close() throws IOException {
        reader.close();
    }

    /** The rows of one row group, decoded one at a time. */
    public final class RowGroup implements Iterator<Group> {
        private final long rowCount;
        private final RecordReader<Group> records;
        private long read;

        private RowGroup(long rowCount, RecordReader<Group> records) {
            this.rowCount = rowCount;
            this.records = records;
        }

        public long rowCount() {
            return rowCount;
        }

        @Override
        public boolean hasNext() {
            return read < rowCount;
        }

        @Override
        public Group next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            try {
                Group row = records.read();
                read++;
                rowsRead++;
                return row;
            } catch (RuntimeException e) {
                throw new UncheckedIOException(
                        new ParquetFileException(name, "cannot decode row " + rowsRead + ": " + e.getMessage(), e));
            }
        }
    }
}
