package dev.nifigeoparquet.archive.parquet;

import java.util.List;

/**
 * A row group read for copying into a file of the same schema ({@link GeoParquetFileReader#nextStoredRowGroup}).
 *
 * @param rowCount its rows
 * @param stored   the columns whose pages are copied as they are stored
 * @param rest     the other columns, to be copied value by value; null when every column is stored
 */
public record StoredRowGroup(long rowCount, List<StoredColumnChunk> stored, ColumnarRowGroup rest) {

    public StoredRowGroup {
        stored = List.copyOf(stored);
    }
}
