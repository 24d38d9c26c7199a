package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Scenario 1, the nightly delta: the engine's incremental upsert against a naive full rewrite with the same
 * Parquet writer and against DuckDB rewriting the whole archive with {@code COPY ... PARTITION_BY (h3_cell)}, on
 * the same archive and delta. Also prepares what scenarios 2 and 5 reuse (the pristine archive and the delta).
 */
final class NightlyDeltaScenario {

    static final int RESOLUTION = 4;
    static final double TOUCHED_BYTES_FRACTION = 0.02;
    static final int CONCURRENT_TASKS = 2;
    static final int INCREMENTAL_REPEATS = 5;

    /** The archive and delta of this run, kept for the append and memory scenarios. */
    record Prepared(
            ParcelArchive archive,
            List<Integer> touched,
            long touchedBytes,
            long archiveBytes,
            Delta delta,
            Path deltaFile) {}

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private NightlyDeltaScenario() {}

    static Prepared prepare(Scale scale, Path work, ObjectNode out) throws Exception {
        Path pristine = work.resolve("pristine");
        Archives.deleteTree(work);
        Files.createDirectories(work);
        var build = Probe.measure(
                () -> ParcelArchive.build(pristine, scale.seed(), scale.towns(), scale.archiveRows(), RESOLUTION));
        ParcelArchive archive = build.value();
        GeoParquetArchive engine = Archives.open(pristine);
        Map<String, Long> bytesByCell = Archives.partitionBytes(engine);
        long archiveBytes =
                bytesByCell.values().stream().mapToLong(Long::longValue).sum();
        List<Integer> touched = archive.pickTouchedCells(bytesByCell, TOUCHED_BYTES_FRACTION, scale.seed());
        long touchedBytes = touched.stream()
                .mapToLong(c -> bytesByCell.get(archive.cells.get(c)))
                .sum();
        H3Keyer keyer = new H3Keyer(RESOLUTION);
        Delta delta = archive.delta(touched, scale.deltaRows(), scale.seed() + 1, keyer);
        Path deltaFile = work.resolve("delta.parquet");
        delta.writeParquet(deltaFile);

        long[] sizes = bytesByCell.values().stream()
                .mapToLong(Long::longValue)
                .sorted()
                .toArray();
        ObjectNode a = out.putObject("archive");
        a.put("rows", archive.rows);
        a.put("partitions", archive.cells.size());
        a.put("dataBytes", archiveBytes);
        a.put("h3Resolution", RESOLUTION);
        a.put("towns", scale.towns());
        a.put("largestPartitionBytes", sizes[sizes.length - 1]);
        a.put("medianPartitionBytes", sizes[sizes.length / 2]);
        a.put("largestPartitionShareOfBytes", (double) sizes[sizes.length - 1] / archiveBytes);
        a.put("buildSeconds", build.measurement().seconds());
        ObjectNode d = out.putObject("delta");
        d.put("features", delta.changes().size());
        d.put("updates", delta.count(Delta.Kind.UPDATE));
        d.put("newKeys", delta.count(Delta.Kind.NEW));
        d.put("movedKeys", delta.count(Delta.Kind.MOVED));
        d.put("deletions", delta.count(Delta.Kind.DELETE));
        d.put("expectedNetRows", delta.expectedNetRows());
        d.put("touchedPartitions", touched.size());
        d.put("touchedPartitionBytes", touchedBytes);
        d.put("touchedShareOfBytes", (double) touchedBytes / archiveBytes);
        return new Prepared(archive, touched, touchedBytes, archiveBytes, delta, deltaFile);
    }

