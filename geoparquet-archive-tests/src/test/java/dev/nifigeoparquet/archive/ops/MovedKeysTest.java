package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionRecovery;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage.Fault;
import dev.nifigeoparquet.archive.testing.FaultPoints;
import dev.nifigeoparquet.archive.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys whose edited geometry moves them to another cell, and deletes that find a key's cell through the index. */
class MovedKeysTest {

    /** Storage calls sampled besides the commit points (the heavy profile runs every call with every fault). */
    private static final int SPREAD = 10;

    @TempDir
    Path temp;

    @Test
    void aMovedKeyLeavesItsOldPartitionInTheSameOperation() throws IOException {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("archive"), 1500);
        List<String> cells = archive.largestCells(3);
        String from = cells.get(0);
        String to = cells.get(1);
        Group moving = archive.initial.get(from).get(0);
        Map<String, String> before = ParcelArchive.fingerprints(archive.root);
        Map<String, String> expectedCells = new TreeMap<>(archive.readCells());
        expectedCells.put(key(moving), to);

        OperationResult result = archive.apply(
                to,
                WriteMode.UPSERT,
                List.of(ParcelArchive.movedTo(moving, archive.initial.get(to).get(0))));

        assertEquals(1, result.moved());
        assertEquals(1, result.updated(), "for the feature, a move is an update");
        assertEquals(0, result.inserted());
        assertEquals(0, result.netRows(), "a move changes no count");
        assertEquals(Set.of(from, to), Set.copyOf(result.partitionsTouched()), "the result names both partitions");
        assertEquals(expectedCells, archive.readCells(), "the key lives in exactly one partition, the new one");
        Map<String, String> after = ParcelArchive.fingerprints(archive.root);
        assertEquals(
                ParcelArchive.outside(before, List.of(from, to)),
                ParcelArchive.outside(after, List.of(from, to)),
                "no other partition is opened for writing");
        assertEquals(
                Set.of(to),
                new KeyIndex(archive.archive)
                        .candidates(List.of(ParcelArchive.keyOf(moving)))
                        .get(ParcelArchive.keyOf(moving)),
                "the index forgets the old cell after the move");

