package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.format.CommitConflictException;
import dev.nifigeoparquet.archive.format.PartitionRecovery;
import dev.nifigeoparquet.archive.DeltaRejectedException;
import dev.nifigeoparquet.archive.parquet.ParquetFileException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.FileSystemException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which engine failures send a FlowFile to retry (the same input can succeed later) and which to failure. */
class ArchiveFailuresTest {

    @Test
    void storageRefusalsAreRetriedEvenWhenTheyStopAParquetWrite() {
        assertTrue(ArchiveFailures.isTransient(new ParquetFileException("part-1.parquet", "cannot write row group 0: No space left on device",
                new IOException("No space left on device"))), "disk full");
        assertTrue(ArchiveFailures.isTransient(new ParquetFileException("part-1.parquet", "cannot create",
                new FileSystemException("/archive/_geoparquet_archive/staging/x", null, "Read-only file system"))), "read-only root");
        assertTrue(ArchiveFailures.isTransient(new CommitConflictException("8428309ffffffff", 3, "another writer")), "lost commit race");
        assertTrue(ArchiveFailures.isTransient(new IOException("connection reset")), "plain storage I/O error");
    }

    @Test
    void damagedFilesAndRejectedDeltasFailForGood() {
        assertFalse(ArchiveFailures.isTransient(new ParquetFileException("part-1.parquet", "corrupt footer: bad thrift")), "corrupt file");
        assertFalse(ArchiveFailures.isTransient(new PartitionRecovery.CommittedFileMissingException("h3_cell=x/part-1.parquet", 4)),
                "a committed file gone outside the protocol");
        assertFalse(ArchiveFailures.isTransient(new DeltaRejectedException("Delta", "record 0: null key")), "rejected delta");
    }
}