    /**
     * Runs the scenario on the prepared archive and delta: the incremental variants, the naive and DuckDB full
     * rewrites, then the reconciliation of their outputs; writes the approaches and their ratios into {@code out}.
     */
    static void run(Prepared prepared, Path work, ObjectNode out) throws Exception {
        warmUpJit(prepared, work, out);
        IncrementalRuns incremental;
        List<SameWorkRun> sameWork = new ArrayList<>();
        FullRewriteRounds full;
        Path pristine = prepared.archive().root;
        try (DuckDb sameWorkDuck = new DuckDb();
                DuckDb fullDuck = new DuckDb()) {
            sameWorkDuck.execute("SET enable_geoparquet_conversion = false");
            Set<String> cells = DuckDbSameWork.touchedCells(sameWorkDuck, pristine, prepared.deltaFile());
            String geo = Objects.requireNonNull(sameWorkDuck.geoOfADataFile(pristine), "the archive's geo block");
            full = new FullRewriteRounds(
                    prepared, work, fullDuck, Archives.open(pristine).canonicalFooter(), INCREMENTAL_REPEATS);
            full.warmUp();
            Baseline sameWorkRound = round -> {
                Path root = work.resolve("duckDbSameWork-" + round);
                Archives.linkCopy(pristine, root);
                var timed =
                        Probe.measure(() -> DuckDbSameWork.apply(sameWorkDuck, root, prepared.deltaFile(), cells, geo));
                sameWork.add(new SameWorkRun(root, timed, cells.size()));
            };
            Baseline[] baselines = {sameWorkRound, full::naive, full::duckDbOneThread, full::duckDbAllThreads};
            incremental = runIncrementalVariants(prepared, work, round -> {
                for (int k = 0; k < baselines.length; k++) {
                    Rounds.inTurn(baselines, round, k).run(round);
                }
            });
        }
        // Opened once: the naive rewrite wrote its footer, and the reconciliation verifies it.
        GeoParquetArchive archive = incremental.reference().archive();
        try (DuckDb duck = new DuckDb()) {
            ObjectNode reconciliation = out.putObject("reconciliation");
            reconcile(duck, prepared, incremental, archive, full.naiveOut(), full.duckOut(), reconciliation);
            reconciliation.set("fullRewriteCopies", full.copies().verification());
            reconciliation.put(
                    "holds",
                    reconciliation.path("holds").asBoolean() && full.copies().holds());
        }
        Measured measured = new Measured(prepared, incremental, full);
        ObjectNode approaches = out.putObject("approaches");
        recordApproaches(measured, approaches);
        ObjectNode ratios = out.putObject("ratios");
        recordRatios(measured, ratios);
        recordSameWork(sameWork, incremental, approaches, ratios, (ObjectNode) out.get("reconciliation"));
    }

    /** One run of {@link DuckDbSameWork} on its own copy of the archive. */
    private record SameWorkRun(Path root, Probe.Timed<Long> timed, int partitions) {
        double seconds() {
            return timed.measurement().seconds();
        }
    }

    /**
     * DuckDB doing the same partition work: every run's copy is checked against the engine's reference copy, row for
     * row both ways (DuckDB reading both), then the median run is recorded and compared with the engine's medians.
     */
    private static void recordSameWork(
            List<SameWorkRun> runs,
            IncrementalRuns incremental,
            ObjectNode approaches,
            ObjectNode ratios,
            ObjectNode reconciliation)
            throws Exception {
        Path engineRoot = incremental.reference().root();
        long differing = 0;
        try (DuckDb duck = new DuckDb()) {
            for (SameWorkRun run : runs) {
                differing +=
                        rowsInFirstOnly(duck, engineRoot, run.root()) + rowsInFirstOnly(duck, run.root(), engineRoot);
            }
        }
        reconciliation.put("duckDbSameWorkCopiesVerified", runs.size());
        reconciliation.put("rowsDifferingBetweenEngineAndDuckDbSameWork", differing);
        reconciliation.put("holds", reconciliation.path("holds").asBoolean() && differing == 0);
        SameWorkRun median = Probe.median(runs, SameWorkRun::seconds);
        ObjectNode approach = approach(
                median.timed().measurement(),
                0,
                median.timed().value(),
                0,
                0,
                median.partitions(),
                0,
                median.partitions());
        var seconds = approach.putArray("runWallSeconds");
        runs.forEach(run -> seconds.add(run.seconds()));
        approaches.set("duckDbSameWork", approach);
        ratios.put("timeIncrementalOverDuckDbSameWork", incremental.seconds("incremental") / median.seconds());
        ratios.put(
                "timeIncrementalWarmServiceOverDuckDbSameWork",
                incremental.seconds("incrementalWarmService") / median.seconds());
        for (SameWorkRun run : runs) {
            Archives.deleteTree(run.root());
        }
    }

