package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.ops.WriteMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;

/**
 * Scenario 7, locality: nights of the same size touching about 2%, 10%, 50% and 100% of the archive's bytes (any
 * partition eligible, the largest too; at 100% every partition gets a change), and one night drawn uniformly from all
 * rows. At each, the engine as the archive service runs it (warm, every core) against DuckDB doing the same partition
 * work ({@link DuckDbSameWork}) and DuckDB rewriting the whole archive, its files forced to disk as the other two
 * force theirs; at the nights of {@link #ONE_THREAD_TOO}, the engine and the same work also held to one thread each.
 * Each approach runs once unmeasured, then {@link #ROUNDS} times, interleaved in an order that turns each round, each
 * on its own copy; the digest of every measured copy must equal the unmeasured engine copy's, whose rows DuckDB counts
 * against the delta's net rows and whose keys it checks are distinct ({@link Rounds.Copies}). The unmeasured runs of the engine and of the
 * same work count the files and directories they force to disk ({@link FileForces}).
 */
final class LocalityScenario {

    static final double[] SHARES_OF_BYTES = {0.02, 0.10, 0.50, 1.00};
    /**
     * The nights at which the engine and DuckDB's same work also run held to one thread each, for their bytes per
     * second without the second core: a few partitions and many.
     */
    static final Set<Double> ONE_THREAD_TOO = Set.of(0.10, 0.50);

    static final int ROUNDS = 5;

    enum Approach {
        ENGINE("engine"),
        DUCKDB_SAME_WORK("duckDbSameWork"),
        DUCKDB_FULL_REWRITE("duckDbFullRewrite"),
        ENGINE_ONE_THREAD("engineOneThread"),
        DUCKDB_SAME_WORK_ONE_THREAD("duckDbSameWorkOneThread");

        static final Approach[] ALL_THREADS = {ENGINE, DUCKDB_SAME_WORK, DUCKDB_FULL_REWRITE};

        final String key;

        Approach(String key) {
            this.key = key;
        }
    }

    private LocalityScenario() {}

    static void run(NightlyDeltaScenario.Prepared prepared, Scale scale, Path work, ObjectNode out) throws Exception {
        ParcelArchive archive = prepared.archive();
        Map<String, Long> bytesByCell = Archives.partitionBytes(Archives.open(archive.root));
        H3Keyer keyer = new H3Keyer(NightlyDeltaScenario.RESOLUTION);
        ArrayNode nights = out.putArray("nights");
        for (int i = 0; i < SHARES_OF_BYTES.length; i++) {
            double share = SHARES_OF_BYTES[i];
            List<Integer> cells = archive.pickCellsHolding(bytesByCell, share, scale.seed() + 70 + i);
            // Enough changes for one in every touched partition (the scale's night is, but for the smoke scale's).
            int size = Math.max(scale.deltaRows(), 2 * cells.size());
            Delta delta = archive.delta(cells, size, scale.seed() + 80 + i, keyer, true);
            ObjectNode night = nights.addObject();
            night.put("night", Math.round(share * 100) + "% of the bytes");
            night.put("targetShareOfBytes", share);
            BenchmarkMain.log("scenario 7: a night touching about " + Math.round(share * 100) + "% of the bytes");
            runNight(prepared, delta, bytesByCell, ONE_THREAD_TOO.contains(share), work, night);
        }
        List<Integer> every = IntStream.range(0, archive.cells.size()).boxed().toList();
        Delta uniform = archive.delta(every, scale.deltaRows(), scale.seed() + 89, keyer, false);
        ObjectNode night = nights.addObject();
        night.put("night", "uniform over all rows");
        BenchmarkMain.log("scenario 7: a night drawn uniformly from all rows");
        runNight(prepared, uniform, bytesByCell, false, work, night);
        Archives.deleteTree(work);
    }

    /** One measured run; its copy is checked, then deleted. */
    private record Run(Probe.Measurement measurement) {
        double seconds() {
            return measurement.seconds();
        }
    }

