package dev.nifigeoparquet.archive.compaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.commit.PartitionRecovery;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage.Fault;
import dev.nifigeoparquet.archive.testing.FaultPoints;
import dev.nifigeoparquet.archive.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fails every storage call of a compaction in turn (opening the archive, recovery, reading the inputs, staging,
 * the commit, publishing, deleting the superseded files), with each kind of fault. Reopening then shows exactly
 * the ten old files or the one new file with the same rows; recovery after the writer lease leaves nothing behind;
 * and running the compaction again lands it exactly once.
 */
class CompactionFaultTest {

    /** Storage calls sampled besides the commit points (the heavy profile runs every call with every fault). */
    private static final int SPREAD = 16;

    /** Now: staged objects carry real modification times, which the writer lease is measured against. */
    private final Instant start = Instant.now();

    private static final int FILES = 10;

    @TempDir
    Path temp;

    /**
     * Files of 23 rows are copied value by value; files of 5 rows, small beside the row groups of 50, hand their
     * plainly encoded columns' pages over as they are stored.
     */
    @ParameterizedTest
    @ValueSource(ints = {23, 5})
    void everyStorageCallOfACompactionCanFailAndTheArchiveShowsTheOldOrTheNewState(int rowsPerFile) throws IOException {
        Path baseline = temp.resolve("baseline");
        GeoParquetArchive seeded = GeneratedArchive.create(new LocalArchiveStorage(baseline), new TestClock(start));
        long rows = GeneratedArchive.fill(seeded, 0, 0, FILES, rowsPerFile);
        String cell = GeneratedArchive.cellOf(0);
        PartitionCommit old = seeded.partitionState(cell);

        FaultInjectingStorage counter = FaultInjectingStorage.counting(
                new LocalArchiveStorage(TestFiles.copyTree(baseline, temp.resolve("count"))));
        PartitionCompaction counted =
                new Compactor(GeoParquetArchive.open(counter, new TestClock(start))).compact(cell);
        assertEquals(1, counted.filesAfter());
        int calls = counter.callCount();
        assertTrue(calls > 2 * FILES, "a compaction opens every input file, saw " + counter.calls());

        int oldStates = 0;
        int newStates = 0;
        List<FaultPoints.Point> points = FaultPoints.of(counter.calls(), SPREAD);
        for (FaultPoints.Point point : points) {
            Fault fault = point.fault();
            int failAt = point.failAt();
            Path archive = TestFiles.copyTree(baseline, temp.resolve(fault + "-" + failAt));
            FaultInjectingStorage faulty = new FaultInjectingStorage(new LocalArchiveStorage(archive), failAt, fault);
            try {
                new Compactor(GeoParquetArchive.open(faulty, new TestClock(start))).compact(cell);
            } catch (IOException expected) {
                // the fault; what matters is the state it left
            }
            String where = fault + " at call " + failAt + " (" + point.call() + ")";
            boolean isNew = assertOldOrNew(archive, cell, old, rows, where);
            if (isNew) {
                newStates++;
            } else {
                oldStates++;
            }
            assertRetryLandsExactlyOnce(archive, cell, rows, where);
        }
        assertTrue(
                oldStates > 0 && newStates > 0,
                "faults before and after the commit point: " + oldStates + " old, " + newStates + " new");
        System.out.println("compaction: " + FaultPoints.describe(points, calls) + "; " + oldStates
                + " left the old state, " + newStates + " the new");
    }

    /** Returns whether the archive holds the new state. */
    private boolean assertOldOrNew(Path archive, String cell, PartitionCommit old, long rows, String where)
            throws IOException {
        LocalArchiveStorage storage = new LocalArchiveStorage(archive);
        PartitionCommit state = new PartitionLog(storage, cell).latest();
        boolean isNew = state.version() != old.version();
        if (isNew) {
            assertEquals(old.version() + 1, state.version(), where);
            assertEquals(OperationType.COMPACT, state.operationType(), where);
            assertEquals(1, state.files().size(), where + ": the new state has exactly the one compacted file");
            assertEquals(rows, state.rowCount(), where);
        } else {
            assertEquals(old, state, where + ": old state intact");
        }
        Instant later = start.plus(Duration.ofDays(1));
        PartitionCommit recovered = new PartitionRecovery(
                        storage, GeoParquetArchive.open(storage).descriptor().protocol())
                .recover(cell, later)
                .state();
        assertEquals(state, recovered, where + ": recovery does not change the committed state");
        assertEquals(
                new TreeSet<>(state.fileNames()),
                TestFiles.names(archive.resolve(ArchiveLayout.partitionDirectory(cell))),
                where + ": the partition directory holds exactly the live files");
        assertTrue(
                TestFiles.names(archive.resolve(ArchiveLayout.stagingDirectory(cell)))
                        .isEmpty(),
                where + ": nothing staged survives recovery");
        for (String name : TestFiles.names(archive.resolve(ArchiveLayout.logDirectory(cell)))) {
            assertTrue(ArchiveLayout.logEntryVersion(name) > 0, where + ": debris in the log directory: " + name);
        }
        String glob = archive.resolve(ArchiveLayout.partitionDirectory(cell))
                .resolve("*.parquet")
                .toString();
        List<Object> counts = DuckDb.query("SELECT count(*), count(DISTINCT id) FROM read_parquet(?)", glob)
                .get(0);
        assertEquals(rows, ((Number) counts.get(0)).longValue(), where + ": a plain reader sees every row once");
        assertEquals(rows, ((Number) counts.get(1)).longValue(), where + ": and every key once");
        return isNew;
    }

    private void assertRetryLandsExactlyOnce(Path archive, String cell, long rows, String where) throws IOException {
        LocalArchiveStorage storage = new LocalArchiveStorage(archive);
        TestClock later = new TestClock(start.plus(Duration.ofDays(1)));
        new Compactor(GeoParquetArchive.open(storage, later)).compact(cell);
        PartitionCommit state = new PartitionLog(storage, cell).latest();
        assertEquals(FILES + 1, state.version(), where + ": the compaction committed exactly once");
        assertEquals(1, state.files().size(), where);
        assertEquals(rows, state.rowCount(), where);
        assertEquals(
                new TreeSet<>(state.fileNames()),
                TestFiles.names(archive.resolve(ArchiveLayout.partitionDirectory(cell))),
                where);
    }
}