    /**
     * JIT warm-up on throwaway copies: the whole delta through both incremental paths, until the compilers have
     * settled, so that the measured upserts run on a warm JVM, as in a NiFi instance that has run for a while (the
     * full rewrites get one unmeasured run each, {@link FullRewriteRounds#warmUp}).
     */
    private static void warmUpJit(Prepared prepared, Path work, ObjectNode out) throws Exception {
        Path pristine = prepared.archive().root;
        Delta delta = prepared.delta();
        JitWarmUp.untilSettled(() -> {
                    for (int partitionsPerRun : new int[] {Delta.PARTITIONS_PER_RUN, 1}) {
                        Path warm = work.resolve("warm-up");
                        Archives.linkCopy(pristine, warm);
                        delta.applyIncrementally(Archives.open(warm), WriteMode.UPSERT, 1, partitionsPerRun);
                        Archives.deleteTree(warm);
                    }
                })
                .putInto(out);
    }

    /**
     * The engine, incrementally, as UpsertGeoParquetPartition takes the delta: all partitions in one run (Batch Size
     * 50), (a) on every core (the default Worker Threads), (b) on one thread; (c) two concurrent tasks sharing the
     * archive's threads, each taking half the partitions; (d) two concurrent tasks sharing an archive of one thread;
     * (e) one partition per run (Batch Size 1), every partition looking keys up and writing the index journal on its
     * own: what sharing that work within a run saves; (f, g) as (a, b) on an archive warmed as a NiFi archive
     * service's is. Each runs INCREMENTAL_REPEATS times, interleaved, on fresh copies; the median run of each is
     * reported and kept for the reconciliation.
     */
    private static IncrementalRuns runIncrementalVariants(Prepared prepared, Path work, Baseline baseline)
            throws Exception {
        Path pristine = prepared.archive().root;
        Delta delta = prepared.delta();
        int perTask = delta.partitionsPerTask(CONCURRENT_TASKS);
        int cores = Runtime.getRuntime().availableProcessors();
        List<Variant> variants = List.of(
                new Variant("incremental", 1, cores, Delta.PARTITIONS_PER_RUN, false),
                new Variant("incrementalOneThread", 1, 1, Delta.PARTITIONS_PER_RUN, false),
                new Variant("incrementalTwoTasks", CONCURRENT_TASKS, cores, perTask, false),
                new Variant("incrementalTwoTasksOneThreadEach", CONCURRENT_TASKS, 1, perTask, false),
                new Variant("incrementalPartitionByPartition", 1, cores, 1, false),
                new Variant("incrementalWarmService", 1, cores, Delta.PARTITIONS_PER_RUN, true),
                new Variant("incrementalWarmServiceOneThread", 1, 1, Delta.PARTITIONS_PER_RUN, true));
        Map<String, List<IncrementalRun>> runs = new LinkedHashMap<>();
        for (int r = 0; r < INCREMENTAL_REPEATS; r++) {
            for (Variant variant : variants) {
                runs.computeIfAbsent(variant.name(), k -> new ArrayList<>())
                        .add(IncrementalRun.of(
                                pristine,
                                work.resolve(variant.name() + "-" + r),
                                delta,
                                WriteMode.UPSERT,
                                variant.tasks(),
                                variant.partitionsPerRun(),
                                variant.threads(),
                                variant.warmService()));
            }
            baseline.run(r);
        }
        Map<String, IncrementalRun> medians = new LinkedHashMap<>();
        for (Variant variant : variants) {
            medians.put(variant.name(), IncrementalRun.median(runs.get(variant.name())));
        }
        return new IncrementalRuns(variants, runs, medians);
    }

