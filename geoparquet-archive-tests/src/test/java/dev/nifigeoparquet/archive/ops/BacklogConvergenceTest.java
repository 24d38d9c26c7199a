package dev.nifigeoparquet.archive.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.NightlyBacklog;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A backlog of three nights, each with updates, new keys, deletions, re-inserts of deleted keys and keys moving between
 * cells, applied in all six orders, one after another and by three writers at once: with a delta sequence the archive
 * always ends with exactly the rows that applying the nights in order leaves (docs/archive-format.md, section 6.4), in
 * an archive ordered by its version column, in one whose nights share a version (the sequence decides), and in one
 * without a version column. Without a sequence the orders disagree, which is what the sequence is for.
 */
class BacklogConvergenceTest {

    /** How the archive orders the versions of one feature, and what the nights' rows carry. */
    enum Versions {
        /** A version column, each night's rows a newer version. */
        DISTINCT,
        /** A version column, every night's rows the same version: the sequence breaks every tie. */
        TIED,
        /** No version column: the sequence alone orders. */
        NONE
    }

    private static final List<List<Integer>> ORDERS = List.of(
            List.of(0, 1, 2), List.of(0, 2, 1), List.of(1, 0, 2), List.of(1, 2, 0), List.of(2, 0, 1), List.of(2, 1, 0));

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(Versions.class)
    void threeNightsInEveryOrderSeriallyAndAtOnceLeaveTheRowsOfTheInOrderRun(Versions versions) throws Exception {
        Path baseline = temp.resolve("baseline");
        Backlog backlog = Backlog.create(baseline, versions);

        Path inOrder = copy(baseline, "in-order");
        for (int night = 0; night < 3; night++) {
            backlog.apply(open(inOrder), night, true);
        }
        List<List<Object>> expected = rows(inOrder);
        backlog.requireExpectedFate(expected);

        for (List<Integer> order : ORDERS) {
            Path serial = copy(baseline, "serial-" + name(order));
            for (int night : order) {
                backlog.apply(open(serial), night, true);
            }
            requireSameRows(expected, rows(serial), versions + ": nights applied one by one in order " + order);
            requireConsistent(serial, expected.size());
            // Replaying every night afterwards commits nothing: a replay, or rows older than the keys' stamps.
            for (int night : order) {
                for (OperationResult replayed : backlog.apply(open(serial), night, true)) {
                    assertEquals(List.of(), replayed.commits(), "night " + night + " replayed: " + replayed);
                }
            }
            requireSameRows(expected, rows(serial), versions + ": replayed after order " + order);
        }
        for (List<Integer> order : ORDERS) {
            Path concurrent = copy(baseline, "concurrent-" + name(order));
            applyAtOnce(backlog, concurrent, order);
            requireSameRows(
                    expected, rows(concurrent), versions + ": three writers at once, started in order " + order);
            requireConsistent(concurrent, expected.size());
        }
    }

    @Test
    void withoutASequenceALateNightOverwritesANewerOne() throws Exception {
        Path baseline = temp.resolve("baseline");
        Backlog backlog = Backlog.create(baseline, Versions.NONE);
        Path inOrder = copy(baseline, "in-order");
        Path reversed = copy(baseline, "reversed");
        for (int night = 0; night < 3; night++) {
            backlog.apply(open(inOrder), night, false);
            backlog.apply(open(reversed), 2 - night, false);
        }
        assertNotEquals(rows(inOrder), rows(reversed), "the orders disagree without a sequence");
    }

