package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.error.CorruptDataException;
import dev.nifigeoparquet.archive.error.StalePlanException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.NoSuchFileException;

/** What a failure to read or rewrite one partition of a run means, decided by its type for the planner and the writer. */
final class Failures {

    private Failures() {}

    /**
     * The damage that fails the batches needing the partition: corrupt data, or a live file gone without a newer commit
     * to explain it (lost outside the archive). A file gone because another writer moved the partition on since
     * {@code pinnedVersion} is a {@link StalePlanException}, thrown for the run to plan again; any other failure is the
     * storage's, and is thrown as it came to fail the run.
     *
     * @param while_ what the run was doing with the partition's files ("read", "rewritten")
     */
    static CorruptDataException damage(
            GeoParquetArchive archive, String cell, long pinnedVersion, Exception failure, String while_)
            throws IOException {
        Exception cause = failure instanceof UncheckedIOException unchecked ? unchecked.getCause() : failure;
        if (cause instanceof NoSuchFileException missing) {
            if (archive.partitionState(cell).version() != pinnedVersion) {
                StalePlanException stale = new StalePlanException(cell, "a file was superseded while it was " + while_);
                stale.initCause(missing);
                throw stale;
            }
            return new CorruptDataException(
                    missing.getMessage() + " (live, and no newer commit superseded it)", missing);
        }
        if (cause instanceof CorruptDataException corrupt) {
            return corrupt;
        }
        throw Workers.rethrowable(cause);
    }
}
