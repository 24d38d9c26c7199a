package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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

    static void run(Prepared prepared, Path work, ObjectNode out) throws Exception {
        Path pristine = prepared.archive().root;
        Delta delta = prepared.delta();

        // JIT warm-up on throwaway copies: the whole delta through both incremental paths, until the compilers have
        // settled, so that the measured upserts run on a warm JVM, as in a NiFi instance that has run for a while (the
        // full rewrites below warm up within their own millions of rows).
        JitWarmUp.untilSettled(() -> {
                    for (int partitionsPerRun : new int[] {Delta.PARTITIONS_PER_RUN, 1}) {
                        Path warm = work.resolve("warm-up");
                        Archives.linkCopy(pristine, warm);
                        delta.applyIncrementally(Archives.open(warm), WriteMode.UPSERT, 1, partitionsPerRun);
                        Archives.deleteTree(warm);
                    }
                })
                .putInto(out);

        // 1. The engine, incrementally, as UpsertGeoParquetPartition takes the delta: all partitions in one run (Batch
        // Size 50), (a) on every core (the default Worker Threads), (b) on one thread; (c) two concurrent tasks sharing
        // the archive's threads, each taking half the partitions; (d) two concurrent tasks sharing an archive of one
        // thread; (e) one partition per run (Batch Size 1), every partition looking keys up and writing the index
        // journal on its own: what sharing that work within a run saves. Each runs INCREMENTAL_REPEATS times,
        // interleaved, on fresh copies; the median run of each is reported and kept for the reconciliation.
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
        }
        Map<String, IncrementalRun> medians = new LinkedHashMap<>();
        for (Variant variant : variants) {
            medians.put(variant.name(), IncrementalRun.median(runs.get(variant.name())));
        }
        IncrementalRun one = medians.get("incremental");
        IncrementalRun two = medians.get("incrementalTwoTasks");
        IncrementalRun oneByOne = medians.get("incrementalPartitionByPartition");
        Path incremental = one.root();
        GeoParquetArchive archive = one.archive();
        var inc = one.timed();
        Archives.DiskChange change = one.change();
        OperationResult result = inc.value();
        Path incrementalTwoTasks = two.root();

        // 2. Naive full rewrite with the engine's Parquet writer.
        Path naiveOut = work.resolve("full-naive");
        var naive = Probe.measure(() -> NaiveFullRewrite.run(
                pristine,
                delta,
                naiveOut,
                RowModel.current().schema(),
                archive.canonicalFooter(),
                WriterSettings.defaults()));

        // 3. DuckDB rewriting the whole archive, on one thread and on every core (its default); the second output is
        // the one reconciled.
        Path duckOut = work.resolve("full-duckdb");
        ObjectNode duckJson;
        ObjectNode duckOneThreadJson;
        try (DuckDb duck = new DuckDb()) {
            duck.execute("SET enable_geoparquet_conversion = false");
            String threads = String.valueOf(
                    duck.query("SELECT current_setting('threads')").get(0).get(0));
            String sql = fullRewriteSql(pristine, prepared.deltaFile(), duckOut);
            duck.execute("SET threads = 1");
            var duckOneThread = Probe.measure(() -> {
                duck.execute(sql);
                return null;
            });
            duckOneThreadJson = approach(
                    duckOneThread.measurement(),
                    prepared.archiveBytes(),
                    Archives.dataBytes(duckOut),
                    0,
                    0,
                    Archives.dataFiles(duckOut),
                    Archives.dataFiles(pristine),
                    partitionDirectories(duckOut));
            duckOneThreadJson.put("threads", 1);
            Archives.deleteTree(duckOut);
            duck.execute("SET threads = " + threads);
            var duckRun = Probe.measure(() -> {
                duck.execute(sql);
                return null;
            });
            duckJson = approach(
                    duckRun.measurement(),
                    prepared.archiveBytes(),
                    Archives.dataBytes(duckOut),
                    0,
                    0,
                    Archives.dataFiles(duckOut),
                    Archives.dataFiles(pristine),
                    partitionDirectories(duckOut));
            duckJson.put("threads", Integer.parseInt(threads));
            duckJson.put("version", duck.version());
            duckJson.put("sql", sql);
            Path sample;
            try (Stream<Path> files = Files.walk(duckOut)) {
                sample = files.filter(f -> f.toString().endsWith(".parquet"))
                        .findFirst()
                        .orElseThrow();
            }
            byte[] geo = duck.footerValue(sample, "geo");
            duckJson.put("geoMetadataInOutput", geo == null ? null : new String(geo, StandardCharsets.UTF_8));

            // Reconciliation, by DuckDB as the independent reader.
            long expected = prepared.archive().rows + delta.expectedNetRows();
            ObjectNode rec = out.putObject("reconciliation");
            long baseline = duck.countRows(pristine);
            rec.put("baselineRows", baseline);
            rec.put("netRowsExpected", delta.expectedNetRows());
            rec.put("netRowsReportedByEngine", result.netRows());
            rec.put("expectedAfter", expected);
            boolean everyVariantExpected = true;
            for (Variant variant : variants) {
                long after = duck.countRows(medians.get(variant.name()).root());
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
            rec.put(
                    "distinctKeysAfterIncremental",
                    duck.count("SELECT count(DISTINCT parcel_id) FROM read_parquet(" + DuckDb.glob(incremental) + ")"));
            String rows = "SELECT " + RowModel.current().columnList("")
                    + ", h3_cell FROM read_parquet(%s, hive_partitioning = true, hive_types = {'h3_cell': VARCHAR})";
            rec.put(
                    "rowsInIncrementalNotInNaive",
                    duck.count("SELECT count(*) FROM (" + rows.formatted(DuckDb.glob(incremental)) + " EXCEPT ALL "
                            + rows.formatted(DuckDb.glob(naiveOut)) + ")"));
            rec.put(
                    "rowsInIncrementalNotInDuckDb",
                    duck.count("SELECT count(*) FROM (" + rows.formatted(DuckDb.glob(incremental)) + " EXCEPT ALL "
                            + rows.formatted(DuckDb.glob(duckOut)) + ")"));
            VerificationReport report = new ArchiveVerifier(archive)
                    .verify(VerifyOptions.wholeArchive().expectingRows(expected));
            rec.put("engineVerificationConsistent", report.consistent());
            rec.put(
                    "rowsInIncrementalTwoTasksNotInNaive",
                    duck.count("SELECT count(*) FROM (" + rows.formatted(DuckDb.glob(incrementalTwoTasks))
                            + " EXCEPT ALL " + rows.formatted(DuckDb.glob(naiveOut)) + ")"));
            VerificationReport reportTwoTasks = new ArchiveVerifier(two.archive())
                    .verify(VerifyOptions.wholeArchive().expectingRows(expected));
            rec.put("engineVerificationTwoTasksConsistent", reportTwoTasks.consistent());
            rec.put(
                    "holds",
                    baseline == prepared.archive().rows
                            && everyVariantExpected
                            && afterNaive == expected
                            && reportTwoTasks.consistent()
                            && rec.get("rowsInIncrementalTwoTasksNotInNaive").asLong() == 0
                            && afterDuck == expected
                            && result.netRows() == delta.expectedNetRows()
                            && report.consistent()
                            && rec.get("rowsInIncrementalNotInNaive").asLong() == 0
                            && rec.get("rowsInIncrementalNotInDuckDb").asLong() == 0
                            && rec.get("distinctKeysAfterIncremental").asLong() == expected);
        }

        ObjectNode incJson = one.json();
        incJson.put("engineReportedBytesWritten", result.bytesWritten());
        incJson.put("inserted", result.inserted());
        incJson.put("updated", result.updated());
        incJson.put("moved", result.moved());
        incJson.put("deleted", result.deleted());
        Map<String, ObjectNode> variantJson = new LinkedHashMap<>();
        for (Variant variant : variants) {
            ObjectNode json = variant.name().equals("incremental")
                    ? incJson
                    : medians.get(variant.name()).json();
            json.put("concurrentTasks", variant.tasks());
            json.put("threads", variant.threads());
            json.put("partitionsPerRun", variant.partitionsPerRun());
            json.put("warmService", variant.warmService());
            variantJson.put(variant.name(), json);
        }
        NaiveFullRewrite.Result n = naive.value();
        ObjectNode naiveJson = approach(
                naive.measurement(),
                n.bytesRead(),
                n.bytesWritten(),
                0,
                0,
                n.filesWritten(),
                n.filesRead(),
                n.partitions());
        ObjectNode approaches = out.putObject("approaches");
        variantJson.forEach(approaches::set);
        runs.forEach((name, repeats) -> {
            var each = ((ObjectNode) approaches.get(name)).putArray("wallSecondsOfEachRun");
            repeats.forEach(run -> each.add(run.timed().measurement().seconds()));
            var jit = ((ObjectNode) approaches.get(name)).putArray("jitCompileSecondsOfEachRun");
            repeats.forEach(run -> jit.add(run.timed().measurement().jitCompileSeconds()));
            var cpu = ((ObjectNode) approaches.get(name)).putArray("cpuSecondsOfEachRun");
            repeats.forEach(run -> cpu.add(run.timed().measurement().cpuSeconds()));
            var stolen = ((ObjectNode) approaches.get(name)).putArray("stolenCpuSecondsOfEachRun");
            repeats.forEach(run -> stolen.add(run.timed().measurement().stolenCpuSeconds()));
            var byThread = ((ObjectNode) approaches.get(name)).putArray("cpuSecondsByThreadGroupOfEachRun");
            repeats.forEach(run -> {
                ObjectNode groups = byThread.addObject();
                run.timed().measurement().cpuSecondsByThreadGroup().forEach(groups::put);
            });
        });
        approaches.set("naiveFullRewrite", naiveJson);
        approaches.set("duckdbFullRewrite", duckJson);
        approaches.set("duckdbFullRewriteOneThread", duckOneThreadJson);

        ObjectNode ratios = out.putObject("ratios");
        double incSeconds = inc.measurement().seconds();
        ratios.put("timeNaiveOverIncremental", naive.measurement().seconds() / incSeconds);
        ratios.put("timeDuckDbOverIncremental", duckJson.get("wallSeconds").asDouble() / incSeconds);
        double incTwoSeconds = two.timed().measurement().seconds();
        ratios.put("timeNaiveOverIncrementalTwoTasks", naive.measurement().seconds() / incTwoSeconds);
        ratios.put(
                "timeDuckDbOverIncrementalTwoTasks", duckJson.get("wallSeconds").asDouble() / incTwoSeconds);
        ratios.put(
                "timePartitionByPartitionOverIncremental",
                oneByOne.timed().measurement().seconds() / incSeconds);
        double oneThreadSeconds =
                medians.get("incrementalOneThread").timed().measurement().seconds();
        ratios.put("timeOneThreadOverAllThreads", oneThreadSeconds / incSeconds);
        ratios.put(
                "timeOneThreadOverTwoTasksOneThreadEach",
                oneThreadSeconds
                        / medians.get("incrementalTwoTasksOneThreadEach")
                                .timed()
                                .measurement()
                                .seconds());
        ratios.put("timeOneThreadOverTwoTasks", oneThreadSeconds / incTwoSeconds);
        double duckOneThreadSeconds = duckOneThreadJson.get("wallSeconds").asDouble();
        ratios.put("timeDuckDbOneThreadOverIncrementalOneThread", duckOneThreadSeconds / oneThreadSeconds);
        ratios.put(
                "timeDuckDbOneThreadOverDuckDbAllThreads",
                duckOneThreadSeconds / duckJson.get("wallSeconds").asDouble());
        double incCpu = inc.measurement().cpuSeconds();
        ratios.put("cpuNaiveOverIncremental", naive.measurement().cpuSeconds() / incCpu);
        ratios.put("cpuDuckDbOverIncremental", duckJson.get("cpuSeconds").asDouble() / incCpu);
        ratios.put("bytesWrittenNaiveOverIncremental", (double) n.bytesWritten() / change.dataBytesWritten());
        ratios.put(
                "bytesWrittenDuckDbOverIncremental",
                duckJson.get("dataBytesWritten").asDouble() / change.dataBytesWritten());
        ratios.put("bytesReadNaiveOverIncremental", (double) n.bytesRead() / result.bytesRead());
        ratios.put("bytesReadDuckDbOverIncremental", (double) prepared.archiveBytes() / result.bytesRead());
        ratios.put(
                "incrementalDataBytesWrittenOverTouchedPartitionBytes",
                (double) change.dataBytesWritten() / prepared.touchedBytes());
        ratios.put(
                "incrementalDataAndIndexBytesWrittenOverTouchedPartitionBytes",
                (double) (change.dataBytesWritten() + change.indexBytesWritten()) / prepared.touchedBytes());
        ratios.put("boundFromTouchedShare", (double) prepared.archiveBytes() / prepared.touchedBytes());
        double warmSeconds =
                medians.get("incrementalWarmService").timed().measurement().seconds();
        double warmOneThreadSeconds = medians.get("incrementalWarmServiceOneThread")
                .timed()
                .measurement()
                .seconds();
        ratios.put(
                "timeDuckDbOverIncrementalWarmService",
                duckJson.get("wallSeconds").asDouble() / warmSeconds);
        ratios.put("timeNaiveOverIncrementalWarmService", naive.measurement().seconds() / warmSeconds);
        ratios.put("timeOneThreadOverAllThreadsWarmService", warmOneThreadSeconds / warmSeconds);
        ratios.put(
                "timeDuckDbOneThreadOverIncrementalOneThreadWarmService", duckOneThreadSeconds / warmOneThreadSeconds);
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
            List<IncrementalRun> sorted = new ArrayList<>(runs);
            sorted.sort(
                    Comparator.comparingDouble(run -> run.timed().measurement().seconds()));
            IncrementalRun median = sorted.get(sorted.size() / 2);
            for (IncrementalRun run : runs) {
                if (run != median) {
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
