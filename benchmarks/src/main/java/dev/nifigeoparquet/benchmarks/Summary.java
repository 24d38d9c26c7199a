package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** The markdown summary of a results file, and the bars of its ratio chart, each checked against its target. */
final class Summary {

    private static final double MIB = 1024 * 1024;

    private final JsonNode root;
    private final JsonNode s;

    Summary(JsonNode root) {
        this.root = root;
        this.s = root.path("scenarios");
    }

    List<Charts.Bar> bars() {
        List<Charts.Bar> bars = new ArrayList<>();
        JsonNode n = s.path("nightly").path("ratios");
        if (!n.isMissingNode()) {
            bars.add(new Charts.Bar(
                    "S1 time: naive full / incremental",
                    n.path("timeNaiveOverIncremental").asDouble(),
                    40,
                    true));
            bars.add(new Charts.Bar(
                    "S1 time: DuckDB full / incremental",
                    n.path("timeDuckDbOverIncremental").asDouble(),
                    20,
                    true));
            bars.add(new Charts.Bar(
                    "S1 bytes written: naive / incremental",
                    n.path("bytesWrittenNaiveOverIncremental").asDouble(),
                    Double.NaN,
                    true));
            bars.add(new Charts.Bar(
                    "S1 bytes read: naive / incremental",
                    n.path("bytesReadNaiveOverIncremental").asDouble(),
                    Double.NaN,
                    true));
            bars.add(new Charts.Bar(
                    "S1 bound: archive / touched bytes",
                    n.path("boundFromTouchedShare").asDouble(),
                    Double.NaN,
                    true));
            bars.add(new Charts.Bar(
                    "S1 written / touched bytes (data)",
                    n.path("incrementalDataBytesWrittenOverTouchedPartitionBytes")
                            .asDouble(),
                    1.1,
                    false));
        }
        JsonNode a = s.path("append").path("ratios");
        if (!a.isMissingNode()) {
            bars.add(new Charts.Bar(
                    "S2 append time: engine / DuckDB",
                    a.path("engineTimeOverDuckDb").asDouble(),
                    2,
                    false));
            bars.add(new Charts.Bar(
                    "S2 append time: engine / pyarrow-style",
                    a.path("engineTimeOverPyarrowStyle").asDouble(),
                    Double.NaN,
                    false));
        }
        for (JsonNode p : s.path("compaction").path("partitions")) {
            bars.add(new Charts.Bar(
                    "S3 compaction " + p.path("files").asInt() + " files: engine / DuckDB",
                    p.path("engineTimeOverDuckDbTyped").asDouble(),
                    1,
                    false));
        }
        JsonNode bbox = s.path("compaction").path("bboxQuery");
        if (bbox.has("orders")) {
            bars.add(new Charts.Bar(
                    "S3 bbox query: row groups read, Hilbert / input order",
                    bbox.path("rowGroupsReadHilbertOverInput").asDouble(),
                    0.25,
                    false));
            bars.add(new Charts.Bar(
                    "S3 bbox query: row groups read, tiles / input order",
                    bbox.path("rowGroupsReadTilesOverInput").asDouble(),
                    0.25,
                    false));
        }
        JsonNode r = s.path("routing");
        if (!r.isMissingNode()) {
            bars.add(new Charts.Bar(
                    "S4 routing / the copy like the route, throughput",
                    r.path("routeThroughputOverCopyLikeTheRoute").asDouble(),
                    0.8,
                    true));
        }
        JsonNode sc = s.path("scaling");
        if (!sc.isMissingNode()) {
            bars.add(new Charts.Bar(
                    "S6 incremental time, largest / smallest archive",
                    sc.path("incrementalTimeRatioLargestOverSmallest").asDouble(),
                    1.5,
                    false));
            bars.add(new Charts.Bar(
                    "S6 naive full rewrite time, largest / smallest archive",
                    sc.path("naiveFullRewriteTimeRatioLargestOverSmallest").asDouble(),
                    Double.NaN,
                    true));
        }
        JsonNode o = s.path("s3").path("ratios");
        if (!o.isMissingNode()) {
            bars.add(new Charts.Bar(
                    "S1 on S3 requests: full / incremental",
                    o.path("requestsFullOverIncremental").asDouble(),
                    Double.NaN,
                    true));
            bars.add(new Charts.Bar(
                    "S1 on S3 bytes moved: full / incremental",
                    o.path("bytesTransferredFullOverIncremental").asDouble(),
                    Double.NaN,
                    true));
        }
        return bars;
    }

    /** The results document: a heading, the targets, then one section per scenario that ran. */
    String markdown(String name) {
        return blocks(
                heading(name),
                targetsSection(),
                nightlySection(),
                localitySection(),
                commandLineSection(),
                nightlyOnS3Section(),
                appendSection(),
                compactionSection(),
                routingSection(),
                jmhSection(),
                memorySection(),
                scalingSection(),
                keyScaleSection());
    }

    private String heading(String name) {
        JsonNode m = root.path("machine");
        return blocks(
                "# Benchmark results " + name + "\n",
                "Scale `" + root.path("scale").asText() + "`, "
                        + m.path("availableProcessors").asInt() + " processors ("
                        + m.path("cpu").asText() + "), "
                        + m.path("java").asText() + ", load average "
                        + f(m.path("loadAverageAtStart").asDouble()) + " at start and "
                        + f(m.path("loadAverageAtEnd").asDouble()) + " at end; total "
                        + f(root.path("totalSeconds").asDouble())
                        + " s. Every ratio compares runs made in the same process, one after another.\n");
    }

    // Targets

    /** One line of the targets table: what is aimed at, what was measured, and whether it was met. */
    private record Target(String target, String measured, boolean met) {

        List<String> cells() {
            return List.of(target, measured, met ? "yes" : "**no**");
        }
    }

    private String targetsSection() {
        List<Target> targets = Stream.of(
                        nightlyTargets(),
                        localityTargets(),
                        commandLineTargets(),
                        memoryTargets(),
                        appendTargets(),
                        bboxQueryTargets(),
                        routingTargets(),
                        compactionTargets(),
                        scalingTargets(),
                        keyScaleTargets(),
                        nightlyOnS3Targets())
                .flatMap(List::stream)
                .toList();
        MarkdownTable table = new MarkdownTable(
                List.of("target", "measured", "met"),
                targets.stream().map(Target::cells).toList());
        return section("Targets", table.render());
    }

