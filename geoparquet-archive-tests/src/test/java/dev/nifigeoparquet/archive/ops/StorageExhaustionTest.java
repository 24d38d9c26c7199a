package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.edited;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.withNewKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionRecovery;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.LimitedStorage;
import dev.nifigeoparquet.archive.testing.TestFiles;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A disk that fills up part-way through a write, and an archive root that cannot be written at all: the operation
 * fails with an error that says so, and the archive is unchanged.
 */
class StorageExhaustionTest {

    @TempDir
    Path temp;

    /**
     * The disk is simulated: a storage wrapper accepts a number of bytes over every staged data file and commit entry
     * and fails the next write with "No space left on device", as Linux reports ENOSPC. An upsert is run with every
     * capacity from nothing to just short of what it needs (64 bytes short: commit entries carry timestamps whose
     * length varies by a few bytes), in steps, so the disk fills inside a key-index file, a data file, its footer, and
     * the commit entry.
     */
    @Test
    void aDiskThatFillsUpPartWayThroughAnUpsertFailsItAndLeavesTheArchiveUnchanged() throws IOException {
        ParcelArchive baseline = ParcelArchive.create(temp.resolve("baseline"), 150);
        String cell = baseline.largestCell();
        List<DeltaRow> delta = upsertDelta(baseline, cell);
        Map<String, Double> oldAreas = baseline.readAreas();

        Path healthy = TestFiles.copyTree(baseline.root, temp.resolve("healthy"));
        LimitedStorage unlimited = LimitedStorage.diskFull(new LocalArchiveStorage(healthy), Long.MAX_VALUE);
        ParcelArchive.apply(GeoParquetArchive.open(unlimited), cell, WriteMode.UPSERT, delta);
        long needed = unlimited.written();
        Map<String, Double> newAreas = areas(healthy);
        assertNotEquals(oldAreas, newAreas);

        List<Long> capacities = new ArrayList<>(List.of(0L, 1L, needed - 64));
        for (int step = 1; step < 16; step++) {
            capacities.add(needed * step / 16);
        }
        int failed = 0;
        for (long capacity : capacities) {
            Path root = TestFiles.copyTree(baseline.root, temp.resolve("full-" + capacity));
            Map<String, String> oldFiles = dataFiles(root);
            LimitedStorage full = LimitedStorage.diskFull(new LocalArchiveStorage(root), capacity);
            IOException error = assertThrows(
                    IOException.class,
                    () -> ParcelArchive.apply(GeoParquetArchive.open(full), cell, WriteMode.UPSERT, delta),
                    "an upsert needing " + needed + " bytes on a disk with " + capacity);
            failed++;
            String where = "disk full after " + capacity + " of " + needed + " bytes";
            assertTrue(
                    error.getMessage().contains(LimitedStorage.NO_SPACE),
                    where + ": the error says why: " + error.getMessage());
            assertEquals(oldAreas, areas(root), where + ": a plain reader sees the old archive");
            assertEquals(oldFiles, dataFiles(root), where + ": no data file was written, changed or removed");
            assertEquals(
                    baseline.archive.partitionState(cell),
                    GeoParquetArchive.open(new LocalArchiveStorage(root)).partitionState(cell),
                    where + ": the partition's committed state is unchanged");

            // Space freed: the next writer clears the partial staged file (after the lease) and the retry lands once.
            LocalArchiveStorage freed = new LocalArchiveStorage(root);
            new PartitionRecovery(
                            freed, GeoParquetArchive.open(freed).descriptor().protocol())
                    .recover(cell, Instant.now().plus(Duration.ofDays(1)));
            assertEquals(
                    Set.of(),
                    TestFiles.names(root.resolve(ArchiveLayout.stagingDirectory(cell))),
                    where + ": staging cleared");
            ParcelArchive.apply(GeoParquetArchive.open(freed), cell, WriteMode.UPSERT, delta);
            assertEquals(newAreas, areas(root), where + ": after space is freed the retried upsert lands once");
        }
        System.out.println("disk full: " + failed + " capacities between 0 and " + (needed - 64) + " of the " + needed
                + " bytes an upsert writes; each failed naming '" + LimitedStorage.NO_SPACE
                + "' and left the archive unchanged");
    }