        OperationResult back = archive.apply(
                from,
                WriteMode.UPSERT,
                List.of(ParcelArchive.movedTo(moving, archive.initial.get(from).get(1))));
        assertEquals(1, back.moved());
        expectedCells.put(key(moving), from);
        assertEquals(expectedCells, archive.readCells(), "and back again");
    }

    @Test
    void deletesReachTheCellHoldingTheKeyWithOrWithoutACell() throws IOException {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("archive"), 1500);
        List<String> cells = archive.largestCells(2);
        Group a = archive.initial.get(cells.get(0)).get(0);
        Group b = archive.initial.get(cells.get(1)).get(0);
        Map<String, Double> expected = new TreeMap<>(archive.readAreas());

        // Sent to the wrong cell: the delete still reaches the partition that holds the key.
        OperationResult misrouted = ParcelArchive.apply(
                archive.archive, cells.get(1), WriteMode.DELETE, List.of(DeltaRow.deletion(keyOnly(key(a)))));
        expected.remove(key(a));
        assertEquals(1, misrouted.deleted());
        assertEquals(List.of(cells.get(0)), misrouted.partitionsTouched());

        // A key-only delete with no cell at all, plus a key the archive never held.
        OperationResult keyOnly = ParcelArchive.apply(
                archive.archive,
                null,
                WriteMode.DELETE,
                List.of(DeltaRow.deletion(keyOnly(key(b))), DeltaRow.deletion(keyOnly("never-there"))));
        expected.remove(key(b));
        assertEquals(1, keyOnly.deleted());
        assertEquals(1, keyOnly.absentKeysDeleted());
        assertEquals(expected, archive.readAreas());
        assertThrows(
                DeltaRejectedException.class,
                () -> ParcelArchive.apply(
                        archive.archive,
                        null,
                        WriteMode.UPSERT,
                        List.of(DeltaRow.upsert(
                                archive.initial.get(cells.get(0)).get(1)))),
                "only a delete may omit the cell");
    }

    @Test
    void appendingAKeyTheArchiveHoldsIsRefused() throws IOException {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("archive"), 800);
        List<String> cells = archive.largestCells(2);
        Group existing = archive.initial.get(cells.get(0)).get(0);
        Map<String, String> before = ParcelArchive.fingerprints(archive.root);
        DeltaRejectedException refused = assertThrows(
                DeltaRejectedException.class,
                () -> archive.apply(
                        cells.get(1),
                        WriteMode.APPEND,
                        List.of(ParcelArchive.movedTo(
                                existing, archive.initial.get(cells.get(1)).get(0)))));
        assertTrue(
                refused.getMessage().contains(key(existing))
                        && refused.getMessage().contains(cells.get(0)),
                refused.getMessage());
        assertEquals(before, ParcelArchive.fingerprints(archive.root));
    }

    @Test
    void theIndexAnswersForEveryKeyAfterManyJournalFolds() throws IOException {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("archive"), 3000);
        assertTrue(archive.initial.size() > 2 * 16, "enough appends to fold the journal: " + archive.initial.size());
        Map<String, String> truth = archive.readCells();
        List<FeatureKey> keys =
                truth.keySet().stream().map(k -> new FeatureKey(List.of(k))).toList();
        Map<FeatureKey, Set<String>> candidates = new KeyIndex(archive.archive).candidates(keys);
        for (Map.Entry<String, String> entry : truth.entrySet()) {
            assertEquals(
                    Set.of(entry.getValue()), candidates.get(new FeatureKey(List.of(entry.getKey()))), entry.getKey());
        }
        assertEquals(
                Set.of(),
                new KeyIndex(archive.archive)
                        .candidates(List.of(new FeatureKey(List.of("absent"))))
                        .get(new FeatureKey(List.of("absent"))));
    }

    @Test
    void everyStorageCallOfAMoveCanFail() throws IOException {
        ParcelArchive baseline = ParcelArchive.create(temp.resolve("baseline"), 60);
        List<String> cells = baseline.largestCells(2);
        Group moving = baseline.initial.get(cells.get(0)).get(0);
        List<DeltaRow> delta = List.of(DeltaRow.upsert(
                ParcelArchive.movedTo(moving, baseline.initial.get(cells.get(1)).get(0))));
        Map<String, String> oldCells = baseline.readCells();

        Path healthy = TestFiles.copyTree(baseline.root, temp.resolve("healthy"));
        FaultInjectingStorage counter = FaultInjectingStorage.counting(new LocalArchiveStorage(healthy));
        ParcelArchive.apply(GeoParquetArchive.open(counter), cells.get(1), WriteMode.UPSERT, delta);
        Map<String, String> newCells = cellsOf(healthy);
        assertEquals(cells.get(1), newCells.get(key(moving)));

        List<FaultPoints.Point> points = FaultPoints.of(counter.calls(), SPREAD);
        for (FaultPoints.Point point : points) {
            Fault fault = point.fault();
            int failAt = point.failAt();
            Path root = TestFiles.copyTree(baseline.root, temp.resolve(fault + "-" + failAt));
            FaultInjectingStorage faulty = new FaultInjectingStorage(new LocalArchiveStorage(root), failAt, fault);
            try {
                ParcelArchive.apply(GeoParquetArchive.open(faulty), cells.get(1), WriteMode.UPSERT, delta);
            } catch (IOException | RuntimeException expected) {
                // the injected fault
            }
            String where = fault + " at call " + failAt + " (" + point.call() + ")";
            // The next writer, after the lease: it aborts an undecided transaction and completes publishing.
            GeoParquetArchive later = GeoParquetArchive.open(
                    new LocalArchiveStorage(root), Clock.offset(Clock.systemUTC(), Duration.ofDays(1)));
            for (String cell : cells) {
                new PartitionRecovery(later.storage(), later.descriptor().protocol())
                        .recover(cell, Instant.now().plus(Duration.ofDays(1)));
            }
            Map<String, String> state = cellsOf(root);
            assertTrue(
                    state.equals(oldCells) || state.equals(newCells),
                    where + ": the key is in exactly one of its cells, old state or new: " + state.get(key(moving)));
            ParcelArchive.apply(later, cells.get(1), WriteMode.UPSERT, delta);
            assertEquals(newCells, cellsOf(root), where + ": the retried move lands exactly once");
        }
        System.out.println("moved key: " + FaultPoints.describe(points, counter.callCount()));
    }

    private static Group keyOnly(String id) {
        Group row = new SimpleGroup(SyntheticParcels.schema());
        row.add(SyntheticParcels.KEY, id);
        return row;
    }

    private static Map<String, String> cellsOf(Path root) {
        Map<String, String> cells = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        for (List<Object> row : DuckDb.query(
                "SELECT parcel_id, h3_cell FROM read_parquet(?, hive_partitioning = true)", root + "/*/*.parquet")) {
            if (!seen.add((String) row.get(0))) {
                throw new AssertionError("key " + row.get(0) + " is in two partitions under " + root);
            }
            cells.put((String) row.get(0), (String) row.get(1));
        }
        return cells;
    }
}
