package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.CommitConflictException;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two engine instances on one archive directory, as two NiFi nodes on shared storage, each with three concurrent
 * tasks. Every task upserts into partitions the others write too: it edits the keys it owns, moves one of them from
 * another partition into the target (a transaction over two partitions), and inserts a new key, round after round.
 * Meanwhile a fifth thread verifies the whole archive again and again. Afterwards DuckDB reads exactly the table
 * computed independently from the tasks' own bookkeeping: no lost update, no key twice, every move landed once; and
 * the key index, whose journal both engines fold, names every key's cell.
 */
class ConcurrentWritersTest {

    private static final int ENGINES = 2;
    private static final int TASKS_PER_ENGINE = 3;
    private static final int ROUNDS = 4;
    private static final int CELLS = 4;

    @TempDir
    Path temp;

    @Test
    void twoEnginesWithThreeTasksEachUpsertAndMoveKeysWhileVerifySeesNoTornState() throws Exception {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("shared"), 600);
        List<String> cells = archive.initial.entrySet().stream()
                .sorted((a, b) -> b.getValue().size() - a.getValue().size())
                .limit(CELLS)
                .map(Map.Entry::getKey)
                .toList();
        Path alias = Files.createSymbolicLink(temp.resolve("second-node"), archive.root);
        List<GeoParquetArchive> engines =
                List.of(archive.archive, GeoParquetArchive.open(new LocalArchiveStorage(alias)));

        int tasks = ENGINES * TASKS_PER_ENGINE;
        List<Task> work = new ArrayList<>();
        for (int t = 0; t < tasks; t++) {
            work.add(new Task(t, engines.get(t % ENGINES), archive, cells));
        }
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger verifications = new AtomicInteger();
        List<String> torn = Collections.synchronizedList(new ArrayList<>());
        Thread verifier = Thread.ofPlatform().start(() -> {
            while (writing.get()) {
                try {
                    VerificationReport report =
                            new ArchiveVerifier(engines.get(verifications.get() % ENGINES)).verify();
                    if (!report.consistent()) {
                        torn.add(report + ": " + report.problems());
                    }
                    verifications.incrementAndGet();
                } catch (Exception e) {
                    torn.add(e.toString());
                }
            }
        });

        ExecutorService pool = Executors.newFixedThreadPool(tasks);
        try {
            for (Future<Integer> future : pool.invokeAll(work)) {
                future.get();
            }
        } finally {
            writing.set(false);
            pool.shutdownNow();
            verifier.join();
        }