    /** A baseline run interleaved with the engine's: once in each round, after the variants. */
    @FunctionalInterface
    private interface Baseline {
        void run(int round) throws Exception;
    }

    /**
     * Reconciliation, by DuckDB as the independent reader: the rows of every output counted, the incremental
     * outputs' rows compared with the full rewrites', and the engine's own verification of its two main variants.
     */
    private static void reconcile(
            DuckDb duck,
            Prepared prepared,
            IncrementalRuns incremental,
            GeoParquetArchive archive,
            Path naiveOut,
            Path duckOut,
            ObjectNode rec)
            throws Exception {
        Delta delta = prepared.delta();
        OperationResult result = incremental.reference().timed().value();
        Path incrementalRoot = incremental.reference().root();
        IncrementalRun two = incremental.median("incrementalTwoTasks");
        long expected = prepared.archive().rows + delta.expectedNetRows();
        long baseline = duck.countRows(prepared.archive().root);
        rec.put("baselineRows", baseline);
        rec.put("netRowsExpected", delta.expectedNetRows());
        rec.put("netRowsReportedByEngine", result.netRows());
        rec.put("expectedAfter", expected);
        boolean everyVariantExpected = true;
        for (Variant variant : incremental.variants()) {
            long after = duck.countRows(incremental.median(variant.name()).root());
            rec.put(
                    "after" + Character.toUpperCase(variant.name().charAt(0))
                            + variant.name().substring(1) + "CountedByDuckDb",
                    after);
            everyVariantExpected &= after == expected;
        }
        long afterNaive = duck.countRows(naiveOut);
        long afterDuck = duck.countRows(duckOut);
        rec.put("afterNaiveFullRewriteCountedByDuckDb", afterNaive);
        rec.put("afterDuckDbRewriteCountedByDuckDb", afterDuck);
        long distinctKeys =
                duck.count("SELECT count(DISTINCT parcel_id) FROM read_parquet(" + DuckDb.glob(incrementalRoot) + ")");
        rec.put("distinctKeysAfterIncremental", distinctKeys);
        long notInNaive = rowsInFirstOnly(duck, incrementalRoot, naiveOut);
        rec.put("rowsInIncrementalNotInNaive", notInNaive);
        long notInDuck = rowsInFirstOnly(duck, incrementalRoot, duckOut);
        rec.put("rowsInIncrementalNotInDuckDb", notInDuck);
        VerificationReport report =
                new ArchiveVerifier(archive).verify(VerifyOptions.wholeArchive().expectingRows(expected));
        rec.put("engineVerificationConsistent", report.consistent());
        long twoTasksNotInNaive = rowsInFirstOnly(duck, two.root(), naiveOut);
        rec.put("rowsInIncrementalTwoTasksNotInNaive", twoTasksNotInNaive);
        VerificationReport reportTwoTasks = new ArchiveVerifier(two.archive())
                .verify(VerifyOptions.wholeArchive().expectingRows(expected));
        rec.put("engineVerificationTwoTasksConsistent", reportTwoTasks.consistent());
        rec.put(
                "holds",
                baseline == prepared.archive().rows
                        && everyVariantExpected
                        && afterNaive == expected
                        && reportTwoTasks.consistent()
                        && twoTasksNotInNaive == 0
                        && afterDuck == expected
                        && result.netRows() == delta.expectedNetRows()
                        && report.consistent()
                        && notInNaive == 0
                        && notInDuck == 0
                        && distinctKeys == expected);
    }