    private List<Target> nightlyTargets() {
        JsonNode n = s.path("nightly");
        if (!n.has("ratios")) {
            return List.of();
        }
        JsonNode ratios = n.path("ratios");
        List<Target> targets = new ArrayList<>();
        double naive = ratios.path("timeNaiveOverIncremental").asDouble();
        double duckDb = ratios.path("timeDuckDbOverIncremental").asDouble();
        targets.add(new Target(
                "S1 incremental >= 40x faster than the naive full rewrite (row API)", x(naive), naive >= 40));
        targets.add(new Target("S1 incremental >= 20x faster than DuckDB's full rewrite", x(duckDb), duckDb >= 20));
        if (ratios.has("timeDuckDbOverIncrementalTwoTasks")) {
            targets.add(fasterThanBothRewrites(
                    "(S1 same, the incremental upsert with 2 concurrent tasks: naive / incremental, DuckDB / incremental)",
                    ratios.path("timeNaiveOverIncrementalTwoTasks").asDouble(),
                    ratios.path("timeDuckDbOverIncrementalTwoTasks").asDouble()));
        }
        targets.add(fasterThanBothRewrites(
                "(S1 same, in process CPU time: naive / incremental, DuckDB / incremental)",
                ratios.path("cpuNaiveOverIncremental").asDouble(),
                ratios.path("cpuDuckDbOverIncremental").asDouble()));
        double written = ratios.path("incrementalDataBytesWrittenOverTouchedPartitionBytes")
                .asDouble();
        double writtenWithIndex = ratios.path("incrementalDataAndIndexBytesWrittenOverTouchedPartitionBytes")
                .asDouble();
        targets.add(new Target(
                "S1 data bytes written <= 1.1x the touched partitions' bytes",
                x(written) + " (with the key index: " + x(writtenWithIndex) + ")",
                written <= 1.1));
        if (ratios.has("timeOneThreadOverAllThreads")) {
            double threads = ratios.path("timeOneThreadOverAllThreads").asDouble();
            targets.add(new Target("S1 all worker threads >= 1.7x faster than one", x(threads), threads >= 1.7));
        }
        if (ratios.has("timeDuckDbOverIncrementalWarmService")) {
            double naiveWarm =
                    ratios.path("timeNaiveOverIncrementalWarmService").asDouble();
            double duckDbWarm =
                    ratios.path("timeDuckDbOverIncrementalWarmService").asDouble();
            double threadsWarm =
                    ratios.path("timeOneThreadOverAllThreadsWarmService").asDouble();
            targets.add(new Target(
                    "(S1 same, on an archive warmed as a NiFi archive service's is: naive / incremental, DuckDB /"
                            + " incremental, 1 thread / all)",
                    x(naiveWarm) + ", " + x(duckDbWarm) + ", " + x(threadsWarm),
                    naiveWarm >= 40 && duckDbWarm >= 20 && threadsWarm >= 1.7));
        }
        boolean reconciled = n.path("reconciliation").path("holds").asBoolean();
        targets.add(new Target(
                "S1 reconciliation (DuckDB counts, engine verification, same rows as both full rewrites)",
                String.valueOf(reconciled),
                reconciled));
        return targets;
    }

    /** At every night: the engine no slower than DuckDB doing the same partition work, nor than its full rewrite. */
    private List<Target> localityTargets() {
        List<Target> targets = new ArrayList<>();
        for (JsonNode night : s.path("locality").path("nights")) {
            JsonNode ratios = night.path("ratios");
            double sameWork = ratios.path("engineOverDuckDbSameWork").asDouble();
            double full = ratios.path("engineOverDuckDbFullRewrite").asDouble();
            String name = night.path("night").asText();
            targets.add(new Target("S7 " + name + ": engine / DuckDB same work <= 1.0", f(sameWork), sameWork <= 1.0));
            targets.add(new Target("S7 " + name + ": engine / DuckDB full rewrite <= 1.0", f(full), full <= 1.0));
            if (ratios.has("engineOneThreadOverDuckDbSameWorkOneThread")) {
                double oneThread = ratios.path("engineOneThreadOverDuckDbSameWorkOneThread")
                        .asDouble();
                targets.add(new Target(
                        "S7 " + name + ": engine / DuckDB same work, one thread each <= 1.0",
                        f(oneThread),
                        oneThread <= 1.0));
            }
            targets.add(new Target(
                    "S7 " + name + ": every measured copy verified",
                    night.path("verification").path("measuredCopiesVerified").asInt() + " copies",
                    night.path("verification").path("holds").asBoolean()));
        }
        return targets;
    }

    /** The command line, cold, within 2.0x of DuckDB doing the same partition work as its own process. */
    private List<Target> commandLineTargets() {
        JsonNode cli = s.path("cli");
        if (cli.isMissingNode()) {
            return List.of();
        }
        double ratio =
                cli.path("ratios").path("commandLineOverDuckDbSameWorkProcess").asDouble();
        return List.of(
                new Target(
                        "S8 the command line, cold / DuckDB same work as its own process <= 2.0", x(ratio), ratio <= 2),
                new Target(
                        "S8 every measured copy verified",
                        cli.path("verification").path("measuredCopiesVerified").asInt() + " copies",
                        cli.path("verification").path("holds").asBoolean()));
    }

    /** The incremental upsert against both full rewrites: 40x the naive one's speed and 20x DuckDB's. */
    private static Target fasterThanBothRewrites(String target, double naiveRatio, double duckDbRatio) {
        return new Target(target, x(naiveRatio) + ", " + x(duckDbRatio), naiveRatio >= 40 && duckDbRatio >= 20);
    }

    private List<Target> memoryTargets() {
        JsonNode mem = s.path("memory");
        if (mem.isMissingNode()) {
            return List.of();
        }
        JsonNode single = mem.path("singlePartitionUpsert");
        return List.of(
                upsertUnderSmallHeap("S5 scenario 1's upsert under -Xmx256m", mem.path("nightlyUpsert")),
                upsertUnderSmallHeap(
                        "S5 " + single.path("partitionRows").asLong() + "-row single-partition upsert under -Xmx256m",
                        single),
                upsertUnderSmallHeap(
                        "S5 headroom: scenario 1's upsert under -Xmx192m", mem.path("nightlyUpsertHeadroom")),
                upsertUnderSmallHeap(
                        "S5 headroom: the single-partition upsert under -Xmx192m",
                        mem.path("singlePartitionUpsertHeadroom")));
    }

    private static Target upsertUnderSmallHeap(String target, JsonNode run) {
        boolean succeeded = run.path("succeeded").asBoolean();
        return new Target(
                target,
                succeeded
                        ? "succeeded, heap peak "
                                + mib(run.path("child").path("heapPeakBytes").asLong())
                        : "failed (exit " + run.path("exitCode").asInt() + ")",
                succeeded);
    }

    private List<Target> appendTargets() {
        JsonNode ratios = s.path("append").path("ratios");
        List<Target> targets = new ArrayList<>();
        if (ratios.has("engineTimeOverDuckDb")) {
            double ratio = ratios.path("engineTimeOverDuckDb").asDouble();
            targets.add(new Target(
                    "S2 append within 2x of DuckDB's partitioned APPEND, key-checked and fsynced",
                    x(ratio),
                    ratio <= 2));
        }
        if (ratios.has("engineWarmServiceTimeOverDuckDb")) {
            double ratio = ratios.path("engineWarmServiceTimeOverDuckDb").asDouble();
            targets.add(
                    new Target("(S2 same, on an archive warmed as a NiFi archive service's is)", x(ratio), ratio <= 2));
        }
        return targets;
    }

