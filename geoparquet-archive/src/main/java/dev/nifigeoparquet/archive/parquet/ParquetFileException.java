package dev.nifigeoparquet.archive.parquet;

import java.io.IOException;

/** A Parquet file that cannot be read or written; the message always starts with the file's name. */
public final class ParquetFileException extends IOException {

    public ParquetFileException(String file, String reason) {
        super(file + ": " + reason);
    }

    public ParquetFileException(String file, String reason, Throwable cause) {
        super(file + ": " + reason, cause);
    }
}
