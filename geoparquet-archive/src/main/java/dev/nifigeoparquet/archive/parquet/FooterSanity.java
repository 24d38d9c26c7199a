package dev.nifigeoparquet.archive.parquet;

import dev.nifigeoparquet.archive.error.ParquetFileException;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;

/**
 * Checks the numbers a footer declares before anything is read or allocated from them. parquet-java reads every
 * column chunk of a row group into buffers of the chunk's declared size, so a chunk must lie inside the file; the
 * other counts must agree with each other as every Parquet writer produces them.
 *
 * <p>A row group of 0 rows is never read ({@link GeoParquetFileReader} leaves it out), so only its counts are
 * checked: pyarrow writes such a row group with a data page offset of 0 and a dictionary page of no entries, which
 * would fail the position check although DuckDB and pyarrow read the file.
 */
final class FooterSanity {

    private static final int MAGIC_BYTES = 4;

    private FooterSanity() {}

    /**
     * @param dataEnd where the footer starts: no column chunk may reach past it
     * @throws ParquetFileException naming the file, the row group and the column that declare the impossible
     */
    static void check(ParquetMetadata metadata, long dataEnd, String name) throws ParquetFileException {
        for (int i = 0; i < metadata.getBlocks().size(); i++) {
            checkRowGroup(metadata.getBlocks().get(i), i, dataEnd, name);
        }
    }

    private static void checkRowGroup(BlockMetaData block, int index, long dataEnd, String name)
            throws ParquetFileException {
        String where = "row group " + index;
        long rows = block.getRowCount();
        if (rows < 0) {
            throw new ParquetFileException(name, where + " declares " + rows + " rows");
        }
        long compressed = 0;
        long uncompressed = 0;
        if (rows == 0) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                checkCounts(chunk, where + ", column " + chunk.getPath(), rows, name);
            }
            if (block.getTotalByteSize() < 0) {
                throw new ParquetFileException(
                        name, where + " declares " + block.getTotalByteSize() + " bytes: corrupt footer");
            }
            return;
        }
        for (ColumnChunkMetaData chunk : block.getColumns()) {
            checkChunk(chunk, where + ", column " + chunk.getPath(), rows, dataEnd, name);
            compressed += chunk.getTotalSize();
            uncompressed += chunk.getTotalUncompressedSize();
        }
        // Writers record the uncompressed sum (parquet-java) or, in some versions, the compressed one (Arrow).
        long declared = block.getTotalByteSize();
        if (declared < 0 || declared > Math.max(compressed, uncompressed)) {
            throw new ParquetFileException(
                    name,
                    where + " declares " + declared + " bytes, but its column chunks hold " + compressed + " ("
                            + uncompressed + " uncompressed): corrupt footer");
        }
    }

    private static void checkChunk(ColumnChunkMetaData chunk, String where, long rows, long dataEnd, String name)
            throws ParquetFileException {
        long start = chunk.getStartingPos();
        long size = chunk.getTotalSize();
        if (start < MAGIC_BYTES || size < 0 || start + size > dataEnd) {
            throw new ParquetFileException(
                    name,
                    where + " declares bytes " + start + ".." + (start + size) + " outside the data (ends at " + dataEnd
                            + "): truncated or corrupt");
        }
        if (!ArchiveCodecFactory.SUPPORTED.contains(chunk.getCodec())) {
            throw new ParquetFileException(
                    name,
                    where + " uses unsupported codec " + chunk.getCodec() + "; supported: "
                            + ArchiveCodecFactory.SUPPORTED);
        }
        checkCounts(chunk, where, rows, name);
    }

    private static void checkCounts(ColumnChunkMetaData chunk, String where, long rows, String name)
            throws ParquetFileException {
        if (chunk.getTotalSize() < 0 || chunk.getValueCount() < 0) {
            throw new ParquetFileException(
                    name,
                    where + " declares " + chunk.getTotalSize() + " bytes and " + chunk.getValueCount()
                            + " values: corrupt footer");
        }
        // Every row has at least one entry (a value or a null) in every column.
        if (chunk.getValueCount() < rows) {
            throw new ParquetFileException(
                    name,
                    where + " holds " + chunk.getValueCount() + " values, but its row group declares " + rows
                            + " rows: corrupt footer");
        }
        if (chunk.getTotalUncompressedSize() < 0) {
            throw new ParquetFileException(
                    name, where + " declares " + chunk.getTotalUncompressedSize() + " uncompressed bytes");
        }
    }
}
