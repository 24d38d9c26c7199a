package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionRecovery;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage;
import dev.nifigeoparquet.archive.testing.FaultPoints;
import dev.nifigeoparquet.archive.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ArchiveWriter#applyAll}: the partitions of one run commit each on their own, as they would one by one, while
 * the key index is looked up once and written once each way for all of them.
 */
class ApplyAllTest {

    /** Storage calls sampled besides the commit points (the heavy profile runs every call with every fault). */
    private static final int SPREAD = 16;

    @TempDir
    Path temp;

    private ParcelArchive base;
    private List<String> cells;

    @BeforeEach
    void createArchive() throws IOException {
        base = ParcelArchive.create(temp.resolve("base"), 2000);
        cells = base.largestCells(5);
    }

    @Test
    void aBatchWhoseDeltasShareAKeyIsAppliedInOneTransactionTheLaterDeltaWinning() throws IOException {
        // Two deltas of one cell writing the same key, queued together: a backlog a node catches up on.
        Group row = base.initial.get(cells.get(0)).get(0);
        Group other = base.initial.get(cells.get(0)).get(1);
        PartitionDelta first = PartitionDelta.prepare(
                base.archive,
                cells.get(0),
                WriteMode.UPSERT,
                List.of(
                        DeltaRow.upsert(ParcelArchive.edited(row, 101.0, BASE_TIME.plusSeconds(60))),
                        DeltaRow.upsert(ParcelArchive.edited(other, 102.0, BASE_TIME.plusSeconds(60)))),
                null);
        PartitionDelta second = PartitionDelta.prepare(
                base.archive,
                cells.get(0),
                WriteMode.UPSERT,
                List.of(DeltaRow.upsert(ParcelArchive.edited(row, 201.0, BASE_TIME.plusSeconds(120)))),
                null);

        List<ArchiveWriter.BatchOutcome> outcomes =
                new ArchiveWriter(base.archive).applyAll(List.of(List.of(first, second)));

        OperationResult result = outcomes.get(0).orThrow();
        assertEquals(1, result.commits().size(), "one rewrite of the partition: " + result.commits());
        Map<String, Double> areas = base.readAreas();
        assertEquals(201.0, areas.get(key(row)), "the later delta's row");
        assertEquals(102.0, areas.get(key(other)));
    }

