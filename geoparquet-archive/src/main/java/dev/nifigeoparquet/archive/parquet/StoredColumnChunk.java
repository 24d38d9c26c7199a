package dev.nifigeoparquet.archive.parquet;

import dev.nifigeoparquet.archive.error.ParquetFileException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.zip.CRC32;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.EncodingStats;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.format.DataPageHeader;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.PageType;
import org.apache.parquet.format.Util;
import org.apache.parquet.format.converter.ParquetMetadataConverter;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.internal.column.columnindex.OffsetIndex;
import org.apache.parquet.io.SeekableInputStream;
import org.apache.parquet.schema.PrimitiveType;

/**
 * A column chunk's data pages as its file stores them, compressed, each with its row count and statistics taken from
 * the file's page index: what a writer needs to put the pages into a column chunk of another file without decoding,
 * encoding or compressing them again. Only a chunk of plainly encoded pages qualifies ({@link #whyNotCopyable}): a
 * dictionary-encoded page means nothing without its own chunk's dictionary.
 *
 * <p>The pages are checked as they are read: each header must describe the page the page index locates, and each
 * page's checksum must match its bytes (a page written without one is decompressed to check its size instead), so a
 * damaged page fails the copy rather than reaching the new file under a fresh checksum.
 */
public final class StoredColumnChunk {

    private static final ParquetMetadataConverter CONVERTER = new ParquetMetadataConverter();

    /** One data page: its compressed bytes and what its header and the page index say of it. */
    record StoredPage(
            BytesInput compressed,
            int uncompressedSize,
            int valueCount,
            int rowCount,
            Statistics<?> statistics,
            SizeStatistics sizeStatistics,
            Encoding repetitionLevels,
            Encoding definitionLevels,
            Encoding values) {}

    private final ColumnDescriptor column;
    private final List<StoredPage> pages;

    private StoredColumnChunk(ColumnDescriptor column, List<StoredPage> pages) {
        this.column = column;
        this.pages = pages;
    }

    public ColumnDescriptor column() {
        return column;
    }

    List<StoredPage> pages() {
        return pages;
    }

    /**
     * Why {@code chunk}'s pages cannot be copied as they are into a chunk compressed with {@code codec}, or null when
     * they can: they must be data pages v1 of plain values, without a dictionary, compressed alike, located by an
     * offset index, and, when the new chunk keeps statistics, described by a column index. The new chunk's statistics
     * are merged from the column index, which cuts byte strings to {@code truncateLength} bytes: the chunk's own
     * minimum and maximum must fit in that, so the merged ones are exact.
     */
    static String whyNotCopyable(
            ColumnChunkMetaData chunk, CompressionCodecName codec, boolean statisticsWanted, int truncateLength) {
        if (chunk.getCodec() != codec) {
            return "compressed with " + chunk.getCodec();
        }
        EncodingStats encodings = chunk.getEncodingStats();
        if (encodings == null) {
            return "no encoding statistics";
        }
        if (encodings.hasDictionaryPages() || encodings.hasDictionaryEncodedPages()) {
            return "dictionary-encoded";
        }
        if (encodings.usesV2Pages()) {
            return "data pages v2";
        }
        if (!encodings.getDataEncodings().equals(Set.of(Encoding.PLAIN))) {
            return "encoded as " + encodings.getDataEncodings();
        }
        if (chunk.getOffsetIndexReference() == null) {
            return "no offset index";
        }
        if (statisticsWanted && chunk.getColumnIndexReference() == null) {
            return "no column index";
        }
        Statistics<?> statistics = chunk.getStatistics();
        if (statisticsWanted
                && statistics != null
                && statistics.hasNonNullValue()
                && (statistics.getMinBytes().length > truncateLength
                        || statistics.getMaxBytes().length > truncateLength)) {
            return "minimum or maximum longer than its column index keeps";
        }
        return null;
    }

