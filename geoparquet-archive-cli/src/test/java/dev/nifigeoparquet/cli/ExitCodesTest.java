package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nifigeoparquet.archive.cells.H3Cells;
import dev.nifigeoparquet.archive.error.ArchiveNotFoundException;
import dev.nifigeoparquet.archive.error.CommitConflictException;
import dev.nifigeoparquet.archive.error.CorruptDataException;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.error.PublishIncompleteException;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** The exit code of a failure follows its type: input the user gave is a usage error, everything else a failed operation. */
class ExitCodesTest {

    @Test
    void inputTheUserGaveIsAUsageError() {
        assertEquals(
                ExitCodes.USAGE,
                GeoParquetArchiveCli.exitCodeOf(new InputException("--min-files must be at least 1, was 0")));
        assertEquals(
                ExitCodes.USAGE,
                GeoParquetArchiveCli.exitCodeOf(new RejectedInputException("The key column 'nope' is not a column")));
        assertEquals(
                ExitCodes.USAGE,
                GeoParquetArchiveCli.exitCodeOf(new DeltaRejectedException("delta", "record 3: no geometry")));
        assertEquals(
                ExitCodes.USAGE,
                GeoParquetArchiveCli.exitCodeOf(
                        assertThrows(RejectedInputException.class, () -> H3Cells.requireResolution(16))));
        assertEquals(
                ExitCodes.USAGE,
                GeoParquetArchiveCli.exitCodeOf(assertThrows(
                        RejectedInputException.class,
                        () -> WriterSettings.defaults().withZstdLevel(23))),
                "init --zstd-level 23");
        assertEquals(ExitCodes.USAGE, GeoParquetArchiveCli.exitCodeOf(new ArchiveNotFoundException("/data/none")));
        assertEquals(
                ExitCodes.USAGE,
                GeoParquetArchiveCli.exitCodeOf(
                        new ParquetFileException("delta.parquet", "no Parquet magic at the end").asRejectedInput()));
    }

    @Test
    void anInvariantOfTheEngineIsAFailedOperationNotAUsageError() {
        assertEquals(
                ExitCodes.CHECK_FAILED,
                GeoParquetArchiveCli.exitCodeOf(new IllegalArgumentException(
                        "Partition 85283473fffffff has no live files [part-1.parquet] to remove")));
        assertEquals(ExitCodes.CHECK_FAILED, GeoParquetArchiveCli.exitCodeOf(new IllegalStateException("not reached")));
    }

    @Test
    void theArchiveAndTheStorageFailOperations() {
        assertEquals(
                ExitCodes.CHECK_FAILED,
                GeoParquetArchiveCli.exitCodeOf(new ParquetFileException("part-1.parquet", "corrupt footer")));
        assertEquals(
                ExitCodes.CHECK_FAILED,
                GeoParquetArchiveCli.exitCodeOf(new CorruptDataException("a live file is missing")));
        assertEquals(
                ExitCodes.CHECK_FAILED,
                GeoParquetArchiveCli.exitCodeOf(new CommitConflictException("85283473fffffff", 4, null)));
        assertEquals(
                ExitCodes.CHECK_FAILED,
                GeoParquetArchiveCli.exitCodeOf(
                        new PublishIncompleteException("85283473fffffff", new IOException("No space left on device"))));
        assertEquals(
                ExitCodes.CHECK_FAILED, GeoParquetArchiveCli.exitCodeOf(new IOException("No space left on device")));
    }
}