    private List<Target> bboxQueryTargets() {
        JsonNode query = s.path("compaction").path("bboxQuery");
        List<Target> targets = new ArrayList<>();
        for (String order : List.of("Hilbert", "Tiles")) {
            if (query.has("rowGroupsRead" + order + "OverInput")) {
                double ratio = query.path("rowGroupsRead" + order + "OverInput").asDouble();
                targets.add(new Target(
                        "S3 bbox query on the " + order.toLowerCase(Locale.ROOT)
                                + "-ordered partition reads <= 0.25x the row groups of input order",
                        x(ratio),
                        ratio <= 0.25));
            }
        }
        return targets;
    }

    private List<Target> routingTargets() {
        JsonNode r = s.path("routing");
        if (r.isMissingNode()) {
            return List.of();
        }
        double ratio = r.path("routeThroughputOverCopyLikeTheRoute").asDouble();
        return List.of(
                new Target(
                        "S4 routing >= 80% of the throughput of a copy with the route's helper threads and encodings",
                        pct(ratio), ratio >= 0.8),
                new Target(
                        "S4 every row routed once, into its cell, with its own bbox",
                        r.path("routedVerification").path("rowsCountedByDuckDb").asLong() + " rows of "
                                + r.path("features").asLong(),
                        routedOnce(
                                        r.path("routedVerification"),
                                        r.path("features").asLong())
                                && routedOnce(
                                        r.path("routedOnOneThreadVerification"),
                                        r.path("features").asLong())
                                && (!r.has("routedSortedByCellVerification")
                                        || routedOnce(
                                                r.path("routedSortedByCellVerification"),
                                                r.path("features").asLong()))));
    }

    /**
     * A route's output, as DuckDB counted it and as keyed again: every input row once, each in its cell, and each with
     * its own geometry's bbox (runs before that was checked do not record it).
     */
    private static boolean routedOnce(JsonNode verification, long features) {
        return verification.path("rowsCountedByDuckDb").asLong() == features
                && verification.path("rowsOutsideTheirCell").isNumber()
                && verification.path("rowsOutsideTheirCell").asLong() == 0
                && verification.path("rowsWithAnotherBbox").asLong(0) == 0;
    }

    private List<Target> compactionTargets() {
        List<Target> targets = new ArrayList<>();
        for (JsonNode p : s.path("compaction").path("partitions")) {
            double ratio = p.path("engineTimeOverDuckDbTyped").asDouble();
            boolean geoIdentical =
                    p.path("engine").path("geoIdenticalToCanonical").asBoolean();
            targets.add(new Target(
                    "S3 compaction of " + p.path("files").asInt()
                            + " files no slower than DuckDB's COPY, metadata intact",
                    "engine/DuckDB time " + x(ratio) + ", engine geo identical: " + geoIdentical,
                    ratio <= 1 && geoIdentical));
        }
        return targets;
    }

    private List<Target> scalingTargets() {
        JsonNode sc = s.path("scaling");
        if (sc.isMissingNode()) {
            return List.of();
        }
        double ratio = sc.path("incrementalTimeRatioLargestOverSmallest").asDouble();
        JsonNode points = sc.path("points");
        return List.of(
                new Target(
                        "S6 incremental time within 1.5x from "
                                + points.path(0).path("partitions").asInt() + " to "
                                + points.path(points.size() - 1)
                                        .path("partitions")
                                        .asInt() + " partitions",
                        x(ratio) + " (CPU time: "
                                + x(sc.path("incrementalCpuRatioLargestOverSmallest")
                                        .asDouble()) + ")",
                        ratio <= 1.5),
                new Target(
                        "S6 every measured copy verified",
                        sc.path("verification").path("measuredCopiesVerified").asInt() + " copies",
                        sc.path("verification").path("holds").asBoolean()));
    }

    /** Twenty times the keys: cold and warm within 1.5x of the guide's index, cold within the service's heap. */
    private List<Target> keyScaleTargets() {
        JsonNode k = s.path("keys");
        if (k.isMissingNode()) {
            return List.of();
        }
        if (k.has("failed")) {
            return List.of(new Target("S9 20x the keys", k.path("failed").asText(), false));
        }
        double cold = k.path("ratios").path("cold20xOverGuideKeys").asDouble();
        double warm = k.path("ratios").path("warm20xOverGuideKeys").asDouble();
        JsonNode underHeap = k.path("cold20xKeysUnderHeap");
        return List.of(
                new Target("S9 20x the keys, cold: time / the guide's keys <= 1.5", x(cold), cold <= 1.5),
                new Target("S9 20x the keys, warm: time / the guide's keys <= 1.5", x(warm), warm <= 1.5),
                upsertUnderSmallHeap("S9 20x the keys, cold, under " + MemoryScenario.HEAP, underHeap),
                upsertUnderSmallHeap(
                        "S9 headroom: 20x the keys, cold, under " + MemoryScenario.HEADROOM_HEAP,
                        k.path("cold20xKeysUnderHeadroomHeap")),
                new Target(
                        "S9 every measured copy verified",
                        k.path("verification").path("measuredCopiesVerified").asInt() + " copies",
                        k.path("verification").path("holds").asBoolean()));
    }

