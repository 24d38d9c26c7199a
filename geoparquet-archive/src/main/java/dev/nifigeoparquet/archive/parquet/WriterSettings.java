package dev.nifigeoparquet.archive.parquet;

import dev.nifigeoparquet.archive.error.RejectedInputException;
import java.util.Objects;
import java.util.Set;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * How the archive writes Parquet files. None of these settings is recorded in a file in a way a later
 * rewrite could recover (the ZSTD level in particular is not stored by Parquet), so they are configuration.
 *
 * @param codec            compression of every column chunk. Defaults to {@link #DEFAULT_CODEC}.
 * @param zstdLevel        ZSTD level, 1 (fastest) to 22 (smallest); only used when {@code codec} is ZSTD.
 *                         Defaults to {@link #DEFAULT_ZSTD_LEVEL}.
 * @param rowGroupRowCount rows per row group; every row group but the last holds exactly this many.
 *                         Defaults to {@link #DEFAULT_ROW_GROUP_ROW_COUNT}.
 * @param targetFileBytes  size compaction aims for when it splits or merges a partition's files.
 *                         Defaults to {@link #DEFAULT_TARGET_FILE_BYTES}.
 */
public record WriterSettings(CompressionCodecName codec, int zstdLevel, int rowGroupRowCount, long targetFileBytes) {

    /** ZSTD: the best size for its speed among the codecs every reader supports. */
    public static final CompressionCodecName DEFAULT_CODEC = CompressionCodecName.ZSTD;
    /** ZSTD's own default level. */
    public static final int DEFAULT_ZSTD_LEVEL = 3;

    public static final int DEFAULT_ROW_GROUP_ROW_COUNT = 100_000;
    /** 128 MiB. */
    public static final long DEFAULT_TARGET_FILE_BYTES = 128L * 1024 * 1024;

    public static final int MIN_ZSTD_LEVEL = 1;
    public static final int MAX_ZSTD_LEVEL = 22;

    /** The codecs {@link ArchiveCodecFactory} can write and read. */
    public static final Set<CompressionCodecName> SUPPORTED_CODECS = ArchiveCodecFactory.SUPPORTED;

    public WriterSettings {
        Objects.requireNonNull(codec, "codec");
        if (!SUPPORTED_CODECS.contains(codec)) {
            throw new RejectedInputException("Unsupported codec " + codec + "; supported: " + SUPPORTED_CODECS);
        }
        if (zstdLevel < MIN_ZSTD_LEVEL || zstdLevel > MAX_ZSTD_LEVEL) {
            throw new RejectedInputException(
                    "ZSTD level " + zstdLevel + " is outside " + MIN_ZSTD_LEVEL + ".." + MAX_ZSTD_LEVEL);
        }
        if (rowGroupRowCount < 1) {
            throw new RejectedInputException("Row group row count must be positive, was " + rowGroupRowCount);
        }
        if (targetFileBytes < 1) {
            throw new RejectedInputException("Target file size must be positive, was " + targetFileBytes + " bytes");
        }
    }

    public static WriterSettings defaults() {
        return new WriterSettings(
                DEFAULT_CODEC, DEFAULT_ZSTD_LEVEL, DEFAULT_ROW_GROUP_ROW_COUNT, DEFAULT_TARGET_FILE_BYTES);
    }

    public WriterSettings withCodec(CompressionCodecName newCodec) {
        return new WriterSettings(newCodec, zstdLevel, rowGroupRowCount, targetFileBytes);
    }

    public WriterSettings withZstdLevel(int level) {
        return new WriterSettings(codec, level, rowGroupRowCount, targetFileBytes);
    }

    public WriterSettings withRowGroupRowCountLimit(int rows) {
        return new WriterSettings(codec, zstdLevel, rows, targetFileBytes);
    }

    public WriterSettings withTargetFileBytes(long bytes) {
        return new WriterSettings(codec, zstdLevel, rowGroupRowCount, bytes);
    }
}
