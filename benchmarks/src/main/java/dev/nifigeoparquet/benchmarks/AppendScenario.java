package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import org.apache.parquet.io.LocalOutputFile;

/**
 * Scenario 2, append: new parcels only, into the nightly scenario's touched partitions. The engine's Append
 * (which checks that no key exists yet and commits under the protocol), DuckDB's partitioned
 * {@code COPY ... (PARTITION_BY (h3_cell), APPEND)}, and what pyarrow's {@code write_to_dataset} with
 * {@code existing_data_behavior='overwrite_or_append'} does: one new file per touched partition, nothing else,
 * written here with the engine's Parquet writer. The engine's Append is measured twice: on a freshly opened archive,
 * as the command line runs it, and on one warmed as a NiFi archive service's archive is after earlier nights
 * ({@link NightlyDeltaScenario#warmAsAService}).
 */
final class AppendScenario {

    private static final int REPEATS = 5;

    private AppendScenario() {}

    static void run(NightlyDeltaScenario.Prepared prepared, int rows, long seed, Path work, ObjectNode out)
            throws Exception {
        ParcelArchive source = prepared.archive();
        Archives.deleteTree(work);
        Files.createDirectories(work);
        Set<String> touched = new HashSet<>();
        prepared.touched().forEach(c -> touched.add(source.cells.get(c)));
        int[] pool = prepared.touched().stream()
                .flatMapToInt(c -> Arrays.stream(source.parcelsIn(c)))
                .toArray();
        Delta delta = new Delta(source.newParcels(
                pool,
                rows,
                source.rows + 10_000_000L,
                touched,
                new SplittableRandom(seed),
                new H3Keyer(NightlyDeltaScenario.RESOLUTION)));
        Path deltaFile = work.resolve("append-delta.parquet");
        delta.writeParquet(deltaFile);
        long expected = (long) source.rows + rows;
        out.put("appendedFeatures", rows);
        out.put("partitions", delta.rowsByCell().size());

        // The engine's Append is warmed up on throwaway copies until the JIT compilers have settled, like scenario 1's
        // upsert; then each approach runs REPEATS times, interleaved, on fresh copies, and the run of median time is
        // reported and reconciled.
        JitWarmUp.untilSettled(() -> {
                    Path warm = work.resolve("warm-up");
                    Archives.linkCopy(source.root, warm);
                    delta.applyIncrementally(Archives.open(warm), WriteMode.APPEND);
                    Archives.deleteTree(warm);
                })
                .putInto(out);

        List<Run> engineRuns = new ArrayList<>();
        List<Run> warmRuns = new ArrayList<>();
        List<Run> duckRuns = new ArrayList<>();
        List<Run> pyRuns = new ArrayList<>();
        GeoParquetArchive archive = Archives.open(source.root);
        String sql;
        ObjectNode rec = out.putObject("reconciliation");
        ObjectNode e;
        ObjectNode w;
        ObjectNode d;
        ObjectNode p;
        try (DuckDb duck = new DuckDb()) {
            duck.execute("SET enable_geoparquet_conversion = false");
            sql = null;
            for (int r = 0; r < REPEATS; r++) {
                engineRuns.add(engineRun(source.root, work.resolve("engine-" + r), delta, false));
                warmRuns.add(engineRun(source.root, work.resolve("engine-warm-service-" + r), delta, true));

                Path duckRoot = work.resolve("duckdb-" + r);
                Archives.linkCopy(source.root, duckRoot);
                long filesBefore = Archives.dataFiles(duckRoot);
                long bytesBefore = Archives.dataBytes(duckRoot);
                sql = "COPY (SELECT " + RowModel.current().columnList("") + ", h3_cell FROM read_parquet("
                        + DuckDb.literal(deltaFile) + ")) TO " + DuckDb.literal(duckRoot)
                        + " (FORMAT parquet, PARTITION_BY (h3_cell), APPEND, COMPRESSION zstd, COMPRESSION_LEVEL 3,"
                        + " ROW_GROUP_SIZE 100000)";
                String statement = sql;
                var duckRun = Probe.measure(() -> {
                    duck.execute(statement);
                    return null;
                });
                duckRuns.add(new Run(
                        duckRoot,
                        NightlyDeltaScenario.approach(
                                duckRun.measurement(),
                                Files.size(deltaFile),
                                Archives.dataBytes(duckRoot) - bytesBefore,
                                0,
                                0,
                                Archives.dataFiles(duckRoot) - filesBefore,
                                0,
                                delta.rowsByCell().size())));

                Path pyRoot = work.resolve("pyarrow-style-" + r);
                Archives.linkCopy(source.root, pyRoot);
                var pyRun = Probe.measure(() -> writeOneFilePerPartition(delta, pyRoot, archive));
                pyRuns.add(new Run(
                        pyRoot,
                        NightlyDeltaScenario.approach(
                                pyRun.measurement(),
                                0,
                                pyRun.value(),
                                0,
                                0,
                                delta.rowsByCell().size(),
                                0,
                                delta.rowsByCell().size())));
            }
            Run engine = Run.median(engineRuns);
            Run engineWarm = Run.median(warmRuns);
            Run duckdb = Run.median(duckRuns);
            Run pyarrow = Run.median(pyRuns);
            rec.put("expectedAfter", expected);
            rec.put("engineCountedByDuckDb", duck.countRows(engine.root()));
            rec.put("engineWarmServiceCountedByDuckDb", duck.countRows(engineWarm.root()));
            rec.put("duckdbCountedByDuckDb", duck.countRows(duckdb.root()));
            rec.put("pyarrowStyleCountedByDuckDb", duck.countRows(pyarrow.root()));
            rec.put(
                    "holds",
                    rec.get("engineCountedByDuckDb").asLong() == expected
                            && rec.get("engineWarmServiceCountedByDuckDb").asLong() == expected
                            && rec.get("duckdbCountedByDuckDb").asLong() == expected
                            && rec.get("pyarrowStyleCountedByDuckDb").asLong() == expected);
            e = engine.json();
            w = engineWarm.json();
            d = duckdb.json();
            p = pyarrow.json();
        }
        e.set("wallSecondsOfEachRun", Run.times(engineRuns));
        w.set("wallSecondsOfEachRun", Run.times(warmRuns));
        d.set("wallSecondsOfEachRun", Run.times(duckRuns));
        p.set("wallSecondsOfEachRun", Run.times(pyRuns));
        d.put("sql", sql);
        out.put("repeats", REPEATS);
        ObjectNode approaches = out.putObject("approaches");
        approaches.set("engineAppend", e);
        approaches.set("engineAppendWarmService", w);
        approaches.set("duckdbPartitionedAppend", d);
        approaches.set("pyarrowStyleNewFilePerPartition", p);
        ObjectNode ratios = out.putObject("ratios");
        double seconds = e.get("wallSeconds").asDouble();
        ratios.put("engineTimeOverDuckDb", seconds / d.get("wallSeconds").asDouble());
        ratios.put("engineTimeOverPyarrowStyle", seconds / p.get("wallSeconds").asDouble());
        ratios.put(
                "engineWarmServiceTimeOverDuckDb",
                w.get("wallSeconds").asDouble() / d.get("wallSeconds").asDouble());
        ratios.put(
                "engineDataBytesOverDuckDb",
                e.get("dataBytesWritten").asDouble() / d.get("dataBytesWritten").asDouble());
    }