    private String keyScaleSection() {
        JsonNode k = s.path("keys");
        if (k.isMissingNode()) {
            return "";
        }
        if (k.has("failed")) {
            return section(
                    "Scenario 9: twenty times the keys",
                    "Not measured: " + k.path("failed").asText() + ".\n");
        }
        List<List<String>> rows = new ArrayList<>();
        for (KeyScaleScenario.Approach approach : KeyScaleScenario.Approach.values()) {
            JsonNode a = k.path("approaches").path(approach.key);
            rows.add(MarkdownTable.row(
                    approach.key,
                    String.format(
                            Locale.ROOT,
                            "%,d",
                            approach.manyKeys()
                                    ? k.path("keys").asLong()
                                    : k.path("guideKeys").asLong()),
                    spread(a),
                    f(a.path("medianRunCpuSeconds").asDouble()),
                    mib(a.path("medianRunHeapPeakBytes").asLong())));
        }
        JsonNode underHeap = k.path("cold20xKeysUnderHeap");
        JsonNode headroom = k.path("cold20xKeysUnderHeadroomHeap");
        return section(
                "Scenario 9: twenty times the keys",
                new MarkdownTable(List.of("approach", "keys in the index", "wall s", "CPU s", "heap peak"), rows)
                        .render(),
                "The nightly delta of " + k.path("deltaFeatures").asInt() + " features on the guide's archive, its"
                        + " key index of "
                        + String.format(Locale.ROOT, "%,d", k.path("guideKeys").asLong())
                        + " keys (" + mib(k.path("guideIndexBytes").asLong()) + ") and one of "
                        + String.format(Locale.ROOT, "%,d", k.path("keys").asLong()) + " ("
                        + mib(k.path("indexBytes").asLong()) + ", built in "
                        + f(k.path("indexBuildSeconds").asDouble()) + " s): beside each parcel's key, "
                        + KeyScaleScenario.SYNTHETIC_PER_KEY + " synthetic keys that sort right after it. Cold: a"
                        + " freshly opened archive, as the command line opens it; warm: as the archive service keeps"
                        + " it. Median (min-max) of " + LocalityScenario.ROUNDS + " runs each, interleaved in turn"
                        + " after one unmeasured run of each, every copy's DuckDB digest equal to the first's. 20x /"
                        + " guide: cold **"
                        + x(k.path("ratios").path("cold20xOverGuideKeys").asDouble())
                        + "**, warm **"
                        + x(k.path("ratios").path("warm20xOverGuideKeys").asDouble()) + "**. Cold"
                        + " on 20x the keys under " + MemoryScenario.HEAP + ": "
                        + (underHeap.path("succeeded").asBoolean()
                                ? "passes, "
                                        + f(underHeap
                                                .path("child")
                                                .path("wallSeconds")
                                                .asDouble())
                                        + " s, heap peak "
                                        + mib(underHeap
                                                .path("child")
                                                .path("heapPeakBytes")
                                                .asLong())
                                : "**fails** (exit "
                                        + underHeap.path("exitCode").asInt() + ")")
                        + "; under " + MemoryScenario.HEADROOM_HEAP + ": "
                        + (headroom.path("succeeded").asBoolean()
                                ? "passes, "
                                        + f(headroom.path("child")
                                                .path("wallSeconds")
                                                .asDouble())
                                        + " s, heap peak "
                                        + mib(headroom.path("child")
                                                .path("heapPeakBytes")
                                                .asLong())
                                : "**fails** (exit " + headroom.path("exitCode").asInt() + ")")
                        + ".\n");
    }

    private List<Target> nightlyOnS3Targets() {
        JsonNode o = s.path("s3");
        if (!o.has("approaches")) {
            return List.of();
        }
        JsonNode inc = o.path("approaches").path("incremental");
        JsonNode full = o.path("approaches").path("fullRewrite");
        boolean below = inc.path("requests").asLong() < full.path("requests").asLong()
                && inc.path("bytesUploaded").asLong()
                        < full.path("bytesUploaded").asLong()
                && inc.path("bytesDownloaded").asLong()
                        < full.path("bytesDownloaded").asLong();
        boolean reconciled = o.path("reconciliation").path("holds").asBoolean();
        return List.of(
                new Target(
                        "S1 on S3: requests and bytes, incremental vs full rewrite (informational; met when the"
                                + " incremental's are lower)",
                        String.format(
                                Locale.ROOT,
                                "requests %,d vs %,d; uploaded %s vs %s; downloaded %s vs %s",
                                inc.path("requests").asLong(),
                                full.path("requests").asLong(),
                                bytes(inc.path("bytesUploaded").asLong()),
                                bytes(full.path("bytesUploaded").asLong()),
                                bytes(inc.path("bytesDownloaded").asLong()),
                                bytes(full.path("bytesDownloaded").asLong())),
                        below),
                new Target(
                        "S1 on S3 reconciliation (rows read back, same rows after both, engine verification)",
                        String.valueOf(reconciled),
                        reconciled));
    }

    // Scenario 1: nightly delta

    private String nightlySection() {
        JsonNode n = s.path("nightly");
        if (!n.has("approaches")) {
            return "";
        }
        return section(
                "Scenario 1: nightly delta",
                nightlyArchiveAndDelta(n),
                nightlyApproaches(n.path("approaches")).render(),
                nightlyRepeats(n),
                nightlyReconciliation(n));
    }

    private static String nightlyArchiveAndDelta(JsonNode n) {
        JsonNode arc = n.path("archive");
        JsonNode d = n.path("delta");
        return String.format(
                Locale.ROOT,
                "Archive: %,d parcels in %d partitions (H3 resolution %d), %s of data; the largest partition "
                        + "holds %s of the bytes. Delta: %,d features (%d updates, %d new keys, %d moved keys, %d deletions) "
                        + "landing in %d partitions holding %s of the archive's bytes (%s).\n",
                arc.path("rows").asLong(),
                arc.path("partitions").asInt(),
                arc.path("h3Resolution").asInt(),
                mib(arc.path("dataBytes").asLong()),
                pct(arc.path("largestPartitionShareOfBytes").asDouble()),
                d.path("features").asLong(),
                d.path("updates").asLong(),
                d.path("newKeys").asLong(),
                d.path("movedKeys").asLong(),
                d.path("deletions").asLong(),
                d.path("touchedPartitions").asInt(),
                pct(d.path("touchedShareOfBytes").asDouble()),
                mib(d.path("touchedPartitionBytes").asLong()));
    }

    private static MarkdownTable nightlyApproaches(JsonNode approaches) {
        List<List<String>> rows = new ArrayList<>();
        for (String key : List.of(
                "incremental",
                "incrementalOneThread",
                "incrementalTwoTasks",
                "incrementalTwoTasksOneThreadEach",
                "incrementalPartitionByPartition",
                "incrementalWarmService",
                "incrementalWarmServiceOneThread",
                "naiveFullRewrite",
                "duckdbFullRewrite",
                "duckdbFullRewriteOneThread")) {
            JsonNode a = approaches.path(key);
            if (!a.isMissingNode()) {
                rows.add(MarkdownTable.row(
                        // What the naive rewrite is: every row through the engine's row API, not a columnar rewrite.
                        key.equals("naiveFullRewrite") ? "naiveFullRewrite (row API)" : key,
                        f(a.path("wallSeconds").asDouble()),
                        f(a.path("cpuSeconds").asDouble()),
                        mib(a.path("bytesRead").asLong()),
                        mib(a.path("dataBytesWritten").asLong()),
                        mib(a.path("indexBytesWritten").asLong()),
                        a.path("filesWritten").asLong(),
                        a.path("filesRemovedOrSuperseded").asLong(),
                        a.path("partitionsTouched").asLong(),
                        mib(a.path("heapPeakBytes").asLong()),
                        mib(a.path("rssPeakBytes").asLong())));
            }
        }
        return new MarkdownTable(
                List.of(
                        "approach",
                        "wall s",
                        "CPU s",
                        "bytes read",
                        "data bytes written",
                        "index bytes written",
                        "files written",
                        "files superseded",
                        "partitions",
                        "peak heap (sampled)",
                        "peak RSS"),
                rows);
    }