    @Test
    void aSequencedDeletionStampsTheKeyIndexAndMakesItsEntriesFormatVersion2() throws Exception {
        Path root = temp.resolve("stamped");
        Backlog backlog = Backlog.create(root, Versions.NONE);
        GeoParquetArchive archive = open(root);
        assertEquals(
                PartitionCommit.FORMAT_VERSION,
                new PartitionLog(archive.storage(), ArchiveLayout.INDEX_JOURNAL)
                        .latest()
                        .formatVersion(),
                "unsequenced writes keep the index at format version 1");
        // Night 2 alone deletes a key nobody stored yet (night 1 inserts it later): its tombstone is in the journal.
        backlog.apply(archive, 1, true);
        PartitionCommit journal = new PartitionLog(archive.storage(), ArchiveLayout.INDEX_JOURNAL).latest();
        assertEquals(PartitionCommit.HIGHEST_FORMAT_VERSION, journal.formatVersion());
        String tombstones = DuckDb.query(
                        "SELECT count(*) FROM read_parquet(?, union_by_name = true)"
                                + " WHERE NOT present AND cell = '' AND sequence = ?",
                        root.resolve(ArchiveLayout.INDEX_DIRECTORY)
                                .resolve(ArchiveLayout.INDEX_JOURNAL)
                                .resolve("*.keys")
                                .toString(),
                        NightlyBacklog.sequence(1))
                .get(0)
                .get(0)
                .toString();
        assertEquals("2", tombstones, "each deletion of a key stored nowhere (n-1, n-3) leaves a tombstone");
        // The data partitions' entries name the night's sequence for each of its operations.
        boolean recorded = false;
        for (String cell : archive.partitionCells()) {
            recorded |= archive.partitionState(cell).operations().stream()
                    .anyMatch(operation -> operation.sequences() != null
                            && operation.sequences().contains(NightlyBacklog.sequence(1)));
        }
        assertTrue(recorded, "a commit entry records the delta sequence");
    }

    /** An order as a directory name without glob characters: "201". */
    private static String name(List<Integer> order) {
        return order.stream().map(String::valueOf).reduce("", String::concat);
    }