    private static void runNight(
            NightlyDeltaScenario.Prepared prepared,
            Delta delta,
            Map<String, Long> bytesByCell,
            boolean oneThreadToo,
            Path work,
            ObjectNode night)
            throws Exception {
        Approach[] approaches = oneThreadToo ? Approach.values() : Approach.ALL_THREADS;
        Path pristine = prepared.archive().root;
        Archives.deleteTree(work);
        Files.createDirectories(work);
        Path deltaFile = work.resolve("delta.parquet");
        delta.writeParquet(deltaFile);
        Map<Approach, List<Run>> runs = new EnumMap<>(Approach.class);
        try (DuckDb baseline = new DuckDb();
                DuckDb oneThread = new DuckDb();
                DuckDb referee = new DuckDb()) {
            baseline.execute("SET enable_geoparquet_conversion = false");
            oneThread.execute("SET enable_geoparquet_conversion = false");
            oneThread.execute("SET threads = 1");
            Set<String> cells = DuckDbSameWork.touchedCells(referee, pristine, deltaFile);
            long touchedBytes = cells.stream()
                    .mapToLong(c -> bytesByCell.getOrDefault(c, 0L))
                    .sum();
            String geo = Objects.requireNonNull(referee.geoOfADataFile(pristine), "the archive's geo block");
            night.put("features", delta.changes().size());
            night.put("partitionsTouched", cells.size());
            night.put("partitions", bytesByCell.size());
            night.put("touchedPartitionBytes", touchedBytes);
            night.put("touchedShareOfBytes", (double) touchedBytes / prepared.archiveBytes());
            int cores = Runtime.getRuntime().availableProcessors();
            Rounds.Copies copies = new Rounds.Copies(referee, prepared.archive().rows + delta.expectedNetRows());
            ObjectNode forces = night.putObject("fileForces");
            for (int round = -1; round < ROUNDS; round++) {
                for (int k = 0; k < approaches.length; k++) {
                    Approach approach = Rounds.inTurn(approaches, round, k);
                    Path root = work.resolve(approach.key + "-" + (round + 1));
                    Callable<Probe.Measurement> run = switch (approach) {
                        case ENGINE, ENGINE_ONE_THREAD -> {
                            int threads = approach == Approach.ENGINE ? cores : 1;
                            yield () -> NightlyDeltaScenario.IncrementalRun.of(
                                            pristine,
                                            root,
                                            delta,
                                            WriteMode.UPSERT,
                                            1,
                                            Delta.PARTITIONS_PER_RUN,
                                            threads,
                                            true)
                                    .timed()
                                    .measurement();
                        }
                        case DUCKDB_SAME_WORK, DUCKDB_SAME_WORK_ONE_THREAD -> {
                            DuckDb duck = approach == Approach.DUCKDB_SAME_WORK ? baseline : oneThread;
                            yield () -> {
                                Archives.linkCopy(pristine, root);
                                return Probe.measure(() -> DuckDbSameWork.apply(duck, root, deltaFile, cells, geo))
                                        .measurement();
                            };
                        }
                        case DUCKDB_FULL_REWRITE ->
                            () -> Probe.measure(() -> {
                                        baseline.execute(
                                                NightlyDeltaScenario.fullRewriteSql(pristine, deltaFile, root));
                                        Archives.forceTree(root);
                                        return null;
                                    })
                                    .measurement();
                    };
                    Probe.Measurement measured;
                    if (round < 0 && approach != Approach.DUCKDB_FULL_REWRITE) {
                        // The unmeasured run counts what it forces to disk: a recording costs time.
                        Probe.Measurement[] kept = new Probe.Measurement[1];
                        FileForces.Counts counts = FileForces.during(() -> kept[0] = run.call());
                        measured = kept[0];
                        if (counts != null) {
                            counts.putInto(forces.putObject(approach.key), cells.size());
                        }
                    } else {
                        measured = run.call();
                    }
                    copies.check(root, approach == Approach.ENGINE, round >= 0);
                    Archives.deleteTree(root);
                    if (round >= 0) {
                        runs.computeIfAbsent(approach, a -> new ArrayList<>()).add(new Run(measured));
                    }
                }
            }
            night.set("verification", copies.verification());
        }
        record(runs, prepared.archiveBytes(), night);
    }

    private static void record(Map<Approach, List<Run>> runs, long archiveBytes, ObjectNode night) {
        long touchedBytes = night.path("touchedPartitionBytes").asLong();
        ObjectNode approaches = night.putObject("approaches");
        for (Map.Entry<Approach, List<Run>> entry : runs.entrySet()) {
            List<Run> approachRuns = entry.getValue();
            Run median = Probe.median(approachRuns, Run::seconds);
            ObjectNode a = approaches.putObject(entry.getKey().key);
            Rounds.putWallSeconds(a, approachRuns.stream().map(Run::seconds).toList());
            a.put("medianRunCpuSeconds", median.measurement().cpuSeconds());
            long rewritten = entry.getKey() == Approach.DUCKDB_FULL_REWRITE ? archiveBytes : touchedBytes;
            a.put("partitionBytesRewritten", rewritten);
            a.put("rewrittenMiBPerSecond", rewritten / (1024.0 * 1024.0) / median.seconds());
        }
        double engine = approaches.path("engine").path("medianWallSeconds").asDouble();
        ObjectNode ratios = night.putObject("ratios");
        if (approaches.has("engineOneThread")) {
            ratios.put(
                    "engineOneThreadOverDuckDbSameWorkOneThread",
                    approaches.path("engineOneThread").path("medianWallSeconds").asDouble()
                            / approaches
                                    .path("duckDbSameWorkOneThread")
                                    .path("medianWallSeconds")
                                    .asDouble());
        }
        ratios.put(
                "engineOverDuckDbSameWork",
                engine
                        / approaches
                                .path("duckDbSameWork")
                                .path("medianWallSeconds")
                                .asDouble());
        ratios.put(
                "engineOverDuckDbFullRewrite",
                engine
                        / approaches
                                .path("duckDbFullRewrite")
                                .path("medianWallSeconds")
                                .asDouble());
    }
}
