package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
                    "S4 routing / plain copy throughput",
                    r.path("routeThroughputOverPlainCopy").asDouble(),
                    0.8,
                    true));
        }
        JsonNode sc = s.path("scaling");
        if (!sc.isMissingNode()) {
            bars.add(new Charts.Bar(
                    "S6 incremental time 16x / 1x",
                    sc.path("incrementalTimeRatio16xOver1x").asDouble(),
                    1.5,
                    false));
            bars.add(new Charts.Bar(
                    "S6 naive full rewrite time 16x / 1x",
                    sc.path("naiveFullRewriteTimeRatio16xOver1x").asDouble(),
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

    String markdown(String name) {
        StringBuilder md = new StringBuilder();
        JsonNode m = root.path("machine");
        md.append("# Benchmark results ").append(name).append("\n\n");
        md.append("Scale `")
                .append(root.path("scale").asText())
                .append("`, ")
                .append(m.path("availableProcessors").asInt())
                .append(" processors (")
                .append(m.path("cpu").asText())
                .append("), ")
                .append(m.path("java").asText())
                .append(", load average ")
                .append(f(m.path("loadAverageAtStart").asDouble()))
                .append(" at start and ")
                .append(f(m.path("loadAverageAtEnd").asDouble()))
                .append(" at end; total ")
                .append(f(root.path("totalSeconds").asDouble()))
                .append(" s. Every ratio compares runs made in the same process, one after another.\n\n");

        md.append("## Targets\n\n| target | measured | met |\n| --- | --- | --- |\n");
        JsonNode n = s.path("nightly");
        if (n.has("ratios")) {
            JsonNode ratios = n.path("ratios");
            row(
                    md,
                    "S1 incremental >= 40x faster than the naive full rewrite",
                    x(ratios.path("timeNaiveOverIncremental").asDouble()),
                    ratios.path("timeNaiveOverIncremental").asDouble() >= 40);
            row(
                    md,
                    "S1 incremental >= 20x faster than DuckDB's full rewrite",
                    x(ratios.path("timeDuckDbOverIncremental").asDouble()),
                    ratios.path("timeDuckDbOverIncremental").asDouble() >= 20);
            if (ratios.has("timeDuckDbOverIncrementalTwoTasks")) {
                row(
                        md,
                        "(S1 same, the incremental upsert with 2 concurrent tasks: naive / incremental, DuckDB / incremental)",
                        x(ratios.path("timeNaiveOverIncrementalTwoTasks").asDouble()) + ", "
                                + x(ratios.path("timeDuckDbOverIncrementalTwoTasks")
                                        .asDouble()),
                        ratios.path("timeNaiveOverIncrementalTwoTasks").asDouble() >= 40
                                && ratios.path("timeDuckDbOverIncrementalTwoTasks")
                                                .asDouble()
                                        >= 20);
            }
            row(
                    md,
                    "(S1 same, in process CPU time: naive / incremental, DuckDB / incremental)",
                    x(ratios.path("cpuNaiveOverIncremental").asDouble()) + ", "
                            + x(ratios.path("cpuDuckDbOverIncremental").asDouble()),
                    ratios.path("cpuNaiveOverIncremental").asDouble() >= 40
                            && ratios.path("cpuDuckDbOverIncremental").asDouble() >= 20);
            double w = ratios.path("incrementalDataBytesWrittenOverTouchedPartitionBytes")
                    .asDouble();
            row(
                    md,
                    "S1 data bytes written <= 1.1x the touched partitions' bytes",
                    x(w) + " (with the key index: "
                            + x(ratios.path("incrementalDataAndIndexBytesWrittenOverTouchedPartitionBytes")
                                    .asDouble()) + ")",
                    w <= 1.1);
            if (ratios.has("timeOneThreadOverAllThreads")) {
                row(
                        md,
                        "S1 all worker threads >= 1.7x faster than one",
                        x(ratios.path("timeOneThreadOverAllThreads").asDouble()),
                        ratios.path("timeOneThreadOverAllThreads").asDouble() >= 1.7);
            }
            if (ratios.has("timeDuckDbOverIncrementalWarmService")) {
                row(
                        md,
                        "(S1 same, on an archive warmed as a NiFi archive service's is: naive / incremental, DuckDB /"
                                + " incremental, 1 thread / all)",
                        x(ratios.path("timeNaiveOverIncrementalWarmService").asDouble()) + ", "
                                + x(ratios.path("timeDuckDbOverIncrementalWarmService")
                                        .asDouble()) + ", "
                                + x(ratios.path("timeOneThreadOverAllThreadsWarmService")
                                        .asDouble()),
                        ratios.path("timeNaiveOverIncrementalWarmService").asDouble() >= 40
                                && ratios.path("timeDuckDbOverIncrementalWarmService")
                                                .asDouble()
                                        >= 20
                                && ratios.path("timeOneThreadOverAllThreadsWarmService")
                                                .asDouble()
                                        >= 1.7);
            }
            row(
                    md,
                    "S1 reconciliation (DuckDB counts, engine verification, same rows as both full rewrites)",
                    String.valueOf(n.path("reconciliation").path("holds").asBoolean()),
                    n.path("reconciliation").path("holds").asBoolean());
        }
        JsonNode mem = s.path("memory");
        if (!mem.isMissingNode()) {
            JsonNode a = mem.path("nightlyUpsert");
            row(
                    md,
                    "S5 scenario 1's upsert under -Xmx256m",
                    a.path("succeeded").asBoolean()
                            ? "succeeded, heap peak "
                                    + mib(a.path("child").path("heapPeakBytes").asLong())
                            : "failed (exit " + a.path("exitCode").asInt() + ")",
                    a.path("succeeded").asBoolean());
            JsonNode b = mem.path("singlePartitionUpsert");
            row(
                    md,
                    "S5 " + b.path("partitionRows").asLong() + "-row single-partition upsert under -Xmx256m",
                    b.path("succeeded").asBoolean()
                            ? "succeeded, heap peak "
                                    + mib(b.path("child").path("heapPeakBytes").asLong())
                            : "failed (exit " + b.path("exitCode").asInt() + ")",
                    b.path("succeeded").asBoolean());
        }
        JsonNode appendRatios = s.path("append").path("ratios");
        if (appendRatios.has("engineTimeOverDuckDb")) {
            row(
                    md,
                    "S2 append within 2x of DuckDB's partitioned APPEND, key-checked and fsynced",
                    x(appendRatios.path("engineTimeOverDuckDb").asDouble()),
                    appendRatios.path("engineTimeOverDuckDb").asDouble() <= 2);
        }
        if (appendRatios.has("engineWarmServiceTimeOverDuckDb")) {
            row(
                    md,
                    "(S2 same, on an archive warmed as a NiFi archive service's is)",
                    x(appendRatios.path("engineWarmServiceTimeOverDuckDb").asDouble()),
                    appendRatios.path("engineWarmServiceTimeOverDuckDb").asDouble() <= 2);
        }
        JsonNode pruning = s.path("compaction").path("bboxQuery");
        for (String order : List.of("Hilbert", "Tiles")) {
            if (pruning.has("rowGroupsRead" + order + "OverInput")) {
                double ratio =
                        pruning.path("rowGroupsRead" + order + "OverInput").asDouble();
                row(
                        md,
                        "S3 bbox query on the " + order.toLowerCase(Locale.ROOT)
                                + "-ordered partition reads <= 0.25x the row groups of input order",
                        x(ratio),
                        ratio <= 0.25);
            }
        }
        JsonNode r = s.path("routing");
        if (!r.isMissingNode()) {
            row(
                    md,
                    "S4 routing >= 80% of the plain copy's throughput",
                    pct(r.path("routeThroughputOverPlainCopy").asDouble()),
                    r.path("routeThroughputOverPlainCopy").asDouble() >= 0.8);
        }
        for (JsonNode p : s.path("compaction").path("partitions")) {
            double ratio = p.path("engineTimeOverDuckDbTyped").asDouble();
            row(
                    md,
                    "S3 compaction of " + p.path("files").asInt()
                            + " files no slower than DuckDB's COPY, metadata intact",
                    "engine/DuckDB time " + x(ratio) + ", engine geo identical: "
                            + p.path("engine").path("geoIdenticalToCanonical").asBoolean(),
                    ratio <= 1
                            && p.path("engine").path("geoIdenticalToCanonical").asBoolean());
        }
        JsonNode sc = s.path("scaling");
        if (!sc.isMissingNode()) {
            double ratio = sc.path("incrementalTimeRatio16xOver1x").asDouble();
            row(
                    md,
                    "S6 incremental time within 1.5x from 1x to 16x",
                    x(ratio) + " (CPU time: "
                            + x(sc.path("incrementalCpuRatio16xOver1x").asDouble()) + ")",
                    ratio <= 1.5);
        }
        JsonNode o = s.path("s3");
        if (o.has("approaches")) {
            JsonNode inc = o.path("approaches").path("incremental");
            JsonNode full = o.path("approaches").path("fullRewrite");
            boolean below =
                    inc.path("requests").asLong() < full.path("requests").asLong()
                            && inc.path("bytesUploaded").asLong()
                                    < full.path("bytesUploaded").asLong()
                            && inc.path("bytesDownloaded").asLong()
                                    < full.path("bytesDownloaded").asLong();
            row(
                    md,
                    "S1 on S3: requests and bytes, incremental vs full rewrite (informational; met when the incremental's are lower)",
                    String.format(
                            Locale.ROOT,
                            "requests %,d vs %,d; uploaded %s vs %s; downloaded %s vs %s",
                            inc.path("requests").asLong(),
                            full.path("requests").asLong(),
                            bytes(inc.path("bytesUploaded").asLong()),
                            bytes(full.path("bytesUploaded").asLong()),
                            bytes(inc.path("bytesDownloaded").asLong()),
                            bytes(full.path("bytesDownloaded").asLong())),
                    below);
            row(
                    md,
                    "S1 on S3 reconciliation (rows read back, same rows after both, engine verification)",
                    String.valueOf(o.path("reconciliation").path("holds").asBoolean()),
                    o.path("reconciliation").path("holds").asBoolean());
        }

        if (n.has("approaches")) {
            JsonNode arc = n.path("archive");
            JsonNode d = n.path("delta");
            md.append("\n## Scenario 1: nightly delta\n\n");
            md.append(String.format(
                    Locale.ROOT,
                    "Archive: %,d parcels in %d partitions (H3 resolution %d), %s of data; the largest partition "
                            + "holds %s of the bytes. Delta: %,d features (%d updates, %d new keys, %d moved keys, %d deletions) "
                            + "landing in %d partitions holding %s of the archive's bytes (%s).\n\n",
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
                    mib(d.path("touchedPartitionBytes").asLong())));
            md.append(
                    "| approach | wall s | CPU s | bytes read | data bytes written | index bytes written | files written | files superseded | partitions | peak heap (sampled) | peak RSS |\n");
            md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
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
                JsonNode ap = n.path("approaches").path(key);
                if (ap.isMissingNode()) {
                    continue;
                }
                md.append("| ")
                        .append(key)
                        .append(" | ")
                        .append(f(ap.path("wallSeconds").asDouble()))
                        .append(" | ")
                        .append(f(ap.path("cpuSeconds").asDouble()))
                        .append(" | ")
                        .append(mib(ap.path("bytesRead").asLong()))
                        .append(" | ")
                        .append(mib(ap.path("dataBytesWritten").asLong()))
                        .append(" | ")
                        .append(mib(ap.path("indexBytesWritten").asLong()))
                        .append(" | ")
                        .append(ap.path("filesWritten").asLong())
                        .append(" | ")
                        .append(ap.path("filesRemovedOrSuperseded").asLong())
                        .append(" | ")
                        .append(ap.path("partitionsTouched").asLong())
                        .append(" | ")
                        .append(mib(ap.path("heapPeakBytes").asLong()))
                        .append(" | ")
                        .append(mib(ap.path("rssPeakBytes").asLong()))
                        .append(" |\n");
            }
            if (n.path("ratios").has("timePartitionByPartitionOverIncremental")) {
                md.append(String.format(
                        Locale.ROOT,
                        "\nIncremental approaches: median of %d interleaved runs each, after a warm-up "
                                + "with the whole delta. One partition per run (Batch Size 1) / all in one run: %s.\n",
                        n.path("approaches")
                                .path("incremental")
                                .path("wallSecondsOfEachRun")
                                .size(),
                        x(n.path("ratios")
                                .path("timePartitionByPartitionOverIncremental")
                                .asDouble())));
            }
            JsonNode rec = n.path("reconciliation");
            md.append(String.format(
                    Locale.ROOT,
                    "\nReconciliation (counted by DuckDB): %,d + %,d = %,d expected; incremental %,d, naive %,d, "
                            + "DuckDB %,d; rows differing from the naive rewrite %d, from DuckDB's %d; engine verification consistent: %s.\n",
                    rec.path("baselineRows").asLong(),
                    rec.path("netRowsExpected").asLong(),
                    rec.path("expectedAfter").asLong(),
                    rec.path("afterIncrementalCountedByDuckDb").asLong(),
                    rec.path("afterNaiveFullRewriteCountedByDuckDb").asLong(),
                    rec.path("afterDuckDbRewriteCountedByDuckDb").asLong(),
                    rec.path("rowsInIncrementalNotInNaive").asLong(),
                    rec.path("rowsInIncrementalNotInDuckDb").asLong(),
                    rec.path("engineVerificationConsistent").asBoolean()));
            md.append("DuckDB's output `geo` entry: ")
                    .append(
                            n.path("approaches")
                                            .path("duckdbFullRewrite")
                                            .path("geoMetadataInOutput")
                                            .isNull()
                                    ? "absent (raw WKB with `enable_geoparquet_conversion = false`: the block is dropped)"
                                    : "present")
                    .append(".\n");
        }
        if (o.has("approaches")) {
            md.append("\n## Scenario 1 on S3: requests and bytes\n\n");
            md.append(
                    "Scenario 1's archive and delta on S3Mock in this JVM, each approach on its own copy, every request the storage "
                            + "made counted (`StorageMeter`). Request counts and bytes are what a bill is made of and do not depend on the "
                            + "server; wall times do, and S3Mock on loopback is not S3.\n\n");
            md.append(
                    "| approach | PUT | GET/HEAD | LIST | DELETE | requests | uploaded | downloaded | objects deleted | partitions | wall s |\n");
            md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
            for (String key : List.of("incremental", "fullRewrite")) {
                JsonNode a = o.path("approaches").path(key);
                md.append("| ")
                        .append(key)
                        .append(" | ")
                        .append(a.path("puts").asLong())
                        .append(" | ")
                        .append(a.path("gets").asLong())
                        .append(" | ")
                        .append(a.path("lists").asLong())
                        .append(" | ")
                        .append(a.path("deletes").asLong())
                        .append(" | ")
                        .append(a.path("requests").asLong())
                        .append(" | ")
                        .append(bytes(a.path("bytesUploaded").asLong()))
                        .append(" | ")
                        .append(bytes(a.path("bytesDownloaded").asLong()))
                        .append(" | ")
                        .append(a.path("objectsDeleted").asLong())
                        .append(" | ")
                        .append(a.path("partitionsTouched").asLong())
                        .append(" | ")
                        .append(f(a.path("wallSeconds").asDouble()))
                        .append(" |\n");
            }
            JsonNode ratios = o.path("ratios");
            md.append("\nFull rewrite / incremental: requests ")
                    .append(x(ratios.path("requestsFullOverIncremental").asDouble()))
                    .append(", PUTs ")
                    .append(x(ratios.path("putsFullOverIncremental").asDouble()))
                    .append(", bytes uploaded ")
                    .append(x(ratios.path("bytesUploadedFullOverIncremental").asDouble()))
                    .append(", bytes downloaded ")
                    .append(x(ratios.path("bytesDownloadedFullOverIncremental").asDouble()))
                    .append(".\n");
            JsonNode rec = o.path("reconciliation");
            md.append(String.format(
                    Locale.ROOT,
                    "\nReconciliation (read back through the storage): %,d + %,d = %,d expected; incremental %,d, "
                            + "full rewrite %,d; same rows after both: %s; engine verification consistent: %s.\n",
                    rec.path("baselineRows").asLong(),
                    rec.path("netRowsExpected").asLong(),
                    rec.path("expectedAfter").asLong(),
                    rec.path("afterIncrementalRowsRead").asLong(),
                    rec.path("afterFullRewriteRowsRead").asLong(),
                    rec.path("sameRowsAfterBoth").asBoolean(),
                    rec.path("engineVerificationConsistent").asBoolean()));
            md.append("Setting up the two copies (uploads, not metered) took ")
                    .append(f(o.path("setup").path("uploadSeconds").asDouble()))
                    .append(" s; the whole scenario ")
                    .append(f(o.path("wallSeconds").asDouble()))
                    .append(" s.\n");
        }
        JsonNode ap = s.path("append");
        if (!ap.isMissingNode()) {
            md.append(
                    "\n## Scenario 2: append\n\n| approach | wall s | data bytes written | files written |\n| --- | --- | --- | --- |\n");
            ap.path("approaches")
                    .fields()
                    .forEachRemaining(e -> md.append("| ")
                            .append(e.getKey())
                            .append(" | ")
                            .append(f(e.getValue().path("wallSeconds").asDouble()))
                            .append(" | ")
                            .append(mib(e.getValue().path("dataBytesWritten").asLong()))
                            .append(" | ")
                            .append(e.getValue().path("filesWritten").asLong())
                            .append(" |\n"));
            md.append("\nReconciliation holds: ")
                    .append(ap.path("reconciliation").path("holds").asBoolean())
                    .append(".\n");
        }
        if (s.has("compaction")) {
            md.append(
                    "\n## Scenario 3: compaction\n\n| files | rows | engine s | DuckDB (typed) s | DuckDB (raw WKB) s | engine / DuckDB typed | engine geo identical | DuckDB typed geo identical | bbox added | CRS kept |\n");
            md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
            for (JsonNode p : s.path("compaction").path("partitions")) {
                JsonNode t = p.path("duckdbTypedGeometry");
                md.append("| ")
                        .append(p.path("files").asInt())
                        .append(" | ")
                        .append(p.path("rows").asLong())
                        .append(" | ")
                        .append(f(p.path("engine").path("wallSeconds").asDouble()))
                        .append(" | ")
                        .append(f(t.path("wallSeconds").asDouble()))
                        .append(" | ")
                        .append(f(p.path("duckdbRawWkb").path("wallSeconds").asDouble()))
                        .append(" | ")
                        .append(x(p.path("engineTimeOverDuckDbTyped").asDouble()))
                        .append(" | ")
                        .append(p.path("engine").path("geoIdenticalToCanonical").asBoolean())
                        .append(" | ")
                        .append(t.path("geoIdenticalToCanonical").asBoolean())
                        .append(" | ")
                        .append(t.path("bboxAdded").asBoolean())
                        .append(" | ")
                        .append(t.path("crsKept").asBoolean())
                        .append(" |\n");
            }
            md.append(
                    "\nOne thread each (the engine's archive set to 1 thread, so pages are compressed on the writing thread too; DuckDB with `SET threads = 1`):");
            for (JsonNode p : s.path("compaction").path("partitions")) {
                md.append(" ")
                        .append(p.path("files").asInt())
                        .append(" files: engine ")
                        .append(f(p.path("engineOneThreadWallSeconds").asDouble()))
                        .append(" s, DuckDB ")
                        .append(f(p.path("duckdbTypedOneThreadWallSeconds").asDouble()))
                        .append(" s, engine / DuckDB **")
                        .append(x(p.path("engineOneThreadOverDuckDbTypedOneThread")
                                .asDouble()))
                        .append("**;");
            }
            md.append("\n");
            JsonNode q = s.path("compaction").path("bboxQuery");
            if (q.has("skipped")) {
                md.append("\nBounding-box queries: not measured, ")
                        .append(q.path("skipped").asText())
                        .append(".\n");
            }
            if (q.has("orders")) {
                md.append("\nBounding-box queries (")
                        .append(q.path("queryBoxes").asInt())
                        .append(" boxes around sampled parcels, ±")
                        .append(q.path("marginDegrees").asDouble())
                        .append("°) on one partition of ")
                        .append(q.path("files").asInt())
                        .append(" files, ")
                        .append(q.path("rows").asLong())
                        .append(" rows, compacted into row groups of ")
                        .append(q.path("rowGroupRows").asInt())
                        .append(
                                " rows:\n\n| row order | compaction s | row groups | row groups read per query | bytes read per query |"
                                        + " DuckDB, all queries s | rows matched |\n| --- | --- | --- | --- | --- | --- | --- |\n");
                for (String order : List.of("input", "hilbert", "tiles")) {
                    JsonNode ordered = q.path("orders").path(order);
                    md.append("| ")
                            .append(order)
                            .append(" | ")
                            .append(f(ordered.path("compactionSeconds").asDouble()))
                            .append(" | ")
                            .append(ordered.path("rowGroups").asInt())
                            .append(" | ")
                            .append(f(ordered.path("rowGroupsReadPerQuery").asDouble()))
                            .append(" | ")
                            .append(Math.round(ordered.path("bytesReadPerQuery").asDouble()))
                            .append(" | ")
                            .append(f(ordered.path("queriesSeconds").asDouble()))
                            .append(" | ")
                            .append(ordered.path("rowsMatched").asLong())
                            .append(" |\n");
                }
                md.append("\nRow groups read per query, against input order (target at most 0.25x): Hilbert curve **")
                        .append(x(q.path("rowGroupsReadHilbertOverInput").asDouble()))
                        .append("**, tiles **")
                        .append(x(q.path("rowGroupsReadTilesOverInput").asDouble()))
                        .append("**; bytes read per query ")
                        .append(x(q.path("bytesReadHilbertOverInput").asDouble()))
                        .append(" and ")
                        .append(x(q.path("bytesReadTilesOverInput").asDouble()))
                        .append("; query time ")
                        .append(x(q.path("queryTimeHilbertOverInput").asDouble()))
                        .append(" and ")
                        .append(x(q.path("queryTimeTilesOverInput").asDouble()))
                        .append("; compaction time ")
                        .append(x(q.path("compactionTimeHilbertOverInput").asDouble()))
                        .append(" and ")
                        .append(x(q.path("compactionTimeTilesOverInput").asDouble()))
                        .append(".\n");
            }
            JsonNode first = s.path("compaction").path("partitions").path(0);
            md.append("\nCanonical `geo` (what the engine wrote, byte for byte):\n\n```\n")
                    .append(s.path("compaction").path("canonicalGeo").asText())
                    .append("\n```\n\nDuckDB's `geo` after `COPY` (typed geometry):\n\n```\n")
                    .append(first.path("duckdbTypedGeometry").path("geo").asText())
                    .append("\n```\n\nDuckDB's `geo` after `COPY` with `enable_geoparquet_conversion = false`: ")
                    .append(
                            first.path("duckdbRawWkb").path("geoPresent").asBoolean()
                                    ? "\n\n```\n"
                                            + first.path("duckdbRawWkb")
                                                    .path("geo")
                                                    .asText() + "\n```\n"
                                    : "absent.\n");
        }
        if (!r.isMissingNode()) {
            md.append("\n## Scenario 4: routing\n\nThe route keys each block of rows on a helper thread while the"
                    + " caller reads and writes, and compresses the cells' pages on helper threads, as RouteByH3Cell"
                    + " does with GeoParquetRecordSetWriter; routeOnOneThread does everything on one thread;"
                    + " copyCompressingAhead is the plain copy with its pages compressed on helper threads."
                    + " CPU time counts every thread.\n\n| pass | features/s | µs/feature | CPU µs/feature |\n"
                    + "| --- | --- | --- | --- |\n");
            for (String pass : List.of(
                    "plainCopy",
                    "copyCompressingAhead",
                    "readAndDecode",
                    "readDecodeAndKey",
                    "routeOnOneThread",
                    "route")) {
                JsonNode cpu = r.path("cpuMicrosecondsPerFeature").path(pass);
                md.append("| ")
                        .append(pass)
                        .append(" | ")
                        .append(String.format(
                                Locale.ROOT,
                                "%,.0f",
                                r.path("featuresPerSecond").path(pass).asDouble()))
                        .append(" | ")
                        .append(f(r.path("microsecondsPerFeature").path(pass).asDouble()))
                        .append(" | ")
                        .append(cpu.isMissingNode() ? "–" : f(cpu.asDouble()))
                        .append(" |\n");
            }
            if (r.has("routeOnOneThreadThroughputOverPlainCopy")) {
                md.append("\nRoute / plain copy throughput: ")
                        .append(pct(r.path("routeThroughputOverPlainCopy").asDouble()))
                        .append(" with the keying thread, ")
                        .append(pct(r.path("routeOnOneThreadThroughputOverPlainCopy")
                                .asDouble()))
                        .append(" on one thread.\n");
            }
            if (r.has("routeThroughputOverCopyCompressingAhead")) {
                md.append("Route / copy compressing ahead: ")
                        .append(pct(r.path("routeThroughputOverCopyCompressingAhead")
                                .asDouble()))
                        .append(".\n");
            }
        }
        JsonNode jmh = root.path("jmh");
        if (jmh.isArray() && !jmh.isEmpty()) {
            md.append("\n## JMH: per-feature stages\n\n| benchmark | ns/op | error |\n| --- | --- | --- |\n");
            for (JsonNode b : jmh) {
                String bench = b.path("benchmark").asText();
                md.append("| ")
                        .append(bench.substring(bench.lastIndexOf('.') + 1))
                        .append(" | ")
                        .append(f(b.path("primaryMetric").path("score").asDouble()))
                        .append(" | ± ")
                        .append(f(b.path("primaryMetric").path("scoreError").asDouble()))
                        .append(" |\n");
            }
        }
        if (!mem.isMissingNode()) {
            md.append(
                    "\n## Scenario 5: memory (child JVMs, -Xmx256m)\n\n| run | succeeded | wall s | heap peak (sampled) | peak RSS | rows before → after |\n| --- | --- | --- | --- | --- | --- |\n");
            for (String key : List.of("nightlyUpsert", "singlePartitionUpsert")) {
                JsonNode c = mem.path(key).path("child");
                md.append("| ")
                        .append(key)
                        .append(" | ")
                        .append(mem.path(key).path("succeeded").asBoolean())
                        .append(" | ")
                        .append(f(c.path("wallSeconds").asDouble()))
                        .append(" | ")
                        .append(mib(c.path("heapPeakBytes").asLong()))
                        .append(" | ")
                        .append(mib(c.path("rssPeakBytes").asLong()))
                        .append(" | ")
                        .append(c.path("rowsBefore").asLong())
                        .append(" → ")
                        .append(c.path("rowsAfter").asLong())
                        .append(" |\n");
            }
        }
        if (!sc.isMissingNode()) {
            md.append(
                    "\n## Scenario 6: scaling\n\n| size | partitions | data | incremental median s | incremental median CPU s | naive full s | DuckDB full s | naive / incremental |\n| --- | --- | --- | --- | --- | --- | --- | --- |\n");
            for (JsonNode p : sc.path("points")) {
                md.append("| ")
                        .append(p.path("factor").asInt())
                        .append("x | ")
                        .append(p.path("partitions").asInt())
                        .append(" | ")
                        .append(mib(p.path("archiveDataBytes").asLong()))
                        .append(" | ")
                        .append(f(p.path("incrementalMedianSeconds").asDouble()))
                        .append(" | ")
                        .append(f(p.path("incrementalMedianCpuSeconds").asDouble()))
                        .append(" | ")
                        .append(f(p.path("naiveFullRewriteSeconds").asDouble()))
                        .append(" | ")
                        .append(f(p.path("duckdbFullRewriteSeconds").asDouble()))
                        .append(" | ")
                        .append(x(p.path("naiveOverIncremental").asDouble()))
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    private static void row(StringBuilder md, String target, String measured, boolean met) {
        md.append("| ")
                .append(target)
                .append(" | ")
                .append(measured)
                .append(" | ")
                .append(met ? "yes" : "**no**")
                .append(" |\n");
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