    /** How many rows of the archive at {@code first} the archive at {@code second} lacks, duplicates counted. */
    private static long rowsInFirstOnly(DuckDb duck, Path first, Path second) throws SQLException {
        String rows = "SELECT " + RowModel.current().columnList("")
                + ", h3_cell FROM read_parquet(%s, hive_partitioning = true, hive_types = {'h3_cell': VARCHAR})";
        return duck.count("SELECT count(*) FROM (" + rows.formatted(DuckDb.glob(first)) + " EXCEPT ALL "
                + rows.formatted(DuckDb.glob(second)) + ")");
    }

    /** Every approach: each incremental variant's median run with its runs' figures, then the full rewrites. */
    private static void recordApproaches(Measured measured, ObjectNode approaches) {
        IncrementalRuns incremental = measured.incremental();
        for (Variant variant : incremental.variants()) {
            approaches.set(variant.name(), variantApproach(variant, incremental.median(variant.name())));
        }
        incremental.runs().forEach((name, repeats) -> recordEachRun(repeats, (ObjectNode) approaches.get(name)));
        NaiveFullRewrite.Result n = measured.naive().value();
        ObjectNode naive = approach(
                measured.naive().measurement(),
                n.bytesRead(),
                n.bytesWritten(),
                0,
                0,
                n.filesWritten(),
                n.filesRead(),
                n.partitions());
        Rounds.putWallSeconds(naive, measured.full().naiveSeconds());
        approaches.set("naiveFullRewrite", naive);
        approaches.set("duckdbFullRewrite", measured.duckDbAllThreads());
        approaches.set("duckdbFullRewriteOneThread", measured.duckDbOneThread());
    }

    /** A variant's median run and how it ran; the reference variant's also has what the engine reported. */
    private static ObjectNode variantApproach(Variant variant, IncrementalRun median) {
        ObjectNode json = median.json();
        if (variant.name().equals("incremental")) {
            OperationResult result = median.timed().value();
            json.put("engineReportedBytesWritten", result.bytesWritten());
            json.put("inserted", result.inserted());
            json.put("updated", result.updated());
            json.put("moved", result.moved());
            json.put("deleted", result.deleted());
        }
        json.put("concurrentTasks", variant.tasks());
        json.put("threads", variant.threads());
        json.put("partitionsPerRun", variant.partitionsPerRun());
        json.put("warmService", variant.warmService());
        return json;
    }

    /** The figures of each of a variant's runs, in the order they ran. */
    private static void recordEachRun(List<IncrementalRun> repeats, ObjectNode approach) {
        var each = approach.putArray("wallSecondsOfEachRun");
        repeats.forEach(run -> each.add(run.timed().measurement().seconds()));
        var jit = approach.putArray("jitCompileSecondsOfEachRun");
        repeats.forEach(run -> jit.add(run.timed().measurement().jitCompileSeconds()));
        var cpu = approach.putArray("cpuSecondsOfEachRun");
        repeats.forEach(run -> cpu.add(run.timed().measurement().cpuSeconds()));
        var stolen = approach.putArray("stolenCpuSecondsOfEachRun");
        repeats.forEach(run -> stolen.add(run.timed().measurement().stolenCpuSeconds()));
        var byThread = approach.putArray("cpuSecondsByThreadGroupOfEachRun");
        repeats.forEach(run -> {
            ObjectNode groups = byThread.addObject();
            run.timed().measurement().cpuSecondsByThreadGroup().forEach(groups::put);
        });
    }

    private static void recordRatios(Measured measured, ObjectNode ratios) {
        recordTimeRatios(measured, ratios);
        recordCpuRatios(measured, ratios);
        recordByteRatios(measured, ratios);
        recordWarmServiceRatios(measured, ratios);
    }

