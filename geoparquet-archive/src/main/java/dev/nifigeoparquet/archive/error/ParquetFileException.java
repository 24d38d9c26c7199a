package dev.nifigeoparquet.archive.error;

/**
 * A Parquet file whose bytes cannot be read, or rows that cannot be encoded into one; the message always starts with
 * the file's name. Never a failure of the storage underneath: the reader and writer report those as they came.
 *
 * <p>Corrupt data, because the Parquet files the engine reads are the archive's own. A file given as input (a delta, a
 * template) is not: whoever opens one rejects the input instead ({@link #asRejectedInput}).
 */
public final class ParquetFileException extends CorruptDataException {

    public ParquetFileException(String file, String reason) {
        super(file + ": " + reason);
    }

    public ParquetFileException(String file, String reason, Throwable cause) {
        super(file + ": " + reason, cause);
    }

    /** This failure as the refusal of the input file it concerns, for callers that opened a file they were given. */
    public RejectedInputException asRejectedInput() {
        return new RejectedInputException(getMessage(), this);
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
