package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import org.apache.parquet.example.data.Group;

/**
 * Scenario 6, scaling: archives of a growing number of partitions of constant size, the largest as many as the
 * guide's archive has, take the same delta landing in one partition. The engine (warm, as the archive service keeps
 * its archive), the naive full rewrite and DuckDB's full rewrite run on fresh copies of every size: one unmeasured round
 * of all of them first, then {@code repeats} rounds, each visiting the sizes in a random order and the approaches in an
 * order that turns each round. Medians and spreads are kept; every copy's DuckDB digest must equal the engine's first
 * copy of its size, whose rows DuckDB counts against the archive's rows plus the delta's net rows, one per key.
 */
final class ScalingScenario {

    enum Approach {
        ENGINE("incremental"),
        NAIVE_FULL_REWRITE("naiveFullRewrite"),
        DUCKDB_FULL_REWRITE("duckdbFullRewrite");

        final String key;

        Approach(String key) {
            this.key = key;
        }
    }

    private ScalingScenario() {}

    static void run(
            List<Integer> partitionCounts,
            int rowsPerPartition,
            int deltaRows,
            int repeats,
            long seed,
            Path work,
            ObjectNode out)
            throws Exception {
        Archives.deleteTree(work);
        Files.createDirectories(work);
        Path grown = work.resolve("grown");
        GeoParquetArchive archive =
                Archives.create(grown, RowModel.current().footer(), NightlyDeltaScenario.RESOLUTION);
        CellParcels generator = new CellParcels(NightlyDeltaScenario.RESOLUTION, seed);
        List<String> cells = generator.cellsAround(4.35, 50.85, Collections.max(partitionCounts));
        // One archive grown partition by partition, a copy of it kept at every size.
        Map<Integer, Path> sizes = new LinkedHashMap<>();
        Archives.Loader loader = new Archives.Loader(archive);
        int loaded = 0;
        for (int count : partitionCounts) {
            for (; loaded < count; loaded++) {
                String cell = cells.get(loaded);
                loader.partition(cell, rows(generator, cell, (long) loaded * rowsPerPartition, rowsPerPartition));
            }
            loader.finish();
            Path size = work.resolve("archive-" + count);
            Archives.linkCopy(grown, size);
            sizes.put(count, size);
        }
        Delta delta = delta(generator, cells.get(0), deltaRows, rowsPerPartition);
        Path deltaFile = work.resolve("delta.parquet");
        delta.writeParquet(deltaFile);
        out.put("rowsPerPartition", rowsPerPartition);
        out.put("deltaFeatures", deltaRows);
        out.put("repeats", repeats);
        int cores = Runtime.getRuntime().availableProcessors();
        Random order = new Random(seed);
        Map<Integer, Map<Approach, List<Probe.Measurement>>> runs = new LinkedHashMap<>();
        Map<Integer, Rounds.Copies> copies = new LinkedHashMap<>();
        try (DuckDb duck = new DuckDb();
                DuckDb referee = new DuckDb()) {
            duck.execute("SET enable_geoparquet_conversion = false");
            for (int count : partitionCounts) {
                copies.put(
                        count, new Rounds.Copies(referee, (long) count * rowsPerPartition + delta.expectedNetRows()));
            }
            for (int round = -1; round < repeats; round++) {
                List<Integer> shuffled = new ArrayList<>(partitionCounts);
                Collections.shuffle(shuffled, order);
                for (int count : shuffled) {
                    Path pristine = sizes.get(count);
                    for (int k = 0; k < Approach.values().length; k++) {
                        Approach approach = Rounds.inTurn(Approach.values(), round, k);
                        Path root = work.resolve(approach.key + "-" + count);
                        Probe.Measurement measured = switch (approach) {
                            case ENGINE ->
                                NightlyDeltaScenario.IncrementalRun.of(
                                                pristine,
                                                root,
                                                delta,
                                                WriteMode.UPSERT,
                                                1,
                                                Delta.PARTITIONS_PER_RUN,
                                                cores,
                                                true)
                                        .timed()
                                        .measurement();
                            case NAIVE_FULL_REWRITE ->
                                Probe.measure(() -> NaiveFullRewrite.run(
                                                pristine,
                                                delta,
                                                root,
                                                archive.schema(),
                                                archive.canonicalFooter(),
                                                WriterSettings.defaults()))
                                        .measurement();
                            case DUCKDB_FULL_REWRITE ->
                                Probe.measure(() -> {
                                            duck.execute(
                                                    NightlyDeltaScenario.fullRewriteSql(pristine, deltaFile, root));
                                            Archives.forceTree(root);
                                            return null;
                                        })
                                        .measurement();
                        };
                        copies.get(count).check(root, approach == Approach.ENGINE, round >= 0);
                        Archives.deleteTree(root);
                        if (round >= 0) {
                            runs.computeIfAbsent(count, c -> new EnumMap<>(Approach.class))
                                    .computeIfAbsent(approach, a -> new ArrayList<>())
                                    .add(measured);
                        }
                    }
                }
            }
        }
        ObjectNode verification = out.putObject("verification");
        verification.put(
                "measuredCopiesVerified",
                copies.values().stream().mapToLong(Rounds.Copies::verified).sum());
        verification.put(
                "measuredCopiesDifferingFromTheReference",
                copies.values().stream().mapToLong(Rounds.Copies::differing).sum());
        verification.put("holds", copies.values().stream().allMatch(Rounds.Copies::holds));
        ArrayNode points = out.putArray("points");
        for (int count : partitionCounts) {
            points.add(point(
                    count, sizes.get(count), runs.get(count), copies.get(count).verification()));
        }
        Archives.deleteTree(work);
        ObjectNode smallest = (ObjectNode) points.get(0);
        ObjectNode largest = (ObjectNode) points.get(points.size() - 1);
        out.put(
                "incrementalTimeRatioLargestOverSmallest",
                largest.path("incrementalMedianSeconds").asDouble()
                        / smallest.path("incrementalMedianSeconds").asDouble());
        out.put(
                "naiveFullRewriteTimeRatioLargestOverSmallest",
                largest.path("naiveFullRewriteSeconds").asDouble()
                        / smallest.path("naiveFullRewriteSeconds").asDouble());
        out.put(
                "duckdbFullRewriteTimeRatioLargestOverSmallest",
                largest.path("duckdbFullRewriteSeconds").asDouble()
                        / smallest.path("duckdbFullRewriteSeconds").asDouble());
        out.put(
                "incrementalCpuRatioLargestOverSmallest",
                largest.path("incrementalMedianCpuSeconds").asDouble()
                        / smallest.path("incrementalMedianCpuSeconds").asDouble());
    }

