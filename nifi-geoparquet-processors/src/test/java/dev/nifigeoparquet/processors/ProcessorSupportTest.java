package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.H3Cells;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.error.CommitConflictException;
import dev.nifigeoparquet.archive.error.CommittedFileMissingException;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.error.FailureKind;
import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.error.PartitionBusyException;
import dev.nifigeoparquet.archive.error.PublishIncompleteException;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.error.StorageFullException;
import dev.nifigeoparquet.archive.error.StorageUnavailableException;
import dev.nifigeoparquet.processors.testing.TestArchives;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * What the archive processors share: how an engine failure is answered by its kind (retry and yield, failure, failure
 * with advice and yield), and the partitions a FlowFile names.
 */
class ProcessorSupportTest {

    @Test
    void conflictsUnpublishedCommitsAndAStorageThatIsDownAreRetriedAndTheProcessorYields() {
        for (Throwable transientFailure : List.of(
                new CommitConflictException("8428309ffffffff", 3, "another writer"),
                new PartitionBusyException("8428309ffffffff", "t-1"),
                new PublishIncompleteException("8428309ffffffff", new IOException("connection reset")),
                new StorageUnavailableException("S3 could not serve GET (503 SlowDown)", null),
                new InterruptedIOException("Interrupted"),
                new UncheckedIOException(new StorageUnavailableException("connection reset", null)))) {
            ProcessorSupport.Failure failure =
                    ProcessorSupport.Failure.of("Partition x was not changed", transientFailure);
            assertEquals(FailureKind.TRANSIENT, failure.kind(), transientFailure.toString());
            assertTrue(failure.retried(), transientFailure.toString());
            assertTrue(failure.yields(), "the storage or another writer is the trouble: " + transientFailure);
        }
    }

    @Test
    void badInputFailsTheFlowFileAloneAndTheProcessorGoesOn() {
        for (Throwable badInput : List.of(
                new DeltaRejectedException("Delta", "record 0: null key"),
                assertThrows(IllegalArgumentException.class, () -> H3Cells.requireResolution(16)))) {
            ProcessorSupport.Failure failure = ProcessorSupport.Failure.of("Delta cannot be applied", badInput);
            assertEquals(FailureKind.BAD_INPUT, failure.kind(), badInput.toString());
            assertFalse(failure.retried());
            assertFalse(failure.yields(), "the next FlowFile may be fine: " + badInput);
            assertEquals("Delta cannot be applied: " + badInput.getMessage(), failure.reason());
        }
    }

    @Test
    void whatNeedsAnOperatorFailsWithWhatToDoAndTheProcessorYieldsTheUnknownIncluded() {
        for (Throwable operatorAction : List.of(
                new ParquetFileException("part-1.parquet", "corrupt footer: bad thrift"),
                new CommittedFileMissingException("h3_cell=x/part-1.parquet", 4),
                new UncheckedIOException(new ParquetFileException("part-1.parquet", "cannot decode row 3")),
                new AccessDeniedException("/archive/_geoparquet_archive/staging/x", null, "Read-only file system"),
                new StorageFullException("The file system of /archive is full (0 bytes left)", null),
                new IOException("part-1.parquet: cannot write row group 0: No space left on device"),
                new IllegalStateException("a fault of the code"))) {
            ProcessorSupport.Failure failure =
                    ProcessorSupport.Failure.of("Partition x was not changed", operatorAction);
            assertEquals(FailureKind.OPERATOR_ACTION, failure.kind(), operatorAction.toString());
            assertFalse(failure.retried(), "an unknown failure is never retried blindly: " + operatorAction);
            assertTrue(failure.yields(), operatorAction.toString());
            assertTrue(
                    failure.reason().length()
                            > ("Partition x was not changed: " + operatorAction.getMessage()).length(),
                    "the reason says what to do: " + failure.reason());
        }
    }

    @Test
    void thePartitionsAFlowFileNamesAreCanonicalCellsOfTheArchive(@TempDir Path dir) throws IOException {
        GeoParquetArchive archive = TestArchives.create(dir.resolve("archive"), 7);
        String berlin = archive.keyer()
                .cellOf(new GeometryFactory().createPoint(new Coordinate(13.4, 52.5)), archive.sourceCrs());
        String paris = archive.keyer()
                .cellOf(new GeometryFactory().createPoint(new Coordinate(2.35, 48.86)), archive.sourceCrs());
        assertEquals(List.of(berlin, paris), ProcessorSupport.partitions(archive, " " + berlin + ", ," + paris + " "));
        for (String named : new String[] {null, "", " , "}) {
            assertThrows(
                    RejectedInputException.class,
                    () -> ProcessorSupport.partitions(archive, named),
                    String.valueOf(named));
        }
        assertThrows(
                RejectedInputException.class,
                () -> ProcessorSupport.partitions(archive, berlin + ",../etc"),
                "not a cell");
        String coarser = new H3Keyer(5)
                .cellOf(new GeometryFactory().createPoint(new Coordinate(13.4, 52.5)), archive.sourceCrs());
        assertThrows(
                RejectedInputException.class,
                () -> ProcessorSupport.partitions(archive, coarser),
                "another resolution");
        assertEquals(
                "${geoparquet.partitions.touched:replaceEmpty(${h3.cell})}",
                ProcessorSupport.PARTITIONS_DEFAULT,
                "the default flows were built with");
    }
}