    private static void recordTimeRatios(Measured m, ObjectNode ratios) {
        IncrementalRuns inc = m.incremental();
        double incSeconds = inc.seconds("incremental");
        double incTwoSeconds = inc.seconds("incrementalTwoTasks");
        double oneThreadSeconds = inc.seconds("incrementalOneThread");
        ratios.put("timeNaiveOverIncremental", m.naiveSeconds() / incSeconds);
        ratios.put("timeDuckDbOverIncremental", m.duckDbSeconds() / incSeconds);
        ratios.put("timeNaiveOverIncrementalTwoTasks", m.naiveSeconds() / incTwoSeconds);
        ratios.put("timeDuckDbOverIncrementalTwoTasks", m.duckDbSeconds() / incTwoSeconds);
        ratios.put(
                "timePartitionByPartitionOverIncremental", inc.seconds("incrementalPartitionByPartition") / incSeconds);
        ratios.put("timeOneThreadOverAllThreads", oneThreadSeconds / incSeconds);
        ratios.put(
                "timeOneThreadOverTwoTasksOneThreadEach",
                oneThreadSeconds / inc.seconds("incrementalTwoTasksOneThreadEach"));
        ratios.put("timeOneThreadOverTwoTasks", oneThreadSeconds / incTwoSeconds);
        ratios.put("timeDuckDbOneThreadOverIncrementalOneThread", m.duckDbOneThreadSeconds() / oneThreadSeconds);
        ratios.put("timeDuckDbOneThreadOverDuckDbAllThreads", m.duckDbOneThreadSeconds() / m.duckDbSeconds());
    }

    private static void recordCpuRatios(Measured m, ObjectNode ratios) {
        double incCpu = m.incremental().reference().timed().measurement().cpuSeconds();
        ratios.put("cpuNaiveOverIncremental", m.naive().measurement().cpuSeconds() / incCpu);
        ratios.put(
                "cpuDuckDbOverIncremental",
                m.duckDbAllThreads().get("cpuSeconds").asDouble() / incCpu);
    }

    private static void recordByteRatios(Measured m, ObjectNode ratios) {
        Archives.DiskChange change = m.incremental().reference().change();
        OperationResult result = m.incremental().reference().timed().value();
        NaiveFullRewrite.Result n = m.naive().value();
        Prepared prepared = m.prepared();
        ratios.put("bytesWrittenNaiveOverIncremental", (double) n.bytesWritten() / change.dataBytesWritten());
        ratios.put(
                "bytesWrittenDuckDbOverIncremental",
                m.duckDbAllThreads().get("dataBytesWritten").asDouble() / change.dataBytesWritten());
        ratios.put("bytesReadNaiveOverIncremental", (double) n.bytesRead() / result.bytesRead());
        ratios.put("bytesReadDuckDbOverIncremental", (double) prepared.archiveBytes() / result.bytesRead());
        ratios.put(
                "incrementalDataBytesWrittenOverTouchedPartitionBytes",
                (double) change.dataBytesWritten() / prepared.touchedBytes());
        ratios.put(
                "incrementalDataAndIndexBytesWrittenOverTouchedPartitionBytes",
                (double) (change.dataBytesWritten() + change.indexBytesWritten()) / prepared.touchedBytes());
        ratios.put("boundFromTouchedShare", (double) prepared.archiveBytes() / prepared.touchedBytes());
    }

    private static void recordWarmServiceRatios(Measured m, ObjectNode ratios) {
        double warmSeconds = m.incremental().seconds("incrementalWarmService");
        double warmOneThreadSeconds = m.incremental().seconds("incrementalWarmServiceOneThread");
        ratios.put("timeDuckDbOverIncrementalWarmService", m.duckDbSeconds() / warmSeconds);
        ratios.put("timeNaiveOverIncrementalWarmService", m.naiveSeconds() / warmSeconds);
        ratios.put("timeOneThreadOverAllThreadsWarmService", warmOneThreadSeconds / warmSeconds);
        ratios.put(
                "timeDuckDbOneThreadOverIncrementalOneThreadWarmService",
                m.duckDbOneThreadSeconds() / warmOneThreadSeconds);
    }

