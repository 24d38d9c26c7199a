package dev.nifigeoparquet.archive.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorageAccess;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One closed classification of every failure: transient ones are retried, bad input is refused, and everything else,
 * the unknown included, needs an operator, with advice. Where the engine itself raises a failure, it is provoked on a
 * real archive rather than constructed.
 */
class FailureKindTest {

    @TempDir
    Path temp;

    @Test
    void whatGoesAwayByItselfIsTransient() {
        for (Throwable failure : List.of(
                new CommitConflictException("851f8343fffffff", 3, "lost the race"),
                new StalePlanException("851f8343fffffff", "moved on"),
                new PublishIncompleteException("851f8343fffffff", new IOException("link failed")),
                new CommitStateUnknownException("decision", new IOException("timeout")),
                new StorageUnavailableException("S3 503 SlowDown", null),
                new LeaseUnavailableException("sweep under way elsewhere"),
                new InterruptedIOException("stopping"),
                new UncheckedIOException(new CommitConflictException("851f8343fffffff", 3, null)))) {
            assertEquals(FailureKind.TRANSIENT, FailureKind.of(failure), failure.toString());
            assertNull(FailureKind.adviceFor(failure), failure.toString());
        }
    }

    @Test
    void inputTheArchiveRefusesIsBadInput() {
        for (Throwable failure : List.of(
                new DeltaRejectedException("Delta", "record 3: key is null"),
                new RejectedInputException("Partitions evaluated to no cell"))) {
            assertEquals(FailureKind.BAD_INPUT, FailureKind.of(failure), failure.toString());
        }
    }

    @Test
    void everythingElseNeedsAnOperatorWithAdviceTheUnknownIncluded() throws Exception {
        Path root = temp.resolve("archive");
        LocalArchiveStorage storage = new LocalArchiveStorage(root);
        ArchiveCreator.create(
                storage, SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "parcels"), Clock.systemUTC());
        String cell = "851f8343fffffff";
        // Metadata damaged outside the protocol, and metadata of a newer format, as a reader meets them.
        Files.createDirectories(root.resolve(ArchiveLayout.logDirectory(cell)));
        Files.writeString(root.resolve(ArchiveLayout.logEntry(cell, 1)), "{\"formatVersion\": 1, \"cell\": ");
        ArchiveFormatException corrupt =
                assertThrows(ArchiveFormatException.class, () -> new PartitionLog(storage, cell).latest());
        String newerCell = "851f8edbfffffff";
        Files.createDirectories(root.resolve(ArchiveLayout.logDirectory(newerCell)));
        Files.writeString(root.resolve(ArchiveLayout.logEntry(newerCell, 1)), "{\"formatVersion\": 99}");
        UnsupportedFormatVersionException newer = assertThrows(
                UnsupportedFormatVersionException.class, () -> new PartitionLog(storage, newerCell).latest());
        ArchiveNotFoundException missing = assertThrows(
                ArchiveNotFoundException.class,
                () -> GeoParquetArchive.open(new LocalArchiveStorage(temp.resolve("nothing-here"))));

        Map<Throwable, String> advised = Map.of(
                corrupt,
                "restore it from a backup",
                newer,
                "Upgrade the bundle",
                missing,
                "adopt",
                new CorruptDataException("part-1.parquet is not Parquet"),
                "restore it",
                new AccessDeniedException("/data/archive/h3_cell=851f8343fffffff"),
                "read and write access",
                new StorageAccessDeniedException("S3 refused PUT (403 AccessDenied)", null),
                "bucket's policy",
                new StorageFullException("full", null),
                "Free space",
                new ArchivedObjectException("s3://b/p", "h3_cell=8/part-1.parquet", "GLACIER", "is not restored"),
                "RestoreObject",
                new IOException("an I/O failure of no known kind"),
                "stack trace",
                new IllegalStateException("a fault of the code"),
                "stack trace");
        advised.forEach((failure, advice) -> {
            assertEquals(FailureKind.OPERATOR_ACTION, FailureKind.of(failure), failure.toString());
            String text = FailureKind.adviceFor(failure);
            assertNotNull(text, failure.toString());
            assertTrue(text.contains(advice), failure + ": " + text);
        });
    }

    @Test
    void aWriteThatFailsOnAFullFileSystemIsAFullDiskWhateverTheMessage() {
        IOException enospc = new IOException("No space left on device");
        LocalArchiveStorageProbe full = new LocalArchiveStorageProbe(temp, 4096);
        IOException seen = full.classify(enospc);
        assertTrue(seen instanceof StorageFullException, seen.toString());
        assertEquals(FailureKind.OPERATOR_ACTION, FailureKind.of(seen));
        assertTrue(seen.getMessage().contains("4096 bytes left"), seen.getMessage());

        LocalArchiveStorageProbe roomy = new LocalArchiveStorageProbe(temp, 10L << 30);
        IOException other = new IOException("Input/output error");
        assertEquals(other, roomy.classify(other), "with room left, a failure is not taken for a full disk");
    }

    /** A local storage whose file system reports a given room left. */
    private static final class LocalArchiveStorageProbe {
        private final LocalArchiveStorage storage;

        LocalArchiveStorageProbe(Path root, long usable) {
            this.storage = LocalArchiveStorageAccess.withUsableSpace(root, usable);
        }

        IOException classify(IOException failure) {
            return LocalArchiveStorageAccess.whenFull(storage, failure);
        }
    }
}