    /** One run of an approach on its own copy of the archive. */
    private record Run(Path root, ObjectNode json) {

        double seconds() {
            return json.get("wallSeconds").asDouble();
        }

        /** The run of median wall time (the middle one of five). */
        static Run median(List<Run> runs) {
            return Probe.median(runs, Run::seconds);
        }

        static ArrayNode times(List<Run> runs) {
            ArrayNode times = JsonNodeFactory.instance.arrayNode();
            runs.forEach(run -> times.add(run.seconds()));
            return times;
        }
    }

    /** The engine's Append on its own copy of the archive, opened afresh or warmed as a service's is. */
    private static Run engineRun(Path source, Path root, Delta delta, boolean warmService) throws Exception {
        NightlyDeltaScenario.IncrementalRun run = NightlyDeltaScenario.IncrementalRun.of(
                source,
                root,
                delta,
                WriteMode.APPEND,
                1,
                Delta.PARTITIONS_PER_RUN,
                Workers.defaultParallelism(),
                warmService);
        return new Run(root, run.json());
    }

    /** pyarrow's append, in Java: a new uniquely named file in each touched partition; no key check, no commit. */
    private static long writeOneFilePerPartition(Delta delta, Path root, GeoParquetArchive archive) throws Exception {
        long bytes = 0;
        for (Map.Entry<String, List<DeltaRow>> cell : delta.rowsByCell().entrySet()) {
            Path dir = root.resolve("h3_cell=" + cell.getKey());
            Files.createDirectories(dir);
            Path file = dir.resolve(UUID.randomUUID() + "-0.parquet");
            try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                    new LocalOutputFile(file),
                    file.toString(),
                    archive.schema(),
                    archive.canonicalFooter(),
                    WriterSettings.defaults())) {
                for (var row : cell.getValue()) {
                    writer.write(row.row());
                }
                bytes += writer.finish().bytes();
            }
        }
        return bytes;
    }
}
