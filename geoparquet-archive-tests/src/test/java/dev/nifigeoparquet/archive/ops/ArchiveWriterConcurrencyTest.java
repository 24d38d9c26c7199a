package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.edited;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.key;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.withNewKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Concurrent writers: no update is lost, whether they share a JVM lock or only the exclusive commit. */
class ArchiveWriterConcurrencyTest {

    @TempDir
    Path temp;

    @Test
    void fourThreadsUpsertingIntoOnePartitionLoseNoUpdate() throws Exception {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("one"), 1500);
        String cell = archive.largestCell();
        Map<String, Double> expected = new TreeMap<>(archive.readAreas());
        List<Callable<OperationResult>> tasks = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            tasks.add(upsertTask(archive.archive, archive, cell, t, expected));
        }
        List<OperationResult> results = runAll(tasks);
        assertEquals(expected, archive.readAreas(), "every thread's updates and inserts are in the archive");
        assertEquals(4, results.stream().filter(r -> !r.replay()).count());
    }

    @Test
    void twoEngineInstancesOnOneDirectoryRaceOnlyThroughTheExclusiveCommit() throws Exception {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("shared"), 1500);
        String cell = archive.largestCell();
        // A second path to the same directory: a separate engine instance with its own in-JVM locks, like a second
        // NiFi node on shared storage. Only the exclusive commit keeps the two from losing each other's updates.
        Path alias = Files.createSymbolicLink(temp.resolve("alias"), archive.root);
        GeoParquetArchive second = GeoParquetArchive.open(new LocalArchiveStorage(alias));
        Map<String, Double> expected = new TreeMap<>(archive.readAreas());
        List<Callable<OperationResult>> tasks = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
            tasks.add(upsertTask(t % 2 == 0 ? archive.archive : second, archive, cell, t, expected));
        }
        runAll(tasks);
        assertEquals(expected, archive.readAreas(), "no lost update across engine instances");
        assertEquals(
                expected.size(),
                archive.archive.partitionState(cell).rowCount()
                        + archive.initial.keySet().stream()
                                .filter(c -> !c.equals(cell))
                                .mapToLong(c -> archive.initial.get(c).size())
                                .sum());
    }

    @Test
    void fourThreadsOnFourPartitionsAllSucceed() throws Exception {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("four"), 1500);
        List<String> cells = archive.initial.entrySet().stream()
                .sorted((a, b) -> b.getValue().size() - a.getValue().size())
                .limit(4)
                .map(Map.Entry::getKey)
                .toList();
        Map<String, Double> expected = new TreeMap<>(archive.readAreas());
        List<Callable<OperationResult>> tasks = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            tasks.add(upsertTask(archive.archive, archive, cells.get(t), t, expected));
        }
        List<OperationResult> results = runAll(tasks);
        assertEquals(expected, archive.readAreas());
        for (int t = 0; t < 4; t++) {
            assertEquals(List.of(cells.get(t)), results.get(t).partitionsTouched());
        }
    }

    /** Thread t updates its own slice of the partition's rows and inserts its own new keys. */
    private static Callable<OperationResult> upsertTask(
            GeoParquetArchive engine, ParcelArchive archive, String cell, int t, Map<String, Double> expected) {
        List<Group> existing = archive.initial.get(cell);
        List<Group> delta = new ArrayList<>();
        synchronized (expected) {
            for (int i = t; i < existing.size() && delta.size() < 5; i += 8) {
                double area = 10_000 + t * 100 + i;
                delta.add(edited(existing.get(i), area, BASE_TIME.plusSeconds(10)));
                expected.put(key(existing.get(i)), area);
            }
            for (int i = 0; i < 5; i++) {
                Group row = withNewKey(existing.get(i), "thread-" + t + "-" + i);
                delta.add(row);
                expected.put(key(row), row.getDouble("area_m2", 0));
            }
        }
        return () -> ParcelArchive.apply(
                engine,
                cell,
                WriteMode.UPSERT,
                delta.stream().map(DeltaRow::upsert).toList());
    }

    private static List<OperationResult> runAll(List<Callable<OperationResult>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(tasks.size());
        try {
            List<Future<OperationResult>> futures = pool.invokeAll(tasks);
            List<OperationResult> results = new ArrayList<>();
            for (Future<OperationResult> future : futures) {
                results.add(future.get());
            }
            assertTrue(results.stream().noneMatch(OperationResult::replay));
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
