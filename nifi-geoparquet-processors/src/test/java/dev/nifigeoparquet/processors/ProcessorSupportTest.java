package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.CorruptDataException;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.format.CommitConflictException;
import dev.nifigeoparquet.archive.format.PartitionRecovery;
import dev.nifigeoparquet.archive.format.PublishIncompleteException;
import dev.nifigeoparquet.archive.keying.H3Cells;
import dev.nifigeoparquet.archive.keying.H3Keyer;
import dev.nifigeoparquet.archive.parquet.ParquetFileException;
import dev.nifigeoparquet.processors.testing.TestArchives;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;

/** What the archive processors share: which engine failures send a FlowFile to retry (by type), the partitions a FlowFile names. */
class ProcessorSupportTest {

    @Test
    void conflictsUnpublishedCommitsAndStorageFailuresAreRetried() {
        assertTrue(
                ProcessorSupport.isTransient(new CommitConflictException("8428309ffffffff", 3, "another writer")),
                "lost commit race");
        assertTrue(
                ProcessorSupport.isTransient(new PartitionRecovery.PartitionBusyException("8428309ffffffff", "t-1")),
                "busy partition");
        assertTrue(
                ProcessorSupport.isTransient(
                        new PublishIncompleteException("8428309ffffffff", new IOException("connection reset"))),
                "committed, publishing left to the next writer");
        // How the Parquet writer reports a full disk or a read-only root under it: the storage's failure, not the
        // file's.
        assertTrue(
                ProcessorSupport.isTransient(new IOException(
                        "part-1.parquet: cannot write row group 0: No space left on device",
                        new IOException("No space left on device"))),
                "disk full");
        assertTrue(
                ProcessorSupport.isTransient(new FileSystemException(
                        "/archive/_geoparquet_archive/staging/x", null, "Read-only file system")),
                "read-only root");
        assertTrue(ProcessorSupport.isTransient(new InterruptedIOException("Interrupted")), "stopped while waiting");
        assertTrue(
                ProcessorSupport.isTransient(new UncheckedIOException(new IOException("connection reset"))),
                "storage, unchecked");
    }

    @Test
    void rejectedInputAndCorruptDataFailForGood() {
        assertFalse(
                ProcessorSupport.isTransient(new ParquetFileException("part-1.parquet", "corrupt footer: bad thrift")),
                "corrupt file");
        assertFalse(
                ProcessorSupport.isTransient(
                        new PartitionRecovery.CommittedFileMissingException("h3_cell=x/part-1.parquet", 4)),
                "a committed file gone outside the protocol");
        assertFalse(ProcessorSupport.isTransient(new CorruptDataException("a live file is missing")), "corrupt data");
        assertFalse(
                ProcessorSupport.isTransient(
                        new UncheckedIOException(new ParquetFileException("part-1.parquet", "cannot decode row 3"))),
                "corrupt file, unchecked");
        assertFalse(
                ProcessorSupport.isTransient(new DeltaRejectedException("Delta", "record 0: null key")),
                "rejected delta");
        assertFalse(
                ProcessorSupport.isTransient(
                        assertThrows(IllegalArgumentException.class, () -> H3Cells.requireResolution(16))),
                "rejected setting");
        assertFalse(
                ProcessorSupport.isTransient(new IllegalStateException("a fault of the code")), "a fault of the code");
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
