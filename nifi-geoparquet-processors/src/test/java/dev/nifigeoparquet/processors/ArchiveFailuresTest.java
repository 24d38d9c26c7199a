package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.CorruptDataException;
import dev.nifigeoparquet.archive.format.CommitConflictException;
import dev.nifigeoparquet.archive.format.PartitionRecovery;
import dev.nifigeoparquet.archive.format.PublishIncompleteException;
import dev.nifigeoparquet.archive.keying.H3Cells;
import dev.nifigeoparquet.archive.ops.DeltaRejectedException;
import dev.nifigeoparquet.archive.parquet.ParquetFileException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.FileSystemException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which engine failures send a FlowFile to retry (the same input can succeed later) and which to failure: by type. */
class ArchiveFailuresTest {

    @Test
    void conflictsUnpublishedCommitsAndStorageFailuresAreRetried() {
        assertTrue(ArchiveFailures.isTransient(new CommitConflictException("8428309ffffffff", 3, "another writer")), "lost commit race");
        assertTrue(ArchiveFailures.isTransient(new PartitionRecovery.PartitionBusyException("8428309ffffffff", "t-1")), "busy partition");
        assertTrue(ArchiveFailures.isTransient(new PublishIncompleteException("8428309ffffffff", new IOException("connection reset"))),
                "committed, publishing left to the next writer");
        // How the Parquet writer reports a full disk or a read-only root under it: the storage's failure, not the file's.
        assertTrue(ArchiveFailures.isTransient(new IOException("part-1.parquet: cannot write row group 0: No space left on device",
                new IOException("No space left on device"))), "disk full");
        assertTrue(ArchiveFailures.isTransient(new FileSystemException("/archive/_geoparquet_archive/staging/x", null,
                "Read-only file system")), "read-only root");
        assertTrue(ArchiveFailures.isTransient(new InterruptedIOException("Interrupted")), "stopped while waiting");
        assertTrue(ArchiveFailures.isTransient(new UncheckedIOException(new IOException("connection reset"))), "storage, unchecked");
    }

    @Test
    void rejectedInputAndCorruptDataFailForGood() {
        assertFalse(ArchiveFailures.isTransient(new ParquetFileException("part-1.parquet", "corrupt footer: bad thrift")), "corrupt file");
        assertFalse(ArchiveFailures.isTransient(new PartitionRecovery.CommittedFileMissingException("h3_cell=x/part-1.parquet", 4)),
                "a committed file gone outside the protocol");
        assertFalse(ArchiveFailures.isTransient(new CorruptDataException("a live file is missing")), "corrupt data");
        assertFalse(ArchiveFailures.isTransient(new UncheckedIOException(new ParquetFileException("part-1.parquet", "cannot decode row 3"))),
                "corrupt file, unchecked");
        assertFalse(ArchiveFailures.isTransient(new DeltaRejectedException("Delta", "record 0: null key")), "rejected delta");
        assertFalse(ArchiveFailures.isTransient(assertThrows(IllegalArgumentException.class, () -> H3Cells.requireResolution(16))),
                "rejected setting");
        assertFalse(ArchiveFailures.isTransient(new IllegalStateException("a fault of the code")), "a fault of the code");
    }
}