    private static String nightlyRepeats(JsonNode n) {
        if (!n.path("ratios").has("timePartitionByPartitionOverIncremental")) {
            return "";
        }
        return String.format(
                Locale.ROOT,
                "Incremental approaches: median of %d interleaved runs each, after a warm-up "
                        + "with the whole delta. One partition per run (Batch Size 1) / all in one run: %s.\n",
                n.path("approaches")
                        .path("incremental")
                        .path("wallSecondsOfEachRun")
                        .size(),
                x(n.path("ratios")
                        .path("timePartitionByPartitionOverIncremental")
                        .asDouble()));
    }

    private static String nightlyReconciliation(JsonNode n) {
        JsonNode rec = n.path("reconciliation");
        boolean duckDbGeoDropped = n.path("approaches")
                .path("duckdbFullRewrite")
                .path("geoMetadataInOutput")
                .isNull();
        return String.format(
                        Locale.ROOT,
                        "Reconciliation (counted by DuckDB): %,d + %,d = %,d expected; incremental %,d, naive %,d, "
                                + "DuckDB %,d; rows differing from the naive rewrite %d, from DuckDB's %d; engine"
                                + " verification consistent: %s.\n",
                        rec.path("baselineRows").asLong(),
                        rec.path("netRowsExpected").asLong(),
                        rec.path("expectedAfter").asLong(),
                        rec.path("afterIncrementalCountedByDuckDb").asLong(),
                        rec.path("afterNaiveFullRewriteCountedByDuckDb").asLong(),
                        rec.path("afterDuckDbRewriteCountedByDuckDb").asLong(),
                        rec.path("rowsInIncrementalNotInNaive").asLong(),
                        rec.path("rowsInIncrementalNotInDuckDb").asLong(),
                        rec.path("engineVerificationConsistent").asBoolean())
                + "DuckDB's output `geo` entry: "
                + (duckDbGeoDropped
                        ? "absent (raw WKB with `enable_geoparquet_conversion = false`: the block is dropped)"
                        : "present")
                + ".\n";
    }

    // Scenario 1 on S3

