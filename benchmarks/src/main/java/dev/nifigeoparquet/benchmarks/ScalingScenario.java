package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.parquet.example.data.Group;

/**
 * Scenario 6, scaling: the archive grows by whole partitions of constant size (1x, 4x, 16x the base count) while
 * the delta stays the same size and lands in one partition. At each size the incremental upsert runs
 * {@code repeats} times (each a new delta: other keys updated, other new keys) and the median is kept; the naive
 * full rewrite and DuckDB's rewrite run once on the same archive.
 */
final class ScalingScenario {

    private static final int[] FACTORS = {1, 4, 16};

    private ScalingScenario() {}

    static void run(
            int basePartitions, int rowsPerPartition, int deltaRows, int repeats, long seed, Path work, ObjectNode out)
            throws Exception {
        Archives.deleteTree(work);
        Files.createDirectories(work);
        Path root = work.resolve("archive");
        GeoParquetArchive archive = Archives.create(root, RowModel.current().footer(), NightlyDeltaScenario.RESOLUTION);
        CellParcels generator = new CellParcels(NightlyDeltaScenario.RESOLUTION, seed);
        List<String> cells = generator.cellsAround(4.35, 50.85, basePartitions * FACTORS[FACTORS.length - 1]);
        Archives.Loader loader = new Archives.Loader(archive);
        out.put("rowsPerPartition", rowsPerPartition);
        out.put("deltaFeatures", deltaRows);
        out.put("repeats", repeats);
        ArrayNode points = out.putArray("points");
        int loaded = 0;
        long nextNewId = 1_000_000_000L;
        int nextUpdate = 0;
        String target = cells.get(0);
        for (int factor : FACTORS) {
            int partitions = basePartitions * factor;
            for (; loaded < partitions; loaded++) {
                String cell = cells.get(loaded);
                long first = (long) loaded * rowsPerPartition;
                loader.partition(cell, rows(generator, cell, first, rowsPerPartition));
            }
            loader.finish();
            double[] seconds = new double[repeats];
            double[] cpu = new double[repeats];
            long bytesWritten = 0;
            for (int r = 0; r < repeats; r++) {
                List<Delta.Change> changes = new ArrayList<>();
                int updates = deltaRows * 4 / 5;
                for (int u = 0; u < updates; u++, nextUpdate++) {
                    long i = nextUpdate % rowsPerPartition; // parcels of the target partition (loaded first)
                    ParcelWorld.Parcel parcel = generator.parcel(target, ParcelWorld.id(i), i);
                    parcel = parcel.withLandUse(
                            (parcel.landUse() + 1 + r) % RowModel.current().landUses());
                    changes.add(new Delta.Change(
                            parcel.row(ParcelArchive.CHANGED_AT_MICROS + 1_000_000L * (factor * 10 + r)),
                            target,
                            false,
                            Delta.Kind.UPDATE));
                }
                for (int n = updates; n < deltaRows; n++, nextNewId++) {
                    ParcelWorld.Parcel parcel = generator.parcel(target, ParcelWorld.id(nextNewId), nextNewId);
                    changes.add(new Delta.Change(
                            parcel.row(ParcelArchive.CHANGED_AT_MICROS), target, false, Delta.Kind.NEW));
                }
                Delta delta = new Delta(changes);
                var timed = Probe.measure(() -> delta.applyIncrementally(archive, WriteMode.UPSERT));
                seconds[r] = timed.measurement().seconds();
                cpu[r] = timed.measurement().cpuSeconds();
                bytesWritten = timed.value().bytesWritten();
                if (r == repeats - 1) {
                    ObjectNode point = points.addObject();
                    double[] sortedCpu = cpu.clone();
                    Arrays.sort(sortedCpu);
                    point.put("incrementalMedianCpuSeconds", sortedCpu[sortedCpu.length / 2]);
                    measureFullRewrites(archive, root, delta, work, point, partitions, factor, seconds, bytesWritten);
                }
            }
        }
        ObjectNode first = (ObjectNode) points.get(0);
        ObjectNode last = (ObjectNode) points.get(points.size() - 1);
        out.put(
                "incrementalTimeRatio16xOver1x",
                last.get("incrementalMedianSeconds").asDouble()
                        / first.get("incrementalMedianSeconds").asDouble());
        out.put(
                "incrementalCpuRatio16xOver1x",
                last.get("incrementalMedianCpuSeconds").asDouble()
                        / first.get("incrementalMedianCpuSeconds").asDouble());
        out.put(
                "naiveFullRewriteTimeRatio16xOver1x",
                last.get("naiveFullRewriteSeconds").asDouble()
                        / first.get("naiveFullRewriteSeconds").asDouble());
        out.put(
                "duckdbFullRewriteTimeRatio16xOver1x",
                last.get("duckdbFullRewriteSeconds").asDouble()
                        / first.get("duckdbFullRewriteSeconds").asDouble());
    }

    /**
     * The last delta of a size is not applied again: the full rewrites read the archive as it is now (after it) and
     * apply it once more, which for an upsert is the same amount of work.
     */
    private static void measureFullRewrites(
            GeoParquetArchive archive,
            Path root,
            Delta delta,
            Path work,
            ObjectNode point,
            int partitions,
            int factor,
            double[] seconds,
            long incBytesWritten)
            throws Exception {
        double[] sorted = seconds.clone();
        Arrays.sort(sorted);
        point.put("factor", factor);
        point.put("partitions", partitions);
        point.put("archiveDataBytes", Archives.dataBytes(root));
        point.put("incrementalMedianSeconds", sorted[sorted.length / 2]);
        point.put("incrementalSeconds", Arrays.toString(seconds));
        point.put("incrementalDataBytesWritten", incBytesWritten);
        Path naiveOut = work.resolve("naive-" + factor);
        var naive = Probe.measure(() -> NaiveFullRewrite.run(
                root, delta, naiveOut, archive.schema(), archive.canonicalFooter(), WriterSettings.defaults()));
        point.put("naiveFullRewriteSeconds", naive.measurement().seconds());
        point.put("naiveFullRewriteCpuSeconds", naive.measurement().cpuSeconds());
        point.put("naiveFullRewriteBytesWritten", naive.value().bytesWritten());
        Archives.deleteTree(naiveOut);
        Path deltaFile = work.resolve("delta-" + factor + ".parquet");
        delta.writeParquet(deltaFile);
        Path duckOut = work.resolve("duckdb-" + factor);
        try (DuckDb duck = new DuckDb()) {
            duck.execute("SET enable_geoparquet_conversion = false");
            String sql = NightlyDeltaScenario.fullRewriteSql(root, deltaFile, duckOut);
            var run = Probe.measure(() -> {
                duck.execute(sql);
                return null;
            });
            point.put("duckdbFullRewriteSeconds", run.measurement().seconds());
        }
        Archives.deleteTree(duckOut);
        point.put(
                "naiveOverIncremental",
                naive.measurement().seconds()
                        / point.get("incrementalMedianSeconds").asDouble());
        point.put(
                "duckdbOverIncremental",
                point.get("duckdbFullRewriteSeconds").asDouble()
                        / point.get("incrementalMedianSeconds").asDouble());
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
                // Parcels of the first partition are numbered 0.. so that the deltas can find them by index.
                return generator.parcel(cell, ParcelWorld.id(i), i).row(ParcelWorld.LOADED_AT_MICROS);
            }
        };
    }
}
