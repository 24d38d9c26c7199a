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

    /** The messages along the cause chain, outermost first: parquet-java's own ones rarely carry the reason. */
    public static String reasons(Throwable error) {
        StringBuilder reasons = new StringBuilder(String.valueOf(error.getMessage()));
        for (Throwable cause = error.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause.getMessage() != null && !reasons.toString().contains(cause.getMessage())) {
                reasons.append(": ").append(cause.getMessage());
            }
        }
        return reasons.toString();
    }
}
