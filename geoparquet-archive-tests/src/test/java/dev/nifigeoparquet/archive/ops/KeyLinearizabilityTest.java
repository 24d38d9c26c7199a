package dev.nifigeoparquet.archive.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.CommitConflictException;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Per key, writes are linearizable whatever writers run at once: threads sharing one archive instance, engines on the
 * same directory (as NiFi nodes on shared storage), and separate JVMs. Writers insert, update and move the same keys
 * into different partitions at once (see {@link KeyWorkload}); afterwards DuckDB must read exactly what applying the
 * same operations one after another produces, every key once, and the key index must name each key's cell.
 * The default run takes a sample; the heavy profile runs many more rounds.
 */
class KeyLinearizabilityTest {

    @TempDir
    Path temp;

    @Test
    void twoWritersInsertingTheSameNewKeysIntoDifferentCellsLeaveEachKeyOnce() throws Exception {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("archive"), 300);
        List<String> cells = archive.largestCells(2);
        GeoParquetArchive second = secondEngine(archive);
        for (int round = 0; round < 6; round++) {
            int r = round;
            List<Callable<Void>> writers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                GeoParquetArchive engine = w == 0 ? archive.archive : second;
                Group anchor = archive.initial.get(cells.get(w)).get(0);
                writers.add(() -> {
                    List<DeltaRow> rows = new ArrayList<>();
                    for (int k = 0; k < 300; k++) {
                        rows.add(DeltaRow.upsert(ParcelArchive.withNewKey(anchor, "same-" + r + "-" + k)));
                    }
                    retryingConflicts(
                            () -> ParcelArchive.apply(engine, cellOf(archive, anchor), WriteMode.UPSERT, rows));
                    return null;
                });
            }
            runAll(writers);
        }
        Map<String, Integer> copies = new TreeMap<>();
        for (List<Object> row : DuckDb.query(
                "SELECT parcel_id, count(*) FROM read_parquet(?, hive_partitioning = true) GROUP BY parcel_id",
                archive.root + "/*/*.parquet")) {
            copies.put((String) row.get(0), ((Number) row.get(1)).intValue());
        }
        assertEquals(300 + 6 * 300, copies.size(), "every key is there");
        assertEquals(Set.of(1), Set.copyOf(copies.values()), "no key is held twice");
        assertConsistent(archive.archive, 300 + 6 * 300);
    }

    @Test
    void manyThreadsOnTwoEnginesEndWhereASerialOrderEnds() throws Exception {
        runThreads(300, 6, 8, 101);
    }

    @Test
    @Tag("heavy")
    void manyThreadsOnTwoEnginesForManyRounds() throws Exception {
        runThreads(600, 8, 60, 202);
    }

    @Test
    void twoJvmsEndWhereASerialOrderEnds() throws Exception {
        runProcesses(2, 10, 303);
    }

    @Test
    @Tag("heavy")
    void threeJvmsForManyRounds() throws Exception {
        runProcesses(3, 60, 404);
    }

    private void runThreads(int parcels, int threads, int operations, long seed) throws Exception {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("threads"), parcels);
        KeyWorkload workload = KeyWorkload.over(archive, 5, 40, 40, seed, threads, operations);
        Map<String, String> initial = table(archive.root);
        List<GeoParquetArchive> engines = List.of(archive.archive, secondEngine(archive));
        List<Callable<Integer>> writers = new ArrayList<>();
        for (int w = 0; w < threads; w++) {
            int writer = w;
            writers.add(() -> workload.run(engines.get(writer % engines.size()), writer));
        }
        int resent = runAll(writers).stream().mapToInt(Integer::intValue).sum();
        Map<String, String> expected = workload.expected(initial);
        assertEquals(expected, table(archive.root), "DuckDB reads what a serial order of the operations makes");
        assertConsistent(archive.archive, expected.size());
        assertIndexExact(archive);
        System.out.println("key linearizability, " + threads + " threads on 2 engines x " + operations + " runs: "
                + resent + " runs sent again after losing their attempts");
    }

    private void runProcesses(int jvms, int operations, long seed) throws Exception {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("processes"), 300);
        KeyWorkload workload = KeyWorkload.over(archive, 5, 40, 40, seed, jvms, operations);
        Map<String, String> initial = table(archive.root);
        Path spec = temp.resolve("workload.json");
        workload.save(spec);
        String java = ProcessHandle.current().info().command().orElse("java");
        List<Process> processes = new ArrayList<>();
        for (int w = 0; w < jvms; w++) {
            processes.add(new ProcessBuilder(
                            java,
                            "-Xmx256m",
                            "-cp",
                            System.getProperty("java.class.path"),
                            KeyWorkload.class.getName(),
                            spec.toString(),
                            archive.root.toString(),
                            String.valueOf(w))
                    .redirectErrorStream(true)
                    .redirectOutput(temp.resolve("writer-" + w + ".log").toFile())
                    .start());
        }
        try {
            for (int w = 0; w < jvms; w++) {
                assertTrue(processes.get(w).waitFor(10, TimeUnit.MINUTES), "writer " + w + " finished");
                assertEquals(
                        0,
                        processes.get(w).exitValue(),
                        "writer " + w + ": " + Files.readString(temp.resolve("writer-" + w + ".log")));
                assertTrue(Files.exists(Path.of(spec + "." + w + ".done")), "writer " + w + " ran every operation");
            }
        } finally {
            processes.forEach(Process::destroyForcibly);
        }
        Map<String, String> expected = workload.expected(initial);
        assertEquals(expected, table(archive.root), "DuckDB reads what a serial order of the operations makes");
        assertConsistent(archive.archive, expected.size());
        assertIndexExact(archive);
    }

    /** The same directory through another path: another engine, with its own in-process locks, as another node. */
    private GeoParquetArchive secondEngine(ParcelArchive archive) throws IOException {
        Path alias = Files.createSymbolicLink(temp.resolve("alias-" + archive.root.getFileName()), archive.root);
        return GeoParquetArchive.open(new LocalArchiveStorage(alias));
    }

    private static String cellOf(ParcelArchive archive, Group row) {
        return archive.archive
                .keyer()
                .cellOf(archive.archive.geometryCodec().decode(row, 0), archive.archive.sourceCrs());
    }

    @FunctionalInterface
    private interface Write {
        void run() throws IOException;
    }

    /** Sends an operation again when the engine gave up after losing its commit attempts, as NiFi's retry queue would. */
    private static void retryingConflicts(Write write) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                return;
            } catch (CommitConflictException conflict) {
                if (attempt == 50) {
                    throw conflict;
                }
            }
        }
    }

    private static <T> List<T> runAll(List<Callable<T>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<T> results = new ArrayList<>();
            for (Future<T> future : pool.invokeAll(tasks)) {
                results.add(future.get());
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    /** key -> "cell area" as DuckDB reads the directory; fails on a key held twice. */
    private static Map<String, String> table(Path root) {
        Map<String, String> table = new TreeMap<>();
        for (List<Object> row : DuckDb.query(
                "SELECT parcel_id, h3_cell, area_m2 FROM read_parquet(?, hive_partitioning = true)",
                root + "/*/*.parquet")) {
            String previous = table.put((String) row.get(0), row.get(1) + " " + ((Number) row.get(2)).doubleValue());
            assertEquals(null, previous, "key " + row.get(0) + " is held twice");
        }
        return table;
    }

    private static void assertConsistent(GeoParquetArchive archive, long rows) throws IOException {
        VerificationReport report =
                new ArchiveVerifier(archive).verify(VerifyOptions.wholeArchive().expectingRows(rows));
        assertTrue(report.consistent(), report.toString() + ": " + report.problems());
    }

    /** The key index names exactly the cell every key is in. */
    private static void assertIndexExact(ParcelArchive archive) throws IOException {
        Map<String, String> cells = archive.readCells();
        Map<FeatureKey, Set<String>> candidates = new KeyIndex(archive.archive)
                .candidates(cells.keySet().stream()
                        .map(key -> new FeatureKey(List.of(key)))
                        .toList());
        cells.forEach((key, cell) ->
                assertEquals(Set.of(cell), candidates.get(new FeatureKey(List.of(key))), "index of " + key));
    }
}