    private static ObjectNode point(
            int partitions, Path archive, Map<Approach, List<Probe.Measurement>> runs, ObjectNode verification)
            throws Exception {
        ObjectNode point = JsonNodeFactory.instance.objectNode();
        point.put("partitions", partitions);
        point.put("archiveDataBytes", Archives.dataBytes(archive));
        for (Map.Entry<Approach, List<Probe.Measurement>> entry : runs.entrySet()) {
            List<Probe.Measurement> measured = entry.getValue();
            Probe.Measurement median = Probe.median(measured, Probe.Measurement::seconds);
            String key = entry.getKey().key;
            point.put(key + (entry.getKey() == Approach.ENGINE ? "MedianSeconds" : "Seconds"), median.seconds());
            point.put(key + "MedianCpuSeconds", median.cpuSeconds());
            Rounds.putWallSeconds(
                    point.putObject(key),
                    measured.stream().map(Probe.Measurement::seconds).toList());
        }
        double incremental = point.path("incrementalMedianSeconds").asDouble();
        point.put("naiveOverIncremental", point.path("naiveFullRewriteSeconds").asDouble() / incremental);
        point.put(
                "duckdbOverIncremental", point.path("duckdbFullRewriteSeconds").asDouble() / incremental);
        point.set("verification", verification);
        return point;
    }

    /**
     * The delta: four fifths of it updates parcels of the first partition (loaded first, so numbered from 0), the rest
     * new parcels in it.
     */
    private static Delta delta(CellParcels generator, String target, int deltaRows, int rowsPerPartition) {
        List<Delta.Change> changes = new ArrayList<>();
        int updates = Math.min(deltaRows * 4 / 5, rowsPerPartition);
        for (long i = 0; i < updates; i++) {
            ParcelWorld.Parcel parcel = generator.parcel(target, ParcelWorld.id(i), i);
            parcel = parcel.withLandUse(
                    (parcel.landUse() + 1) % RowModel.current().landUses());
            changes.add(
                    new Delta.Change(parcel.row(ParcelArchive.CHANGED_AT_MICROS), target, false, Delta.Kind.UPDATE));
        }
        for (long n = 1_000_000_000L; changes.size() < deltaRows; n++) {
            ParcelWorld.Parcel parcel = generator.parcel(target, ParcelWorld.id(n), n);
            changes.add(new Delta.Change(parcel.row(ParcelArchive.CHANGED_AT_MICROS), target, false, Delta.Kind.NEW));
        }
        return new Delta(changes);
    }

    private static Iterator<Group> rows(CellParcels generator, String cell, long first, int count) {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < count;
            }

            @Override
            public Group next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                long i = first + next++;
                // Parcels of the first partition are numbered 0.. so that the delta can find them by index.
                return generator.parcel(cell, ParcelWorld.id(i), i).row(ParcelWorld.LOADED_AT_MICROS);
            }
        };
    }
}