        Map<String, String> expected = new TreeMap<>();
        for (Map.Entry<String, List<Group>> cell : archive.initial.entrySet()) {
            for (Group row : cell.getValue()) {
                expected.put(key(row), cell.getKey() + " " + row.getDouble("area_m2", 0));
            }
        }
        int moves = 0;
        int conflictsRetried = 0;
        for (Task task : work) {
            task.state.forEach((k, row) -> expected.put(k, task.cells.get(k) + " " + row.getDouble("area_m2", 0)));
            moves += task.moves;
            conflictsRetried += task.conflicts;
        }
        assertEquals(List.of(), torn, "a verification running beside the writers never saw a torn state");
        assertEquals(expected, readTable(archive.root), "DuckDB reads exactly the independently computed table");
        VerificationReport finalReport = new ArchiveVerifier(archive.archive)
                .verify(VerifyOptions.wholeArchive().expectingRows(expected.size()));
        assertTrue(finalReport.consistent(), finalReport.toString());
        assertIndexNamesEveryKeysCell(archive.archive, expected);
        assertTrue(verifications.get() > 0, "the verifier ran beside the writers");
        System.out.println("concurrent writers: " + ENGINES + " engines x " + TASKS_PER_ENGINE + " tasks x " + ROUNDS
                + " upserts into "
                + CELLS + " shared partitions, " + moves + " keys moved between partitions, " + conflictsRetried
                + " commits lost to another node and redone by the task; " + verifications.get()
                + " whole-archive verifications ran meanwhile, all consistent; " + expected.size()
                + " keys, each exactly once");
    }

    /**
     * The key index names the cell holding each key, after both engines folded its journal while the other wrote: an
     * index that lost a key's cell would let the next move of that key leave it in two partitions.
     */
    private static void assertIndexNamesEveryKeysCell(GeoParquetArchive archive, Map<String, String> expected)
            throws Exception {
        List<FeatureKey> keys =
                expected.keySet().stream().map(k -> new FeatureKey(List.of(k))).toList();
        Map<FeatureKey, Set<String>> candidates = new KeyIndex(archive).candidates(keys);
        List<String> lost = new ArrayList<>();
        for (FeatureKey key : keys) {
            String cellAndArea = expected.get(key.values().get(0));
            String cell = cellAndArea.substring(0, cellAndArea.indexOf(' '));
            if (!candidates.get(key).contains(cell)) {
                lost.add(key + " in " + cell + ", index says " + candidates.get(key));
            }
        }
        assertEquals(List.of(), lost, "the key index names every key's cell");
    }

    /** key -> "cell area" as DuckDB reads the directory; fails on a key held twice. */
    private static Map<String, String> readTable(Path root) {
        Map<String, String> table = new TreeMap<>();
        for (List<Object> row : DuckDb.query(
                "SELECT parcel_id, h3_cell, area_m2 FROM read_parquet(?, hive_partitioning = true)",
                root + "/*/*.parquet")) {
            String previous = table.put((String) row.get(0), row.get(1) + " " + ((Number) row.get(2)).doubleValue());
            if (previous != null) {
                throw new AssertionError("key " + row.get(0) + " is held twice");
            }
        }
        return table;
    }

    /**
     * One task: owns every sixth key of the shared partitions and, in round r, upserts into partition (t + r) mod 4 its
     * edited keys of that partition, one of its keys moved there from another partition, and a new key.
     */
    private static final class Task implements Callable<Integer> {
        final int id;
        final GeoParquetArchive engine;
        final List<String> shared;
        Map<String, Group> anchors = new LinkedHashMap<>();
        /** The task's own keys: their latest row and cell, kept by the task itself. */
        Map<String, Group> state = new LinkedHashMap<>();

        Map<String, String> cells = new LinkedHashMap<>();
        int moves;
        int conflicts;

        Task(int id, GeoParquetArchive engine, ParcelArchive archive, List<String> shared) {
            this.id = id;
            this.engine = engine;
            this.shared = shared;
            for (String cell : shared) {
                List<Group> rows = archive.initial.get(cell);
                anchors.put(cell, rows.get(0));
                for (int i = 1 + id; i < rows.size() && i < 1 + 6 * 6; i += ENGINES * TASKS_PER_ENGINE) {
                    state.put(key(rows.get(i)), rows.get(i));
                    cells.put(key(rows.get(i)), cell);
                }
            }
        }

        @Override
        public Integer call() throws Exception {
            for (int round = 0; round < ROUNDS; round++) {
                String target = shared.get((id + round) % shared.size());
                Instant version = BASE_TIME.plusSeconds(100 + round);
                List<DeltaRow> delta = new ArrayList<>();
                Map<String, Group> changed = new LinkedHashMap<>();
                for (Map.Entry<String, Group> owned : state.entrySet()) {
                    if (cells.get(owned.getKey()).equals(target)) {
                        changed.put(
                                owned.getKey(),
                                row(owned.getKey(), owned.getValue(), 1000 * id + 10 * round + 0.5, version));
                    }
                }
                String mover = state.keySet().stream()
                        .filter(k -> !cells.get(k).equals(target))
                        .findFirst()
                        .orElse(null);
                if (mover != null) {
                    changed.put(mover, row(mover, anchors.get(target), 7000 + 10 * id + round, version));
                    moves++;
                }
                String fresh = "task-" + id + "-round-" + round;
                changed.put(fresh, row(fresh, anchors.get(target), 9000 + 10 * id + round, version));
                changed.values().forEach(row -> delta.add(DeltaRow.upsert(row)));
                apply(target, delta);
                changed.forEach((k, row) -> {
                    state.put(k, row);
                    cells.put(k, target);
                });
            }
            return ROUNDS;
        }

        /** The engine retries lost commits itself; a task whose retries all lost tries again, as NiFi's retry queue would. */
        private void apply(String target, List<DeltaRow> delta) throws Exception {
            for (int attempt = 1; ; attempt++) {
                try {
                    ParcelArchive.apply(engine, target, WriteMode.UPSERT, delta);
                    return;
                } catch (CommitConflictException conflict) {
                    conflicts++;
                    if (attempt == 20) {
                        throw conflict;
                    }
                    Thread.sleep(20L * attempt);
                }
            }
        }

        private static Group row(String id, Group geometrySource, double area, Instant version) {
            Group row = new SimpleGroup(SyntheticParcels.schema());
            row.add(SyntheticParcels.KEY, id);
            row.add("land_use", geometrySource.getString("land_use", 0));
            row.add("area_m2", area);
            row.add(SyntheticParcels.VERSION, ChronoUnit.MICROS.between(Instant.EPOCH, version));
            row.add(SyntheticParcels.GEOMETRY, geometrySource.getBinary(SyntheticParcels.GEOMETRY, 0));
            return row;
        }
    }
}
