package dev.nifigeoparquet.archive.parquet;

/** Values parquet-java's file writer asks for that the archive does not configure. */
final class ParquetWriterDefaults {

    /** Only used to align row groups to HDFS blocks; local and object-store files have none. */
    static final long ROW_GROUP_BYTES_HINT = 128L * 1024 * 1024;

    static final int NO_PADDING = 0;

    private ParquetWriterDefaults() {}
}