    /** The incremental variants, every run of each in the order they ran, and the run of median wall time of each. */
    private record IncrementalRuns(
            List<Variant> variants, Map<String, List<IncrementalRun>> runs, Map<String, IncrementalRun> medians) {

        IncrementalRun median(String variant) {
            return medians.get(variant);
        }

        /** All partitions in one run on every core: the run the others and the full rewrites are compared with. */
        IncrementalRun reference() {
            return median("incremental");
        }

        double seconds(String variant) {
            return median(variant).timed().measurement().seconds();
        }
    }

    /**
     * What the scenario measured: the incremental variants and the full rewrites, each full rewrite by its run of
     * median wall time.
     */
    private record Measured(
            Prepared prepared,
            IncrementalRuns incremental,
            FullRewriteRounds full,
            Probe.Timed<NaiveFullRewrite.Result> naive,
            ObjectNode duckDbAllThreads,
            ObjectNode duckDbOneThread) {

        Measured(Prepared prepared, IncrementalRuns incremental, FullRewriteRounds full) {
            this(prepared, incremental, full, full.naiveMedian(), full.duckDbAllThreads(), full.duckDbOneThread());
        }

        double naiveSeconds() {
            return naive.measurement().seconds();
        }

        double duckDbSeconds() {
            return duckDbAllThreads.get("wallSeconds").asDouble();
        }

        double duckDbOneThreadSeconds() {
            return duckDbOneThread.get("wallSeconds").asDouble();
        }
    }

    /**
     * One way of running the incremental upsert: {@code tasks} concurrent tasks taking up to {@code partitionsPerRun}
     * partitions per run, on an archive of {@code threads} worker threads (shared by the tasks); with
     * {@code warmService}, on an archive that has looked keys up before (see {@link #warmAsAService}).
     */
    record Variant(String name, int tasks, int threads, int partitionsPerRun, boolean warmService) {}

    /** Keys no parcel has: the lookups of earlier nights' new parcels. */
    private static final int EARLIER_LOOKUPS = 2_000;

    /**
     * Makes a freshly opened archive like the one a NiFi archive service holds after earlier nights: the service keeps
     * its archive open, and with it the key index's parsed footers and bloom filters (index files never change, so
     * they stay valid until a fold replaces a shard). Looking up keys of earlier nights fills that cache; the
     * measured run's own keys are not among them, so none of their row groups are cached. A run from the command
     * line opens the archive afresh, as the other variants do.
     */
    static void warmAsAService(GeoParquetArchive archive) throws IOException {
        List<FeatureKey> earlier = new ArrayList<>(EARLIER_LOOKUPS);
        for (int i = 0; i < EARLIER_LOOKUPS; i++) {
            earlier.add(FeatureKey.fromIndexText("earlier-night-" + i, 1));
        }
        new KeyIndex(archive).lookUp(earlier);
    }

    /** DuckDB's rewrite of the whole archive: the rows the delta leaves alone, then the delta's, partitioned again. */
    static String fullRewriteSql(Path archive, Path deltaFile, Path out) {
        RowModel rows = RowModel.current();
        return "COPY (SELECT " + rows.columnList("a.") + ", a.h3_cell"
                + " FROM read_parquet(" + DuckDb.glob(archive)
                + ", hive_partitioning = true, hive_types = {'h3_cell': VARCHAR}) a"
                + " ANTI JOIN read_parquet(" + DuckDb.literal(deltaFile) + ") d USING (parcel_id)"
                + " UNION ALL SELECT " + rows.columnList("") + ", h3_cell"
                + " FROM read_parquet(" + DuckDb.literal(deltaFile) + ") WHERE NOT is_delete)"
                + " TO " + DuckDb.literal(out) + " (FORMAT parquet, PARTITION_BY (h3_cell), COMPRESSION zstd,"
                + " COMPRESSION_LEVEL 3, ROW_GROUP_SIZE 100000)";
    }