    private String localitySection() {
        JsonNode nights = s.path("locality").path("nights");
        if (nights.isMissingNode()) {
            return "";
        }
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode night : nights) {
            JsonNode a = night.path("approaches");
            rows.add(MarkdownTable.row(
                    night.path("night").asText(),
                    night.path("features").asInt(),
                    night.path("partitionsTouched").asInt() + " of "
                            + night.path("partitions").asInt(),
                    pct(night.path("touchedShareOfBytes").asDouble()),
                    spread(a.path("engine")),
                    spread(a.path("duckDbSameWork")),
                    spread(a.path("duckDbFullRewrite")),
                    f(night.path("ratios").path("engineOverDuckDbSameWork").asDouble()),
                    f(night.path("ratios").path("engineOverDuckDbFullRewrite").asDouble()),
                    f(a.path("engine").path("rewrittenMiBPerSecond").asDouble()),
                    f(a.path("duckDbSameWork").path("rewrittenMiBPerSecond").asDouble()),
                    f(a.path("duckDbFullRewrite").path("rewrittenMiBPerSecond").asDouble())));
        }
        MarkdownTable table = new MarkdownTable(
                List.of(
                        "night",
                        "features",
                        "partitions touched",
                        "touched bytes",
                        "engine s",
                        "DuckDB same work s",
                        "DuckDB full rewrite s",
                        "engine / same work",
                        "engine / full",
                        "engine MiB/s",
                        "same work MiB/s",
                        "full rewrite MiB/s"),
                rows);
        return section(
                "Scenario 7: locality",
                table.render(),
                "Median (min-max) of " + LocalityScenario.ROUNDS + " runs each, interleaved in turn after one"
                        + " unmeasured run of each; the engine warm as the archive service keeps it, on every core;"
                        + " DuckDB on its default threads, every file forced to disk. MiB/s: partition bytes"
                        + " rewritten (the touched partitions; the whole archive for the full rewrite) per second."
                        + " Every measured copy's DuckDB digest (rows, and the sum of every row's hash with its"
                        + " cell) equals the reference engine copy's, whose rows and distinct keys DuckDB counted.\n",
                oneThreadTable(nights),
                fileForcesTable(nights));
    }

    /** The nights whose engine and same work also ran on one thread each. */
    private static String oneThreadTable(JsonNode nights) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode night : nights) {
            JsonNode a = night.path("approaches");
            if (a.has("engineOneThread")) {
                rows.add(MarkdownTable.row(
                        night.path("night").asText(),
                        spread(a.path("engineOneThread")),
                        spread(a.path("duckDbSameWorkOneThread")),
                        f(night.path("ratios")
                                .path("engineOneThreadOverDuckDbSameWorkOneThread")
                                .asDouble()),
                        f(a.path("engineOneThread")
                                .path("rewrittenMiBPerSecond")
                                .asDouble()),
                        f(a.path("duckDbSameWorkOneThread")
                                .path("rewrittenMiBPerSecond")
                                .asDouble())));
            }
        }
        if (rows.isEmpty()) {
            return "";
        }
        return "One thread each (the engine's workers held to one, DuckDB `SET threads = 1`):\n\n"
                + new MarkdownTable(
                                List.of(
                                        "night",
                                        "engine s",
                                        "DuckDB same work s",
                                        "engine / same work",
                                        "engine MiB/s",
                                        "same work MiB/s"),
                                rows)
                        .render();
    }

    /** What the unmeasured runs forced to disk, from the JDK's file force events. */
    private static String fileForcesTable(JsonNode nights) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode night : nights) {
            JsonNode engine = night.path("fileForces").path("engine");
            JsonNode sameWork = night.path("fileForces").path("duckDbSameWork");
            if (!engine.isMissingNode()) {
                rows.add(MarkdownTable.row(
                        night.path("night").asText(),
                        night.path("partitionsTouched").asInt(),
                        engine.path("total").asLong(),
                        engine.path("dataFiles").asLong(),
                        engine.path("keyIndexFiles").asLong(),
                        engine.path("records").asLong(),
                        engine.path("directories").asLong(),
                        engine.path("other").asLong(),
                        f(engine.path("perTouchedPartition").asDouble()),
                        sameWork.path("total").asLong(),
                        f(sameWork.path("perTouchedPartition").asDouble())));
            }
        }
        if (rows.isEmpty()) {
            return "";
        }
        return "Files and directories forced to disk (fsync) by one run, from the JDK's `jdk.FileForce` events (Java's"
                + " forces only: the same work's are the files and directories it forces itself, not any DuckDB"
                + " makes in its own code; the engine's forces run on virtual threads, side by side):\n\n"
                + new MarkdownTable(
                                List.of(
                                        "night",
                                        "partitions",
                                        "engine fsyncs",
                                        "data files",
                                        "key-index files",
                                        "records",
                                        "directories",
                                        "other",
                                        "per partition",
                                        "same work fsyncs",
                                        "same work per partition"),
                                rows)
                        .render();
    }

    private String commandLineSection() {
        JsonNode cli = s.path("cli");
        if (cli.isMissingNode()) {
            return "";
        }
        JsonNode a = cli.path("approaches");
        JsonNode ratios = cli.path("ratios");
        MarkdownTable table = new MarkdownTable(
                List.of("approach", "wall s, median (min-max)", "/ DuckDB same work process"),
                List.of(
                        MarkdownTable.row(
                                "`geoparquet-archive apply`, start-up cache",
                                spread(a.path("commandLine")),
                                x(ratios.path("commandLineOverDuckDbSameWorkProcess")
                                        .asDouble())),
                        MarkdownTable.row(
                                "`geoparquet-archive apply`, no start-up cache",
                                spread(a.path("commandLineWithoutStartupCache")),
                                x(ratios.path("commandLineWithoutStartupCacheOverDuckDbSameWorkProcess")
                                        .asDouble())),
                        MarkdownTable.row(
                                "DuckDB same work, its own JVM", spread(a.path("duckDbSameWorkProcess")), "")));
        return section(
                "Scenario 8: the command line, cold",
                table.render(),
                "The nightly delta of scenario 1 into "
                        + cli.path("partitionsTouched").asInt()
                        + " partitions; each a process started for it, timed from start to exit; "
                        + CliColdScenario.ROUNDS + " runs each, interleaved in turn after one unmeasured run of each."
                        + " Every measured copy's DuckDB digest equals the reference copy's.\n");
    }

    private static String spread(JsonNode approach) {
        return f(approach.path("medianWallSeconds").asDouble()) + " ("
                + f(approach.path("minWallSeconds").asDouble()) + "-"
                + f(approach.path("maxWallSeconds").asDouble()) + ")";
    }

    private String nightlyOnS3Section() {
        JsonNode o = s.path("s3");
        if (!o.has("approaches")) {
            return "";
        }
        return section(
                "Scenario 1 on S3: requests and bytes",
                "Scenario 1's archive and delta on S3Mock in this JVM, each approach on its own copy, every request the"
                        + " storage made counted (`StorageMeter`). Request counts and bytes are what a bill is made of"
                        + " and do not depend on the server; wall times do, and S3Mock on loopback is not S3.\n",
                nightlyOnS3Requests(o.path("approaches")).render(),
                nightlyOnS3Ratios(o.path("ratios")),
                nightlyOnS3Reconciliation(o));
    }

    private static MarkdownTable nightlyOnS3Requests(JsonNode approaches) {
        List<List<String>> rows = new ArrayList<>();
        for (String key : List.of("incremental", "fullRewrite")) {
            JsonNode a = approaches.path(key);
            rows.add(MarkdownTable.row(
                    key,
                    a.path("puts").asLong(),
                    a.path("gets").asLong(),
                    a.path("lists").asLong(),
                    a.path("deletes").asLong(),
                    a.path("requests").asLong(),
                    bytes(a.path("bytesUploaded").asLong()),
                    bytes(a.path("bytesDownloaded").asLong()),
                    a.path("objectsDeleted").asLong(),
                    a.path("partitionsTouched").asLong(),
                    f(a.path("wallSeconds").asDouble())));
        }
        return new MarkdownTable(
                List.of(
                        "approach",
                        "PUT",
                        "GET/HEAD",
                        "LIST",
                        "DELETE",
                        "requests",
                        "uploaded",
                        "downloaded",
                        "objects deleted",
                        "partitions",
                        "wall s"),
                rows);
    }

    private static String nightlyOnS3Ratios(JsonNode ratios) {
        return "Full rewrite / incremental: requests "
                + x(ratios.path("requestsFullOverIncremental").asDouble()) + ", PUTs "
                + x(ratios.path("putsFullOverIncremental").asDouble()) + ", bytes uploaded "
                + x(ratios.path("bytesUploadedFullOverIncremental").asDouble()) + ", bytes downloaded "
                + x(ratios.path("bytesDownloadedFullOverIncremental").asDouble()) + ".\n";
    }

    private static String nightlyOnS3Reconciliation(JsonNode o) {
        JsonNode rec = o.path("reconciliation");
        return String.format(
                        Locale.ROOT,
                        "Reconciliation (read back through the storage): %,d + %,d = %,d expected; incremental %,d, "
                                + "full rewrite %,d; same rows after both: %s; engine verification consistent: %s.\n",
                        rec.path("baselineRows").asLong(),
                        rec.path("netRowsExpected").asLong(),
                        rec.path("expectedAfter").asLong(),
                        rec.path("afterIncrementalRowsRead").asLong(),
                        rec.path("afterFullRewriteRowsRead").asLong(),
                        rec.path("sameRowsAfterBoth").asBoolean(),
                        rec.path("engineVerificationConsistent").asBoolean())
                + "Setting up the two copies (uploads, not metered) took "
                + f(o.path("setup").path("uploadSeconds").asDouble()) + " s; the whole scenario "
                + f(o.path("wallSeconds").asDouble()) + " s.\n";
    }

    // Scenario 2: append

    private String appendSection() {
        JsonNode ap = s.path("append");
        if (ap.isMissingNode()) {
            return "";
        }
        List<List<String>> rows = ap.path("approaches").properties().stream()
                .map(e -> MarkdownTable.row(
                        e.getKey(),
                        f(e.getValue().path("wallSeconds").asDouble()),
                        mib(e.getValue().path("dataBytesWritten").asLong()),
                        e.getValue().path("filesWritten").asLong()))
                .toList();
        MarkdownTable table =
                new MarkdownTable(List.of("approach", "wall s", "data bytes written", "files written"), rows);
        return section(
                "Scenario 2: append",
                table.render(),
                "Reconciliation holds: "
                        + ap.path("reconciliation").path("holds").asBoolean() + ".\n");
    }

    // Scenario 3: compaction

    private String compactionSection() {
        if (!s.has("compaction")) {
            return "";
        }
        JsonNode compaction = s.path("compaction");
        return section(
                "Scenario 3: compaction",
                compactionTimes(compaction.path("partitions")).render(),
                compactionOnOneThread(compaction.path("partitions")),
                bboxQueries(compaction.path("bboxQuery")),
                compactionGeoMetadata(compaction));
    }

    private static MarkdownTable compactionTimes(JsonNode partitions) {
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode p : partitions) {
            JsonNode typed = p.path("duckdbTypedGeometry");
            rows.add(MarkdownTable.row(
                    p.path("files").asInt(),
                    p.path("rows").asLong(),
                    f(p.path("engine").path("wallSeconds").asDouble()),
                    f(typed.path("wallSeconds").asDouble()),
                    f(p.path("duckdbRawWkb").path("wallSeconds").asDouble()),
                    x(p.path("engineTimeOverDuckDbTyped").asDouble()),
                    p.path("engine").path("geoIdenticalToCanonical").asBoolean(),
                    typed.path("geoIdenticalToCanonical").asBoolean(),
                    typed.path("bboxAdded").asBoolean(),
                    typed.path("crsKept").asBoolean()));
        }
        return new MarkdownTable(
                List.of(
                        "files",
                        "rows",
                        "engine s",
                        "DuckDB (typed) s",
                        "DuckDB (raw WKB) s",
                        "engine / DuckDB typed",
                        "engine geo identical",
                        "DuckDB typed geo identical",
                        "bbox added",
                        "CRS kept"),
                rows);
    }

    private static String compactionOnOneThread(JsonNode partitions) {
        StringBuilder line = new StringBuilder(
                "One thread each (the engine's archive set to 1 thread, so pages are compressed on the writing thread"
                        + " too; DuckDB with `SET threads = 1`):");
        for (JsonNode p : partitions) {
            line.append(" ")
                    .append(p.path("files").asInt())
                    .append(" files: engine ")
                    .append(f(p.path("engineOneThreadWallSeconds").asDouble()))
                    .append(" s, DuckDB ")
                    .append(f(p.path("duckdbTypedOneThreadWallSeconds").asDouble()))
                    .append(" s, engine / DuckDB **")
                    .append(x(p.path("engineOneThreadOverDuckDbTypedOneThread").asDouble()))
                    .append("**;");
        }
        return line.append("\n").toString();
    }

    /** The bounding-box queries on one partition in each row order, or why they were not measured. */
    private static String bboxQueries(JsonNode q) {
        String skipped = q.has("skipped")
                ? "Bounding-box queries: not measured, " + q.path("skipped").asText() + ".\n"
                : "";
        if (!q.has("orders")) {
            return skipped;
        }
        return blocks(
                skipped,
                "Bounding-box queries (" + q.path("queryBoxes").asInt() + " boxes around sampled parcels, ±"
                        + q.path("marginDegrees").asDouble() + "°) on one partition of "
                        + q.path("files").asInt()
                        + " files, " + q.path("rows").asLong() + " rows, compacted into row groups of "
                        + q.path("rowGroupRows").asInt() + " rows:\n",
                bboxQueryOrders(q.path("orders")).render(),
                "Row groups read per query, against input order (target at most 0.25x): Hilbert curve **"
                        + x(q.path("rowGroupsReadHilbertOverInput").asDouble()) + "**, tiles **"
                        + x(q.path("rowGroupsReadTilesOverInput").asDouble()) + "**; bytes read per query "
                        + x(q.path("bytesReadHilbertOverInput").asDouble()) + " and "
                        + x(q.path("bytesReadTilesOverInput").asDouble()) + "; query time "
                        + x(q.path("queryTimeHilbertOverInput").asDouble()) + " and "
                        + x(q.path("queryTimeTilesOverInput").asDouble()) + "; compaction time "
                        + x(q.path("compactionTimeHilbertOverInput").asDouble()) + " and "
                        + x(q.path("compactionTimeTilesOverInput").asDouble()) + ".\n");
    }

    private static MarkdownTable bboxQueryOrders(JsonNode orders) {
        List<List<String>> rows = new ArrayList<>();
        for (String order : List.of("input", "hilbert", "tiles")) {
            JsonNode ordered = orders.path(order);
            rows.add(MarkdownTable.row(
                    order,
                    f(ordered.path("compactionSeconds").asDouble()),
                    ordered.path("rowGroups").asInt(),
                    f(ordered.path("rowGroupsReadPerQuery").asDouble()),
                    Math.round(ordered.path("bytesReadPerQuery").asDouble()),
                    f(ordered.path("queriesSeconds").asDouble()),
                    ordered.path("rowsMatched").asLong()));
        }
        return new MarkdownTable(
                List.of(
                        "row order",
                        "compaction s",
                        "row groups",
                        "row groups read per query",
                        "bytes read per query",
                        "DuckDB, all queries s",
                        "rows matched"),
                rows);
    }

    /** The {@code geo} metadata the engine writes, beside what DuckDB's {@code COPY} leaves of it. */
    private static String compactionGeoMetadata(JsonNode compaction) {
        JsonNode first = compaction.path("partitions").path(0);
        JsonNode rawWkb = first.path("duckdbRawWkb");
        String rawWkbGeo = "DuckDB's `geo` after `COPY` with `enable_geoparquet_conversion = false`: ";
        return blocks(
                "Canonical `geo` (what the engine wrote, byte for byte):\n",
                codeBlock(compaction.path("canonicalGeo").asText()),
                "DuckDB's `geo` after `COPY` (typed geometry):\n",
                codeBlock(first.path("duckdbTypedGeometry").path("geo").asText()),
                rawWkb.path("geoPresent").asBoolean()
                        ? blocks(rawWkbGeo + "\n", codeBlock(rawWkb.path("geo").asText()))
                        : rawWkbGeo + "absent.\n");
    }

    // Scenario 4: routing

    private String routingSection() {
        JsonNode r = s.path("routing");
        if (r.isMissingNode()) {
            return "";
        }
        return section(
                "Scenario 4: routing",
                carriedOver(r),
                "The route keys each block of rows on a helper thread while the caller reads, writes the cells on"
                        + " one lane per core, several cells at once, and compresses the cells' pages on helper"
                        + " threads, as RouteByH3Cell does with GeoParquetRecordSetWriter; routeWritingOnTheCaller"
                        + " writes every cell on the reading thread instead; routeOnOneThread does everything on one"
                        + " thread;"
                        + " copyCompressingAhead is the plain copy with its pages compressed on helper threads;"
                        + " copyLikeTheRoute also writes without dictionaries and in 64 KiB pages, as the route does, and is what the"
                        + " route is judged against. routeToOneFile writes every row to one file, and"
                        + " routeSortedByCell routes the same rows sorted by cell: they show what the many writers"
                        + " cost, and what is left without them. Median (min-max) of "
                        + r.path("repeats").asInt()
                        + " runs each, interleaved in turn after one unmeasured run of each. CPU time counts every"
                        + " thread.\n",
                routingPasses(r).render(),
                routingThroughputs(r));
    }

    private static MarkdownTable routingPasses(JsonNode r) {
        List<List<String>> rows = new ArrayList<>();
        for (String pass : List.of(
                "plainCopy",
                "copyCompressingAhead",
                "copyLikeTheRoute",
                "readAndDecode",
                "readDecodeAndKey",
                "routeOnOneThread",
                "routeToOneFile",
                "routeSortedByCell",
                "routeWritingOnTheCaller",
                "route")) {
            JsonNode cpu = r.path("cpuMicrosecondsPerFeature").path(pass);
            rows.add(MarkdownTable.row(
                    pass,
                    String.format(
                            Locale.ROOT,
                            "%,.0f",
                            r.path("featuresPerSecond").path(pass).asDouble()),
                    f(r.path("microsecondsPerFeature").path(pass).asDouble()),
                    cpu.isMissingNode() ? "–" : f(cpu.asDouble()),
                    spread(r.path("wallSeconds").path(pass))));
        }
        return new MarkdownTable(List.of("pass", "features/s", "µs/feature", "CPU µs/feature", "wall s"), rows);
    }

    private static String routingThroughputs(JsonNode r) {
        String throughputs = "";
        if (r.has("routeOnOneThreadThroughputOverPlainCopy")) {
            throughputs += "Route / plain copy throughput: "
                    + pct(r.path("routeThroughputOverPlainCopy").asDouble())
                    + " with the keying thread, "
                    + pct(r.path("routeOnOneThreadThroughputOverPlainCopy").asDouble()) + " on one thread.\n";
        }
        if (r.has("routeThroughputOverCopyCompressingAhead")) {
            throughputs += "Route / copy compressing ahead: "
                    + pct(r.path("routeThroughputOverCopyCompressingAhead").asDouble()) + ".\n";
        }
        if (r.has("routeThroughputOverCopyLikeTheRoute")) {
            throughputs += "Route / the copy like the route (target at least 80%): **"
                    + pct(r.path("routeThroughputOverCopyLikeTheRoute").asDouble()) + "**.\n";
        }
        if (r.has("routeSortedByCellThroughputOverCopyLikeTheRoute")) {
            throughputs += "Against the same copy, the route to one file: "
                    + pct(r.path("routeToOneFileThroughputOverCopyLikeTheRoute").asDouble())
                    + "; the route of the rows sorted by cell: "
                    + pct(r.path("routeSortedByCellThroughputOverCopyLikeTheRoute")
                            .asDouble())
                    + (r.has("routeWritingOnTheCallerThroughputOverCopyLikeTheRoute")
                            ? "; the route writing every cell on the reading thread: "
                                    + pct(r.path("routeWritingOnTheCallerThroughputOverCopyLikeTheRoute")
                                            .asDouble())
                            : "")
                    + ".\n";
        }
        return throughputs;
    }

    // JMH, scenario 5 (memory) and scenario 6 (scaling)

    private String jmhSection() {
        JsonNode jmh = root.path("jmh");
        if (!jmh.isArray() || jmh.isEmpty()) {
            return "";
        }
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode b : jmh) {
            String bench = b.path("benchmark").asText();
            rows.add(MarkdownTable.row(
                    bench.substring(bench.lastIndexOf('.') + 1),
                    f(b.path("primaryMetric").path("score").asDouble()),
                    "± " + f(b.path("primaryMetric").path("scoreError").asDouble())));
        }
        return section(
                "JMH: per-feature stages", new MarkdownTable(List.of("benchmark", "ns/op", "error"), rows).render());
    }

    private String memorySection() {
        JsonNode mem = s.path("memory");
        if (mem.isMissingNode()) {
            return "";
        }
        List<List<String>> rows = new ArrayList<>();
        for (String key : List.of(
                "nightlyUpsert", "singlePartitionUpsert", "nightlyUpsertHeadroom", "singlePartitionUpsertHeadroom")) {
            JsonNode c = mem.path(key).path("child");
            rows.add(MarkdownTable.row(
                    key + " (" + mem.path(key).path("jvmOptions").asText() + ")",
                    mem.path(key).path("succeeded").asBoolean(),
                    f(c.path("wallSeconds").asDouble()),
                    mib(c.path("heapPeakBytes").asLong()),
                    mib(c.path("rssPeakBytes").asLong()),
                    c.path("rowsBefore").asLong() + " → " + c.path("rowsAfter").asLong()));
        }
        MarkdownTable table = new MarkdownTable(
                List.of("run", "succeeded", "wall s", "heap peak (sampled)", "peak RSS", "rows before → after"), rows);
        return section("Scenario 5: memory (child JVMs, -Xmx256m and, for headroom, -Xmx192m)", table.render());
    }

    private String scalingSection() {
        JsonNode sc = s.path("scaling");
        if (sc.isMissingNode()) {
            return "";
        }
        List<List<String>> rows = new ArrayList<>();
        for (JsonNode p : sc.path("points")) {
            rows.add(MarkdownTable.row(
                    p.path("partitions").asInt(),
                    mib(p.path("archiveDataBytes").asLong()),
                    spread(p.path("incremental")),
                    f(p.path("incrementalMedianCpuSeconds").asDouble()),
                    spread(p.path("naiveFullRewrite")),
                    spread(p.path("duckdbFullRewrite")),
                    x(p.path("naiveOverIncremental").asDouble()),
                    x(p.path("duckdbOverIncremental").asDouble())));
        }
        MarkdownTable table = new MarkdownTable(
                List.of(
                        "partitions",
                        "data",
                        "incremental s",
                        "incremental CPU s",
                        "naive full rewrite s",
                        "DuckDB full rewrite s",
                        "naive / incremental",
                        "DuckDB / incremental"),
                rows);
        return section(
                "Scenario 6: scaling",
                carriedOver(sc),
                table.render(),
                "Median (min-max) of " + sc.path("repeats").asInt() + " runs each on fresh copies, after one"
                        + " unmeasured round: each round visits the sizes in a random order and the approaches in"
                        + " turn. The incremental upsert runs warm, as the archive service keeps its archive; the"
                        + " full rewrites force every file to disk. Every measured copy's DuckDB digest equals the"
                        + " first engine copy of its size.\n");
    }

    // Layout

    /**
     * For a scenario this file carries over from an earlier run of the same scale ({@code fromRun}): which run; empty
     * for a scenario of this file's own run.
     */
    private static String carriedOver(JsonNode scenario) {
        JsonNode from = scenario.path("fromRun");
        return from.isMissingNode()
                ? ""
                : "From the run of commit " + from.path("commit").asText() + " started "
                        + from.path("startedAt").asText() + ": "
                        + from.path("note").asText() + ".\n";
    }

    /** A {@code ##} section: its title, then its blocks. */
    private static String section(String title, String... blocks) {
        return blocks(Stream.concat(Stream.of("## " + title + "\n"), Stream.of(blocks))
                .toArray(String[]::new));
    }

    /**
     * Blocks of text, each ending in a newline, with a blank line between each and the next; an empty block is a
     * part of the document that has nothing to show, and is left out.
     */
    private static String blocks(String... blocks) {
        return Stream.of(blocks).filter(b -> !b.isEmpty()).collect(Collectors.joining("\n"));
    }

    private static String codeBlock(String text) {
        return "```\n" + text + "\n```\n";
    }

    static String f(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 1 ? "%.2f" : "%.3f", v);
    }

    static String x(double v) {
        return String.format(Locale.ROOT, "%.2fx", v);
    }

    static String pct(double v) {
        return String.format(Locale.ROOT, "%.1f%%", v * 100);
    }

    /** Bytes in KiB below a MiB, in MiB above. */
    static String bytes(long bytes) {
        return bytes < 1024 * 1024 ? String.format(Locale.ROOT, "%.1f KiB", bytes / 1024.0) : mib(bytes);
    }

    static String mib(long bytes) {
        return bytes < 0 ? "n/a" : String.format(Locale.ROOT, "%.1f MiB", bytes / MIB);
    }
}