    @Test
    void aRunCommitsWhatItsPartitionsWouldOneByOneRewritingEachPartitionOnce() throws IOException {
        // Four targets: updates, a new key and a deletion in each; a key moving between two targets, and one moving
        // in from a fifth partition the run does not otherwise touch.
        Map<String, List<DeltaRow>> night = new LinkedHashMap<>();
        for (int i = 0; i < 4; i++) {
            List<Group> rows = base.initial.get(cells.get(i));
            List<DeltaRow> delta = new ArrayList<>();
            delta.add(DeltaRow.upsert(ParcelArchive.edited(rows.get(0), 11.0 + i, BASE_TIME.plusSeconds(60))));
            delta.add(DeltaRow.upsert(ParcelArchive.edited(rows.get(1), 21.0 + i, BASE_TIME.plusSeconds(60))));
            delta.add(DeltaRow.upsert(ParcelArchive.withNewKey(rows.get(2), "new-" + i)));
            delta.add(DeltaRow.deletion(rows.get(3)));
            night.put(cells.get(i), delta);
        }
        Group fromTarget = base.initial.get(cells.get(0)).get(5);
        Group fromElsewhere = base.initial.get(cells.get(4)).get(0);
        night.get(cells.get(1))
                .add(DeltaRow.upsert(ParcelArchive.movedTo(
                        fromTarget, base.initial.get(cells.get(1)).get(0))));
        night.get(cells.get(2))
                .add(DeltaRow.upsert(ParcelArchive.movedTo(
                        fromElsewhere, base.initial.get(cells.get(2)).get(0))));

        Path oneByOneRoot = TestFiles.copyTree(base.root, temp.resolve("one-by-one"));
        FaultInjectingStorage oneByOneCalls = FaultInjectingStorage.counting(new LocalArchiveStorage(oneByOneRoot));
        GeoParquetArchive oneByOne = GeoParquetArchive.open(oneByOneCalls);
        List<OperationResult> expected = new ArrayList<>();
        for (Map.Entry<String, List<DeltaRow>> cell : night.entrySet()) {
            expected.add(
                    new ArchiveWriter(oneByOne).applyBatch(List.of(prepare(oneByOne, cell.getKey(), cell.getValue()))));
        }

        Path runRoot = TestFiles.copyTree(base.root, temp.resolve("run"));
        Map<String, String> untouched = ParcelArchive.outside(ParcelArchive.fingerprints(runRoot), cells);
        FaultInjectingStorage runCalls = FaultInjectingStorage.counting(new LocalArchiveStorage(runRoot));
        GeoParquetArchive archive = GeoParquetArchive.open(runCalls);
        List<ArchiveWriter.BatchOutcome> outcomes = new ArchiveWriter(archive).applyAll(batches(archive, night));

        for (int i = 0; i < outcomes.size(); i++) {
            ArchiveWriter.BatchOutcome outcome = outcomes.get(i);
            assertNull(outcome.failure(), "batch " + i + " failed: " + outcome.failure());
            OperationResult want = expected.get(i);
            OperationResult got = outcome.result();
            assertEquals(
                    List.of(want.inserted(), want.updated(), want.moved(), want.deleted(), want.netRows()),
                    List.of(got.inserted(), got.updated(), got.moved(), got.deleted(), got.netRows()),
                    "counts of batch " + i);
            assertEquals(
                    Set.copyOf(want.partitionsTouched()),
                    Set.copyOf(got.partitionsTouched()),
                    "partitions of batch " + i);
        }
        assertEquals(1, outcomes.get(1).result().moved());
        assertEquals(1, outcomes.get(2).result().moved());
        assertEquals(rows(oneByOneRoot), rows(runRoot), "the same rows, each key once, in the same cells");
        assertEquals(
                untouched,
                ParcelArchive.outside(ParcelArchive.fingerprints(runRoot), cells),
                "no partition outside the run is written");

        long runJournalCommits = journalCommits(runCalls);
        long oneByOneJournalCommits = journalCommits(oneByOneCalls);
        assertTrue(
                runJournalCommits <= 2,
                "the run's key records go into its transaction, plus at most one fold: " + runJournalCommits);
        assertTrue(
                oneByOneJournalCommits >= night.size(),
                "one by one, each partition's transaction writes the journal: " + oneByOneJournalCommits);
        for (String cell : cells) {
            String log = "createExclusive " + ArchiveLayout.logDirectory(cell) + "/";
            assertEquals(
                    1,
                    runCalls.calls().stream()
                            .filter(call -> call.startsWith(log))
                            .count(),
                    "partition " + cell + " is rewritten once in the run, whichever batches have a part in it");
        }

        KeyIndex index = new KeyIndex(GeoParquetArchive.open(new LocalArchiveStorage(runRoot)));
        assertEquals(
                Set.of(cells.get(1)),
                index.candidates(List.of(ParcelArchive.keyOf(fromTarget))).get(ParcelArchive.keyOf(fromTarget)));
        assertEquals(
                Set.of(cells.get(2)),
                index.candidates(List.of(ParcelArchive.keyOf(fromElsewhere))).get(ParcelArchive.keyOf(fromElsewhere)));
        assertEquals(
                Set.of(cells.get(3)),
                index.candidates(List.of(new FeatureKey(List.of("new-3")))).get(new FeatureKey(List.of("new-3"))));
    }

    @Test
    void aKeyTwoBatchesWriteLandsOnceWhereTheLaterPutsIt() throws IOException {
        Group inFirst = ParcelArchive.withNewKey(base.initial.get(cells.get(0)).get(0), "twice");
        Group inSecond =
                ParcelArchive.movedTo(inFirst, base.initial.get(cells.get(1)).get(0));
        Map<String, List<DeltaRow>> night = new LinkedHashMap<>();
        night.put(cells.get(0), List.of(DeltaRow.upsert(inFirst)));
        night.put(cells.get(1), List.of(DeltaRow.upsert(inSecond)));

        List<ArchiveWriter.BatchOutcome> outcomes =
                new ArchiveWriter(base.archive).applyAll(batches(base.archive, night));

        assertNull(outcomes.get(0).failure());
        assertNull(outcomes.get(1).failure());
        assertEquals(1, outcomes.get(0).result().inserted());
        assertEquals(1, outcomes.get(1).result().moved(), "the later batch moves the key the earlier one inserted");
        assertEquals(cells.get(1), base.readCells().get("twice"));
        assertEquals(77.0, base.readAreas().get("twice"), "readAreas refuses a key found twice");
    }

