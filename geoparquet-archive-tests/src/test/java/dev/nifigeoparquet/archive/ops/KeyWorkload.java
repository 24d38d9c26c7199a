package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.CommitConflictException;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;

/**
 * A random workload of concurrent writers on one archive, reproducible from its seed: each writer runs operations, each
 * a run of one to three batches that upsert random keys of a shared pool (stored keys and new ones) into random cells of
 * a shared set, so writers keep inserting, updating and moving the same keys into different partitions at once. Every
 * write carries a version unique across all writers, so applying the operations serially in any order ends with, for
 * each key, its highest-versioned row: that is what the archive must hold after any interleaving.
 *
 * @param cells        the cells written to
 * @param anchors      for each cell, a WKB geometry whose centroid lies in it (hexadecimal)
 * @param keys         the key pool
 * @param seed         the seed of every writer's choices
 * @param writers      how many writers share the workload
 * @param operations   operations per writer
 */
record KeyWorkload(
        List<String> cells, List<String> anchors, List<String> keys, long seed, int writers, int operations) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A workload over the largest cells of an archive: its stored keys there and as many new ones. */
    static KeyWorkload over(
            ParcelArchive archive, int cellCount, int storedKeys, int newKeys, long seed, int writers, int operations) {
        List<String> cells = archive.largestCells(cellCount);
        List<String> anchors = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (String cell : cells) {
            anchors.add(HexFormat.of()
                    .formatHex(archive.initial
                            .get(cell)
                            .get(0)
                            .getBinary(SyntheticParcels.GEOMETRY, 0)
                            .getBytes()));
        }
        archive.initial.values().stream()
                .flatMap(List::stream)
                .limit(storedKeys)
                .forEach(row -> keys.add(ParcelArchive.key(row)));
        for (int i = 0; i < newKeys; i++) {
            keys.add("new-" + i);
        }
        return new KeyWorkload(cells, anchors, keys, seed, writers, operations);
    }

    void save(Path file) throws IOException {
        JSON.writeValue(file.toFile(), this);
    }

    static KeyWorkload load(Path file) throws IOException {
        return JSON.readValue(file.toFile(), KeyWorkload.class);
    }

    /** One write: a key's row in a cell, with its version and an area that names the write. */
    record Write(String key, int cell, long version, double area) {}

    /** Writer {@code writer}'s operations: each a list of batches, each a cell's writes. */
    List<List<List<Write>>> operationsOf(int writer) {
        Random random = new Random(seed * 1_000_003L + writer);
        List<List<List<Write>>> all = new ArrayList<>();
        for (int op = 0; op < operations; op++) {
            long version = (long) op * writers + writer + 1;
            List<String> shuffled = new ArrayList<>(keys);
            Collections.shuffle(shuffled, random);
            List<Integer> targets = new ArrayList<>();
            for (int c = 0; c < cells.size(); c++) {
                targets.add(c);
            }
            Collections.shuffle(targets, random);
            int batches = 1 + random.nextInt(3);
            int next = 0;
            List<List<Write>> run = new ArrayList<>();
            for (int b = 0; b < batches; b++) {
                List<Write> batch = new ArrayList<>();
                int size = 2 + random.nextInt(6);
                for (int k = 0; k < size; k++) {
                    batch.add(new Write(shuffled.get(next++), targets.get(b), version, version * 1000.0 + b * 100 + k));
                }
                run.add(batch);
            }
            all.add(run);
        }
        return all;
    }

    /** What the archive must hold after every writer's operations, from its initial rows: key -> (cell, area). */
    Map<String, String> expected(Map<String, String> initial) {
        Map<String, Write> latest = new LinkedHashMap<>();
        for (int writer = 0; writer < writers; writer++) {
            for (List<List<Write>> run : operationsOf(writer)) {
                run.forEach(batch -> batch.forEach(
                        write -> latest.merge(write.key(), write, (a, b) -> a.version() >= b.version() ? a : b)));
            }
        }
        Map<String, String> expected = new TreeMap<>(initial);
        latest.forEach((key, write) -> expected.put(key, cells.get(write.cell()) + " " + write.area()));
        return expected;
    }

    /**
     * Runs writer {@code writer}'s operations. A run the engine gave up on after losing its commit attempts is sent
     * again, as NiFi's retry relationship would; returns how many runs were sent again.
     */
    int run(GeoParquetArchive archive, int writer) throws IOException {
        int resent = 0;
        for (List<List<Write>> run : operationsOf(writer)) {
            for (int attempt = 1; ; attempt++) {
                List<List<PartitionDelta>> batches = new ArrayList<>();
                for (List<Write> batch : run) {
                    String cell = cells.get(batch.get(0).cell());
                    List<DeltaRow> rows = batch.stream()
                            .map(write -> DeltaRow.upsert(row(write)))
                            .toList();
                    batches.add(List.of(PartitionDelta.prepare(archive, cell, WriteMode.UPSERT, rows, null)));
                }
                List<ArchiveWriter.BatchOutcome> outcomes = new ArchiveWriter(archive).applyAll(batches);
                Exception failure = outcomes.stream()
                        .map(ArchiveWriter.BatchOutcome::failure)
                        .filter(f -> f != null)
                        .findFirst()
                        .orElse(null);
                if (failure == null) {
                    break;
                }
                if (!(failure instanceof CommitConflictException) || attempt == 50) {
                    throw new IOException("writer " + writer + " failed: " + failure, failure);
                }
                resent++;
            }
        }
        return resent;
    }

    private Group row(Write write) {
        Group row = new SimpleGroup(SyntheticParcels.schema());
        row.add(SyntheticParcels.KEY, write.key());
        row.add("land_use", "residential");
        row.add("area_m2", write.area());
        row.add(
                SyntheticParcels.VERSION,
                ChronoUnit.MICROS.between(Instant.EPOCH, BASE_TIME.plusSeconds(3600 + write.version())));
        row.add(
                SyntheticParcels.GEOMETRY,
                Binary.fromConstantByteArray(HexFormat.of().parseHex(anchors.get(write.cell()))));
        return row;
    }

    /** A writer in its own JVM: {@code <workload.json> <archive root> <writer>}; prints how many runs it sent again. */
    public static void main(String[] args) throws IOException {
        KeyWorkload workload = load(Path.of(args[0]));
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(Path.of(args[1])));
        int resent = workload.run(archive, Integer.parseInt(args[2]));
        Files.writeString(Path.of(args[0] + "." + args[2] + ".done"), String.valueOf(resent));
        System.out.println("writer " + args[2] + " done, " + resent + " runs sent again");
    }
}