    private void applyAtOnce(Backlog backlog, Path root, List<Integer> startOrder) throws Exception {
        // One engine per writer, each through its own alias of the directory, as three nodes on shared storage: their
        // in-process partition locks differ, so they race on the commit protocol alone.
        List<GeoParquetArchive> writers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Path alias = Files.createSymbolicLink(temp.resolve(root.getFileName() + "-writer-" + i), root);
            writers.add(open(alias));
        }
        CyclicBarrier start = new CyclicBarrier(3);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int night = startOrder.get(i);
                GeoParquetArchive writer = writers.get(i);
                running.add(pool.submit(() -> {
                    start.await();
                    return backlog.apply(writer, night, true);
                }));
            }
            for (Future<?> night : running) {
                night.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static void requireConsistent(Path root, long rows) throws IOException {
        VerificationReport report = new ArchiveVerifier(open(root))
                .verify(VerifyOptions.wholeArchive().expectingRows(rows));
        assertTrue(report.consistent(), report.problems().toString());
        assertEquals(
                rows,
                ((Number) DuckDb.query("SELECT count(DISTINCT parcel_id) FROM read_parquet(?)", root + "/*/*.parquet")
                                .get(0)
                                .get(0))
                        .longValue(),
                "one row per key");
    }

    /** Fails naming only the rows that differ, not the whole archive. */
    private static void requireSameRows(List<List<Object>> expected, List<List<Object>> actual, String what) {
        List<List<Object>> missing = new ArrayList<>(expected);
        missing.removeAll(actual);
        List<List<Object>> unexpected = new ArrayList<>(actual);
        unexpected.removeAll(expected);
        assertEquals(List.of(), missing, what + ": rows of the in-order run missing");
        assertEquals(List.of(), unexpected, what + ": rows the in-order run does not have");
        assertEquals(expected, actual, what);
    }

    /** Every row of the archive as DuckDB reads it, with its partition, the geometry by its hash: byte for byte. */
    private static List<List<Object>> rows(Path root) {
        return DuckDb.query(
                "SET enable_geoparquet_conversion = false;"
                        + " SELECT parcel_id, land_use, area_m2, updated_at, md5(geometry), h3_cell"
                        + " FROM read_parquet(?, hive_partitioning = true) ORDER BY parcel_id",
                root + "/*/*.parquet");
    }

    private Path copy(Path from, String name) throws IOException {
        Path to = temp.resolve(name);
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(from.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
        return to;
    }

    private static GeoParquetArchive open(Path root) throws IOException {
        return GeoParquetArchive.open(new LocalArchiveStorage(root));
    }

    /** The baseline archive's nights, as the engine applies them. */
    private record Backlog(NightlyBacklog nights) {

        static Backlog create(Path root, Versions versions) throws IOException {
            SyntheticParcels parcels = new SyntheticParcels(7, 3);
            ArchiveSpec spec = ArchiveSpec.of(
                    SyntheticParcels.schema(),
                    SyntheticParcels.footer(),
                    List.of(SyntheticParcels.KEY),
                    versions == Versions.NONE ? null : SyntheticParcels.VERSION,
                    ParcelArchive.RESOLUTION,
                    WriterSettings.defaults(),
                    "parcels, versions " + versions);
            GeoParquetArchive archive = ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
            Map<String, List<Group>> byCell = new TreeMap<>();
            for (int i = 0; i < 300; i++) {
                Group row = parcels.next("p-" + i, ParcelArchive.BASE_TIME);
                byCell.computeIfAbsent(ArchiveFixtures.cellOf(archive, row), cell -> new ArrayList<>())
                        .add(row);
            }
            for (Map.Entry<String, List<Group>> cell : byCell.entrySet()) {
                ParcelArchive.apply(
                        archive,
                        cell.getKey(),
                        WriteMode.APPEND,
                        cell.getValue().stream().map(DeltaRow::upsert).toList());
            }
            return new Backlog(NightlyBacklog.against(
                    byCell, row -> ArchiveFixtures.cellOf(archive, row), versions == Versions.TIED));
        }

        /** Routes night {@code night} and applies it as the command line does, with its sequence or without. */
        List<OperationResult> apply(GeoParquetArchive archive, int night, boolean sequenced) throws IOException {
            Long sequence = sequenced ? NightlyBacklog.sequence(night) : null;
            List<DeltaRow> rows =
                    nights.night(night).stream().map(Backlog::deltaRow).toList();
            DeltaRouter.Routed routed = new DeltaRouter(archive, WriteMode.UPSERT).route(rows);
            List<PartitionDelta.Request> requests = new ArrayList<>();
            routed.byCell()
                    .forEach((cell, cellRows) ->
                            requests.add(new PartitionDelta.Request(cell, WriteMode.UPSERT, cellRows, null, sequence)));
            if (!routed.deletions().isEmpty()) {
                requests.add(new PartitionDelta.Request(null, WriteMode.DELETE, routed.deletions(), null, sequence));
            }
            List<PartitionDelta> deltas = Workers.valuesOf(PartitionDelta.prepareAll(archive, requests));
            List<OperationResult> results = new ArrayList<>();
            for (ArchiveWriter.BatchOutcome outcome : new ArchiveWriter(archive)
                    .applyAll(deltas.stream().map(List::of).toList())) {
                results.add(outcome.orThrow());
            }
            return results;
        }

        /** The in-order run left every key the nights wrote as planned (so the test checks what it means to). */
        void requireExpectedFate(List<List<Object>> rows) {
            Map<String, List<Object>> byKey = new HashMap<>();
            rows.forEach(row -> byKey.put((String) row.get(0), row));
            nights.fates().forEach((key, fate) -> {
                List<Object> row = byKey.get(key);
                if (fate.deleted()) {
                    assertFalse(byKey.containsKey(key), key + " is deleted by the last night that writes it");
                } else {
                    assertEquals(fate.area(), ((Number) row.get(2)).doubleValue(), key + ": the last night's row");
                    assertEquals(fate.cell(), row.get(5), key + ": in the cell of its last geometry");
                }
            });
            assertEquals(new HashSet<>(byKey.keySet()).size(), rows.size());
        }

        /** A night's row (with its delete marker) as a row of the archive's schema. */
        private static DeltaRow deltaRow(Group night) {
            Group row = new SimpleGroup(SyntheticParcels.schema());
            row.add(SyntheticParcels.KEY, night.getString(SyntheticParcels.KEY, 0));
            row.add("land_use", night.getString("land_use", 0));
            row.add("area_m2", night.getDouble("area_m2", 0));
            row.add(SyntheticParcels.VERSION, night.getLong(SyntheticParcels.VERSION, 0));
            row.add(SyntheticParcels.GEOMETRY, night.getBinary(SyntheticParcels.GEOMETRY, 0));
            return night.getBoolean(NightlyDelta.DELETE_MARKER, 0) ? DeltaRow.deletion(row) : DeltaRow.upsert(row);
        }
    }
}