    /**
     * Reads the chunk's pages through {@code stream}, located by its page index.
     *
     * @param offsets      the chunk's offset index
     * @param statistics   the chunk's column index, or null when it has none
     * @param rowGroupRows the row group's row count, which bounds the last page's rows
     * @param file         the file's name, for errors
     */
    static StoredColumnChunk read(
            SeekableInputStream stream,
            ColumnDescriptor column,
            ColumnChunkMetaData chunk,
            OffsetIndex offsets,
            ColumnIndex statistics,
            long rowGroupRows,
            String file)
            throws IOException {
        if (offsets == null || offsets.getPageCount() == 0) {
            throw new ParquetFileException(file, where(chunk) + ": no offset index to locate its pages by");
        }
        long start = chunk.getStartingPos();
        long size = chunk.getTotalSize();
        if (statistics != null && statistics.getNullPages().size() != offsets.getPageCount()) {
            throw new ParquetFileException(
                    file, where(chunk) + ": its column and offset indexes disagree on its pages");
        }
        if (size > Integer.MAX_VALUE) {
            throw new ParquetFileException(file, where(chunk) + ": " + size + " bytes, too many to copy at once");
        }
        byte[] bytes = new byte[(int) size];
        stream.seek(start);
        stream.readFully(bytes);
        PrimitiveType type = column.getPrimitiveType();
        List<StoredPage> pages = new ArrayList<>(offsets.getPageCount());
        long values = 0;
        for (int i = 0; i < offsets.getPageCount(); i++) {
            long at = offsets.getOffset(i) - start;
            int stored = offsets.getCompressedPageSize(i);
            if (at < 0 || at + stored > size) {
                throw new ParquetFileException(file, where(chunk) + ": page " + i + " lies outside the chunk");
            }
            ByteArrayInputStream in = new ByteArrayInputStream(bytes, (int) at, stored);
            PageHeader header;
            try {
                header = Util.readPageHeader(in);
            } catch (IOException e) {
                throw new ParquetFileException(
                        file, where(chunk) + ": page " + i + " has an unreadable header: " + e.getMessage(), e);
            }
            int headerLength = stored - in.available();
            DataPageHeader data = header.getData_page_header();
            if (header.getType() != PageType.DATA_PAGE
                    || data == null
                    || header.getCompressed_page_size() != stored - headerLength
                    || header.getUncompressed_page_size() < 0) {
                throw new ParquetFileException(
                        file, where(chunk) + ": page " + i + " is not the data page its page index locates");
            }
            int pageStart = (int) at + headerLength;
            int pageSize = header.getCompressed_page_size();
            check(header, bytes, pageStart, pageSize, chunk, i, file);
            long firstRow = offsets.getFirstRowIndex(i);
            long nextFirstRow = i + 1 < offsets.getPageCount() ? offsets.getFirstRowIndex(i + 1) : rowGroupRows;
            if (nextFirstRow <= firstRow || nextFirstRow > rowGroupRows) {
                throw new ParquetFileException(file, where(chunk) + ": page " + i + " has no rows by its page index");
            }
            values += data.getNum_values();
            pages.add(new StoredPage(
                    BytesInput.from(bytes, pageStart, pageSize),
                    header.getUncompressed_page_size(),
                    data.getNum_values(),
                    (int) (nextFirstRow - firstRow),
                    statistics == null ? Statistics.noopStats(type) : pageStatistics(type, statistics, i),
                    sizeStatistics(column, statistics, offsets, i),
                    CONVERTER.getEncoding(data.getRepetition_level_encoding()),
                    CONVERTER.getEncoding(data.getDefinition_level_encoding()),
                    CONVERTER.getEncoding(data.getEncoding())));
        }
        if (values != chunk.getValueCount()) {
            throw new ParquetFileException(
                    file,
                    where(chunk) + ": its pages hold " + values + " values, its metadata says "
                            + chunk.getValueCount());
        }
        return new StoredColumnChunk(column, List.copyOf(pages));
    }

