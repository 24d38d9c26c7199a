package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.format.PartitionRecovery;
import dev.nifigeoparquet.archive.parquet.ParquetFileException;

import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;

/** Tells a damaged partition (retrying cannot help) from a failing storage (it may). */
final class Failures {

    private Failures() {
    }

    /**
     * Whether the failure says the archive's data is damaged: a data file that cannot be read as Parquet, or one that
     * its commit lists but that is neither published nor staged. A refusal of the storage itself (a full disk, a file
     * system error) surfacing while a file was read is not: the same work can succeed once it clears.
     */
    static boolean isDamagedData(Throwable failure) {
        boolean damaged = false;
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof FileSystemException && !(cause instanceof NoSuchFileException)
                    || String.valueOf(cause.getMessage()).contains("No space left on device")) {
                return false;
            }
            damaged |= cause instanceof ParquetFileException || cause instanceof PartitionRecovery.CommittedFileMissingException
                    || cause instanceof NoSuchFileException;
        }
        return damaged;
    }
}