    @Test
    void aFailedBatchLeavesItsPartitionAsItWasAndTheOthersCommitted() throws IOException {
        Group existing = base.initial.get(cells.get(0)).get(0);
        Map<String, List<DeltaRow>> night = new LinkedHashMap<>();
        night.put(
                cells.get(0), List.of(DeltaRow.upsert(ParcelArchive.edited(existing, 5.0, BASE_TIME.plusSeconds(60)))));
        night.put(
                cells.get(1),
                List.of(DeltaRow.upsert(
                        ParcelArchive.withNewKey(base.initial.get(cells.get(1)).get(0), "fresh"))));
        List<List<PartitionDelta>> batches = batches(base.archive, night);
        // An Append of a key the archive holds elsewhere is refused when the run plans it.
        batches.add(
                1,
                List.of(PartitionDelta.prepare(
                        base.archive,
                        cells.get(2),
                        WriteMode.APPEND,
                        List.of(DeltaRow.upsert(ParcelArchive.movedTo(
                                base.initial.get(cells.get(3)).get(0),
                                base.initial.get(cells.get(2)).get(0)))),
                        null)));
        Map<String, String> refusedPartition =
                ParcelArchive.inside(ParcelArchive.fingerprints(base.root), cells.get(2));

        List<ArchiveWriter.BatchOutcome> outcomes = new ArchiveWriter(base.archive).applyAll(batches);

        assertNull(outcomes.get(0).failure());
        DeltaRejectedException refused =
                assertInstanceOf(DeltaRejectedException.class, outcomes.get(1).failure());
        assertTrue(
                refused.getMessage().contains(key(base.initial.get(cells.get(3)).get(0))), refused.getMessage());
        assertNull(outcomes.get(2).failure());
        assertEquals(refusedPartition, ParcelArchive.inside(ParcelArchive.fingerprints(base.root), cells.get(2)));
        Map<String, Double> areas = base.readAreas();
        assertEquals(5.0, areas.get(key(existing)));
        assertTrue(areas.containsKey("fresh"));
    }

    @Test
    void aRunDeliveredAgainIsAReplayThatWritesNothing() throws IOException {
        Map<String, List<DeltaRow>> night = new LinkedHashMap<>();
        for (int i = 0; i < 3; i++) {
            night.put(
                    cells.get(i),
                    List.of(
                            DeltaRow.upsert(ParcelArchive.edited(
                                    base.initial.get(cells.get(i)).get(0), 3.0, BASE_TIME.plusSeconds(60))),
                            DeltaRow.upsert(ParcelArchive.withNewKey(
                                    base.initial.get(cells.get(i)).get(1), "again-" + i))));
        }
        new ArchiveWriter(base.archive)
                .applyAll(batches(base.archive, night))
                .forEach(outcome -> assertNull(outcome.failure()));
        Map<String, String> committed = ParcelArchive.fingerprints(base.root);

        List<ArchiveWriter.BatchOutcome> again = new ArchiveWriter(base.archive).applyAll(batches(base.archive, night));

        for (ArchiveWriter.BatchOutcome outcome : again) {
            assertNull(outcome.failure());
            assertTrue(outcome.result().replay());
            assertEquals(0, outcome.result().netRows());
        }
        assertEquals(committed, ParcelArchive.fingerprints(base.root));
    }

    @Test
    void deltasPreparedSideBySideMatchThosePreparedOneByOneAndARejectedOneFailsAlone() throws IOException {
        List<PartitionDelta.Request> requests = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            List<Group> rows = base.initial.get(cells.get(i));
            requests.add(new PartitionDelta.Request(
                    cells.get(i),
                    WriteMode.UPSERT,
                    List.of(
                            DeltaRow.upsert(ParcelArchive.edited(rows.get(0), 7.0, BASE_TIME.plusSeconds(60))),
                            DeltaRow.upsert(ParcelArchive.withNewKey(rows.get(1), "side-" + i)),
                            DeltaRow.deletion(rows.get(2))),
                    i % 2 == 0 ? null : "named-" + i));
        }
        // A row whose geometry keys to another cell than the one it is sent to.
        Group stray = ParcelArchive.movedTo(
                base.initial.get(cells.get(0)).get(3),
                base.initial.get(cells.get(4)).get(0));
        requests.add(
                2, new PartitionDelta.Request(cells.get(1), WriteMode.UPSERT, List.of(DeltaRow.upsert(stray)), null));

        List<Workers.Outcome<PartitionDelta>> prepared = PartitionDelta.prepareAll(base.archive, requests);