    /**
     * Checks the page's bytes against its checksum, or, for a page written without one, that it decompresses to its
     * declared size.
     */
    private static void check(
            PageHeader header,
            byte[] bytes,
            int pageStart,
            int pageSize,
            ColumnChunkMetaData chunk,
            int page,
            String file)
            throws ParquetFileException {
        if (header.isSetCrc()) {
            CRC32 crc = new CRC32();
            crc.update(bytes, pageStart, pageSize);
            if ((int) crc.getValue() != header.getCrc()) {
                throw new ParquetFileException(file, where(chunk) + ": page " + page + " does not match its checksum");
            }
            return;
        }
        try {
            BytesInput decompressed = ArchiveCodecFactory.forReading()
                    .getDecompressor(chunk.getCodec())
                    .decompress(BytesInput.from(bytes, pageStart, pageSize), header.getUncompressed_page_size());
            @SuppressWarnings("deprecation") // the replacement needs an allocator and a release; a heap copy will do
            int decompressedSize = decompressed.toByteArray().length;
            if (decompressedSize != header.getUncompressed_page_size()) {
                throw new IOException("decompressed to another size than its header declares");
            }
        } catch (IOException | RuntimeException e) {
            throw new ParquetFileException(
                    file, where(chunk) + ": page " + page + " cannot be decompressed: " + e.getMessage(), e);
        }
    }

    /** The page's statistics as its column index records them. */
    private static Statistics<?> pageStatistics(PrimitiveType type, ColumnIndex index, int page) {
        Statistics.Builder builder = Statistics.getBuilderForReading(type);
        if (!index.getNullPages().get(page)) {
            builder.withMin(bytesOf(index.getMinValues().get(page)))
                    .withMax(bytesOf(index.getMaxValues().get(page)));
        }
        if (index.getNullCounts() != null) {
            builder.withNumNulls(index.getNullCounts().get(page));
        }
        return builder.build();
    }

    private static byte[] bytesOf(java.nio.ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

    /**
     * The page's size statistics from the page index, or null when it does not record them all (the new chunk then
     * carries none, as a chunk with any page lacking them does).
     */
    private static SizeStatistics sizeStatistics(
            ColumnDescriptor column, ColumnIndex statistics, OffsetIndex offsets, int page) {
        PrimitiveType type = column.getPrimitiveType();
        long unencoded = 0;
        if (type.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY) {
            Optional<Long> recorded;
            try {
                recorded = offsets.getUnencodedByteArrayDataBytes(page);
            } catch (UnsupportedOperationException notKept) {
                return null;
            }
            if (recorded.isEmpty()) {
                return null;
            }
            unencoded = recorded.get();
        }
        List<Long> repetition =
                histogram(column.getMaxRepetitionLevel() > 0, statistics, page, column.getMaxRepetitionLevel(), true);
        List<Long> definition =
                histogram(column.getMaxDefinitionLevel() > 1, statistics, page, column.getMaxDefinitionLevel(), false);
        if (repetition == null || definition == null) {
            return null;
        }
        return new SizeStatistics(type, unencoded, repetition, definition);
    }

    /** A page's level histogram, empty where parquet-java omits it, null when wanted but not recorded. */
    private static List<Long> histogram(
            boolean wanted, ColumnIndex statistics, int page, int maxLevel, boolean repetition) {
        if (!wanted) {
            return new ArrayList<>();
        }
        if (statistics == null) {
            return null;
        }
        List<Long> all;
        try {
            all = repetition ? statistics.getRepetitionLevelHistogram() : statistics.getDefinitionLevelHistogram();
        } catch (UnsupportedOperationException notKept) {
            return null;
        }
        int width = maxLevel + 1;
        if (all == null || all.size() < (page + 1) * width) {
            return null;
        }
        return new ArrayList<>(all.subList(page * width, (page + 1) * width));
    }

    private static String where(ColumnChunkMetaData chunk) {
        return "column " + chunk.getPath().toDotString();
    }
}