    /**
     * A read-only root. Where POSIX permissions stop this process (a non-root user), the archive's directories are made
     * read-only for real; where they do not (tests running as root, whom permissions do not stop), a storage wrapper
     * refuses every change with the AccessDeniedException the JDK throws for EACCES. The test says which one it used.
     */
    @Test
    void aReadOnlyRootFailsTheWriteWithTheReasonAndLeavesTheArchiveUnchanged() throws IOException {
        ParcelArchive baseline = ParcelArchive.create(temp.resolve("baseline"), 150);
        String cell = baseline.largestCell();
        List<DeltaRow> delta = upsertDelta(baseline, cell);
        Map<String, String> before = allFiles(baseline.root);

        boolean permissionsEnforced = makeReadOnly(baseline.root);
        ArchiveStorage storage = permissionsEnforced
                ? new LocalArchiveStorage(baseline.root)
                : LimitedStorage.readOnly(new LocalArchiveStorage(baseline.root));
        try {
            IOException error = assertThrows(
                    IOException.class,
                    () -> ParcelArchive.apply(GeoParquetArchive.open(storage), cell, WriteMode.UPSERT, delta));
            Throwable cause = error;
            while (cause != null && !(cause instanceof FileSystemException)) {
                cause = cause.getCause();
            }
            assertTrue(cause instanceof AccessDeniedException, "the cause is the refused write: " + error);
            assertTrue(
                    error.getMessage().contains(baseline.root.toString()),
                    "the error names the path: " + error.getMessage());
            System.out.println("read-only root ("
                    + (permissionsEnforced
                            ? "POSIX permissions r-x"
                            : "running as root: permissions do not stop writes, simulated by a storage wrapper")
                    + "): " + error.getMessage());
        } finally {
            makeWritable(baseline.root);
        }
        assertEquals(before, allFiles(baseline.root), "not one file of the archive appeared, changed or vanished");
    }

    private static List<DeltaRow> upsertDelta(ParcelArchive archive, String cell) {
        List<Group> rows = archive.initial.get(cell);
        List<DeltaRow> delta = new ArrayList<>();
        for (int i = 0; i < Math.min(5, rows.size()); i++) {
            delta.add(DeltaRow.upsert(edited(rows.get(i), 500.0 + i, BASE_TIME.plusSeconds(5))));
        }
        for (int i = 0; i < 20; i++) {
            delta.add(DeltaRow.upsert(withNewKey(rows.get(i % rows.size()), "full-" + i)));
        }
        return delta;
    }

    /** Whether permissions stop this process: a probe file in a read-only directory must fail. */
    private static boolean makeReadOnly(Path root) throws IOException {
        Set<PosixFilePermission> readOnlyDir = PosixFilePermissions.fromString("r-xr-xr-x");
        Set<PosixFilePermission> readOnlyFile = PosixFilePermissions.fromString("r--r--r--");
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Files.setPosixFilePermissions(path, Files.isDirectory(path) ? readOnlyDir : readOnlyFile);
            }
        }
        Path probe = root.resolve("probe");
        try {
            Files.createFile(probe);
        } catch (AccessDeniedException enforced) {
            return true;
        }
        Files.setPosixFilePermissions(root, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.delete(probe);
        Files.setPosixFilePermissions(root, readOnlyDir);
        return false;
    }

    private static void makeWritable(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Files.setPosixFilePermissions(
                        path, PosixFilePermissions.fromString(Files.isDirectory(path) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
    }

    private static Map<String, Double> areas(Path root) {
        return ParcelArchiveReader.areas(root);
    }

    /** Every data file: path -> content hash and modification time. */
    private static Map<String, String> dataFiles(Path root) throws IOException {
        return ParcelArchive.fingerprints(root);
    }

    /** Every file under the root (commit entries, index, staging included): path -> size and modification time. */
    private static Map<String, String> allFiles(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.naturalOrder())::iterator) {
                files.put(
                        root.relativize(path).toString(),
                        Files.isDirectory(path)
                                ? "dir"
                                : Files.size(path) + "@"
                                        + Files.getLastModifiedTime(path).toMillis());
            }
        }
        return files;
    }

    /** DuckDB's view of a parcel archive directory. */
    static final class ParcelArchiveReader {
        static Map<String, Double> areas(Path root) {
            Map<String, Double> areas = new TreeMap<>();
            for (List<Object> row : DuckDb.query(
                    "SELECT parcel_id, area_m2 FROM read_parquet(?, hive_partitioning = true)",
                    root + "/*/*.parquet")) {
                if (areas.put((String) row.get(0), ((Number) row.get(1)).doubleValue()) != null) {
                    throw new AssertionError("duplicate key " + row.get(0) + " in " + root);
                }
            }
            return areas;
        }
    }
}