    /**
     * One measured incremental upsert on its own copy of the archive. The archive it ran on is not kept: each holds the
     * key index's parsed footers and bloom filters, and 35 of them held through the repeats made the collector mark the
     * heap concurrently during later runs (0.1 s of CPU a run, rising to 0.4 s by the fifth round), on the core a
     * second worker needs and a one-thread run leaves idle. A NiFi archive service holds one.
     */
    record IncrementalRun(Path root, Probe.Timed<OperationResult> timed, Archives.DiskChange change) {

        static IncrementalRun of(
                Path pristine,
                Path root,
                Delta delta,
                WriteMode mode,
                int tasks,
                int partitionsPerRun,
                int threads,
                boolean warmService)
                throws Exception {
            Archives.linkCopy(pristine, root);
            GeoParquetArchive archive = Archives.open(root).useThreads(threads);
            if (warmService) {
                warmAsAService(archive);
            }
            Map<String, Archives.FileState> before = Archives.snapshot(root);
            var timed = Probe.measure(() -> delta.applyIncrementally(archive, mode, tasks, partitionsPerRun));
            return new IncrementalRun(root, timed, Archives.DiskChange.between(before, Archives.snapshot(root)));
        }

        /** The run's copy, opened afresh. */
        GeoParquetArchive archive() throws IOException {
            return Archives.open(root);
        }

        /** The run as an approach of the results (see {@link #approach}). */
        ObjectNode json() {
            return engineApproach(timed, change);
        }

        /** The run of median wall time; the others' copies are deleted. */
        static IncrementalRun median(List<IncrementalRun> runs) throws IOException {
            IncrementalRun median =
                    Probe.median(runs, run -> run.timed().measurement().seconds());
            for (IncrementalRun run : runs) {
                if (!run.root().equals(median.root())) {
                    Archives.deleteTree(run.root());
                }
            }
            return median;
        }
    }

    /** An engine operation as an approach: what it read and counted, and what changed on disk. */
    static ObjectNode engineApproach(Probe.Timed<OperationResult> timed, Archives.DiskChange change) {
        OperationResult result = timed.value();
        return approach(
                timed.measurement(),
                result.bytesRead(),
                change.dataBytesWritten(),
                change.indexBytesWritten(),
                change.logBytesWritten(),
                change.dataFilesWritten(),
                change.dataFilesRemoved(),
                result.partitionsTouched().size());
    }

    static ObjectNode approach(
            Probe.Measurement m,
            long bytesRead,
            long dataBytesWritten,
            long indexBytesWritten,
            long logBytesWritten,
            long filesWritten,
            long filesRemoved,
            long partitionsTouched) {
        ObjectNode node = JSON.objectNode();
        node.put("wallSeconds", m.seconds());
        node.put("cpuSeconds", m.cpuSeconds());
        node.put("jitCompileSeconds", m.jitCompileSeconds());
        node.put("stolenCpuSeconds", m.stolenCpuSeconds());
        node.put("bytesRead", bytesRead);
        node.put("dataBytesWritten", dataBytesWritten);
        node.put("indexBytesWritten", indexBytesWritten);
        node.put("commitLogBytesWritten", logBytesWritten);
        node.put("filesWritten", filesWritten);
        node.put("filesRemovedOrSuperseded", filesRemoved);
        node.put("partitionsTouched", partitionsTouched);
        node.put("heapPeakBytes", m.heapPeakBytes());
        node.put("heapPoolPeakSumBytes", m.heapPoolPeakSumBytes());
        node.put("rssPeakBytes", m.rssPeakBytes());
        node.put("rssPeakResetAtStart", m.rssPeakReset());
        node.put("syscallBytesRead", m.syscallBytesRead());
        node.put("syscallBytesWritten", m.syscallBytesWritten());
        return node;
    }

    static long partitionDirectories(Path root) throws IOException {
        try (Stream<Path> dirs = Files.list(root)) {
            return dirs.filter(d -> d.getFileName().toString().startsWith("h3_cell="))
                    .count();
        }
    }
}