        assertEquals(requests.size(), prepared.size());
        DeltaRejectedException rejected =
                assertInstanceOf(DeltaRejectedException.class, prepared.get(2).failure());
        assertTrue(rejected.getMessage().contains(key(stray)), rejected.getMessage());
        for (int i = 0; i < requests.size(); i++) {
            if (i == 2) {
                continue;
            }
            PartitionDelta.Request request = requests.get(i);
            PartitionDelta alone =
                    PartitionDelta.prepare(base.archive, request.cell(), request.mode(), request.rows(), null);
            PartitionDelta side = prepared.get(i).value();
            assertEquals(request.cell(), side.cell());
            assertEquals(alone.rowsByKey(), side.rowsByKey());
            // A named delta keeps its name; an unnamed one gets the id of its rows.
            assertEquals(request.deltaId() == null ? alone.deltaId() : request.deltaId(), side.deltaId());
            assertEquals(
                    DeltaId.of(
                            request.mode(),
                            request.cell(),
                            base.archive.schema(),
                            base.archive.descriptor().deletionColumns(),
                            request.rows()),
                    alone.deltaId());
        }
    }

    @Test
    void aBatchWithoutDeltasIsRefused() {
        Assertions.assertThrows(
                IllegalArgumentException.class, () -> new ArchiveWriter(base.archive).applyAll(List.of(List.of())));
    }

    /**
     * A run is not one transaction: its batches commit one by one. So whichever storage call fails, the archive after
     * recovery is what some of the batches, applied in order, make of it, and every batch reported committed is among
     * them; the key index names the cell of every key; running the whole run again lands every batch exactly once.
     */
    @Test
    void everyStorageCallOfARunCanFailAndEachPartitionEndsOldOrNew() throws IOException {
        ParcelArchive small = ParcelArchive.create(temp.resolve("small"), 60);
        List<String> targets = small.largestCells(3);
        Map<String, List<DeltaRow>> night = new LinkedHashMap<>();
        night.put(
                targets.get(0),
                List.of(
                        DeltaRow.upsert(ParcelArchive.edited(
                                small.initial.get(targets.get(0)).get(0), 1.5, BASE_TIME.plusSeconds(60))),
                        DeltaRow.upsert(ParcelArchive.withNewKey(
                                small.initial.get(targets.get(0)).get(0), "night-0"))));
        night.put(
                targets.get(1),
                List.of(
                        DeltaRow.upsert(ParcelArchive.movedTo(
                                small.initial.get(targets.get(2)).get(0),
                                small.initial.get(targets.get(1)).get(0))),
                        DeltaRow.deletion(small.initial.get(targets.get(1)).get(1))));
        night.put(
                targets.get(2),
                List.of(DeltaRow.upsert(ParcelArchive.withNewKey(
                        small.initial.get(targets.get(2)).get(1), "night-2"))));
        Map<String, Map<String, Double>> oldRows = rowsByCell(small.root);

        Path healthy = TestFiles.copyTree(small.root, temp.resolve("healthy"));
        FaultInjectingStorage counter = FaultInjectingStorage.counting(new LocalArchiveStorage(healthy));
        GeoParquetArchive counted = GeoParquetArchive.open(counter);
        new ArchiveWriter(counted).applyAll(batches(counted, night)).forEach(outcome -> assertNull(outcome.failure()));
        Map<String, Map<String, Double>> newRows = rowsByCell(healthy);
        // What each subset of the batches, applied in order, makes of the archive (bit i: batch i applied).
        List<String> order = new ArrayList<>(night.keySet());
        Map<Map<String, Map<String, Double>>, Integer> reachable = new HashMap<>();
        for (int subset = 0; subset < 1 << order.size(); subset++) {
            Path root = TestFiles.copyTree(small.root, temp.resolve("subset-" + subset));
            GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
            Map<String, List<DeltaRow>> part = new LinkedHashMap<>();
            for (int i = 0; i < order.size(); i++) {
                if ((subset & 1 << i) != 0) {
                    part.put(order.get(i), night.get(order.get(i)));
                }
            }
            if (!part.isEmpty()) {
                new ArchiveWriter(archive)
                        .applyAll(batches(archive, part))
                        .forEach(outcome -> assertNull(outcome.failure()));
            }
            reachable.put(rowsByCell(root), subset);
        }
        assertEquals(1 << order.size(), reachable.size(), "every subset of the batches leaves a different archive");

        List<FaultPoints.Point> points = FaultPoints.of(counter.calls(), SPREAD);
        for (FaultPoints.Point point : points) {
            FaultInjectingStorage.Fault fault = point.fault();
            int failAt = point.failAt();
            Path root = TestFiles.copyTree(small.root, temp.resolve("fault-" + failAt));
            FaultInjectingStorage faulty = new FaultInjectingStorage(new LocalArchiveStorage(root), failAt, fault);
            int reportedCommitted = 0;
            try {
                GeoParquetArchive archive = GeoParquetArchive.open(faulty);
                List<ArchiveWriter.BatchOutcome> outcomes =
                        new ArchiveWriter(archive).applyAll(batches(archive, night));
                for (int i = 0; i < outcomes.size(); i++) {
                    reportedCommitted |= outcomes.get(i).failure() == null ? 1 << i : 0;
                }
            } catch (IOException | RuntimeException injected) {
                // opening the archive met the fault
            }
            String where = fault + " at call " + failAt + " (" + point.call() + ")";
            GeoParquetArchive later = GeoParquetArchive.open(
                    new LocalArchiveStorage(root), Clock.offset(Clock.systemUTC(), Duration.ofDays(1)));
            // The next writer, after the lease, recovers data and index partitions alike.
            Set<String> logs = new TreeSet<>();
            for (String directory : List.of(ArchiveLayout.LOG_DIRECTORY, ArchiveLayout.STAGING_DIRECTORY)) {
                later.storage().list(directory).stream()
                        .filter(child -> child.directory())
                        .forEach(child -> logs.add(child.name()));
            }
            for (String log : logs) {
                new PartitionRecovery(later.storage(), later.descriptor().protocol())
                        .recover(log, Instant.now().plus(Duration.ofDays(1)));
            }
            Map<String, Map<String, Double>> state = rowsByCell(root);
            Integer applied = reachable.get(state);
            assertTrue(applied != null, where + ": no subset of the batches makes this archive: " + state);
            assertEquals(
                    reportedCommitted, applied & reportedCommitted, where + ": a batch reported committed is missing");
            assertEquals(outside(oldRows, targets), outside(state, targets), where + ": no other partition changed");
            List<FeatureKey> held = state.values().stream()
                    .flatMap(rows -> rows.keySet().stream())
                    .map(key -> new FeatureKey(List.of(key)))
                    .toList();
            Map<FeatureKey, Set<String>> candidates = new KeyIndex(later).candidates(held);
            state.forEach((cell, rows) -> rows.keySet()
                    .forEach(key -> assertTrue(
                            candidates.get(new FeatureKey(List.of(key))).contains(cell),
                            where + ": the index misses " + key + " in " + cell)));

            new ArchiveWriter(later)
                    .applyAll(batches(later, night))
                    .forEach(outcome -> assertNull(outcome.failure(), where));
            assertEquals(newRows, rowsByCell(root), where + ": the run again lands every partition exactly once");
        }
        System.out.println("apply all: " + FaultPoints.describe(points, counter.callCount()));
    }

    /** cell -> (parcel_id -> area_m2), as DuckDB reads the Hive layout; a key found twice fails. */
    private static Map<String, Map<String, Double>> rowsByCell(Path root) {
        Map<String, Map<String, Double>> cells = new TreeMap<>();
        Set<String> seen = new HashSet<>();
        for (List<Object> row : DuckDb.query(
                "SELECT h3_cell, parcel_id, area_m2 FROM read_parquet(?, hive_partitioning = true)",
                root + "/*/*.parquet")) {
            assertTrue(seen.add((String) row.get(1)), "key " + row.get(1) + " is held twice under " + root);
            cells.computeIfAbsent((String) row.get(0), c -> new TreeMap<>())
                    .put((String) row.get(1), ((Number) row.get(2)).doubleValue());
        }
        return cells;
    }

    /** The rows of every cell but these. */
    private static Map<String, Map<String, Double>> outside(Map<String, Map<String, Double>> rows, List<String> cells) {
        Map<String, Map<String, Double>> kept = new TreeMap<>(rows);
        kept.keySet().removeAll(cells);
        return kept;
    }

    private static List<List<PartitionDelta>> batches(GeoParquetArchive archive, Map<String, List<DeltaRow>> night) {
        List<List<PartitionDelta>> batches = new ArrayList<>();
        night.forEach((cell, rows) -> batches.add(List.of(prepare(archive, cell, rows))));
        return batches;
    }

    private static PartitionDelta prepare(GeoParquetArchive archive, String cell, List<DeltaRow> rows) {
        return PartitionDelta.prepare(archive, cell, WriteMode.UPSERT, rows, null);
    }

    private static long journalCommits(FaultInjectingStorage calls) {
        String journalLog = "createExclusive " + ArchiveLayout.logDirectory(ArchiveLayout.INDEX_JOURNAL) + "/";
        return calls.calls().stream()
                .filter(call -> call.startsWith(journalLog))
                .count();
    }

    /** Every row as DuckDB reads it through the Hive layout, in key order. */
    private static List<List<Object>> rows(Path root) {
        return DuckDb.query(
                "SELECT parcel_id, h3_cell, area_m2, updated_at, land_use FROM read_parquet(?, hive_partitioning = true)"
                        + " ORDER BY parcel_id, h3_cell",
                root + "/*/*.parquet");
    }
}
