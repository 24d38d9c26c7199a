package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs the scenarios and writes {@code <results>/<scale>.json} (the latest run of a scale replaces the one before), a
 * markdown summary beside it and two SVG charts, and adds the run's headline ratios to {@link History#FILE}.
 *
 * <p>Usage: {@code BenchmarkMain [--scale small|full|smoke] [--rows realistic|narrow] [--results DIR] [--work DIR]
 * [--jmh FILE] [--scenarios nightly,locality,append,compaction,routing,memory,scaling,keys,s3,cli]}. Rows are realistic parcels by
 * default ({@link RowModel}); {@code narrow} names its results {@code <scale>-narrow.json}. Without {@code --scenarios}, every scenario
 * but {@code s3} runs: scenario 1 on an in-process S3 server takes minutes at the small scale, most of them spent
 * uploading the archive, so it is asked for by name. Scenario 8 ({@code cli}) runs {@code bin/geoparquet-archive} of
 * the checkout it runs in.
 */
public final class BenchmarkMain {

    /** Every scenario, as the smoke test runs them. */
    static final Set<String> ALL = new LinkedHashSet<>(List.of(
            "nightly", "locality", "append", "compaction", "routing", "memory", "scaling", "keys", "s3", "cli"));
    /** What runs without {@code --scenarios}. */
    static final Set<String> DEFAULT = new LinkedHashSet<>(
            List.of("nightly", "locality", "append", "compaction", "routing", "memory", "scaling", "keys", "cli"));

    private BenchmarkMain() {}

    public static void main(String[] args) throws Exception {
        String scaleName = "small";
        Path results = Path.of("benchmarks", "results");
        Path work = Path.of("benchmarks", "work");
        Path jmh = null;
        Set<String> scenarios = DEFAULT;
        RowModel rows = RowModel.REALISTIC;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--scale" -> scaleName = args[++i];
                case "--results" -> results = Path.of(args[++i]);
                case "--work" -> work = Path.of(args[++i]);
                case "--jmh" -> jmh = Path.of(args[++i]);
                case "--scenarios" -> scenarios = new LinkedHashSet<>(List.of(args[++i].split(",")));
                case "--rows" -> rows = RowModel.named(args[++i]);
                case "--summarize" -> {
                    // Renders the markdown and charts of an earlier run again, beside its JSON.
                    Path json = Path.of(args[++i]);
                    String base = json.getFileName().toString().replaceFirst("\\.json$", "");
                    writeReports((ObjectNode) ArchiveJson.mapper().readTree(json.toFile()), json.getParent(), base);
                    System.out.println("Rendered " + base + " again");
                    return;
                }
                default -> throw new IllegalArgumentException("Unknown argument " + args[i]);
            }
        }
        Path written = run(Scale.named(scaleName), rows, scenarios, results, work.toAbsolutePath(), jmh);
        System.out.println("Wrote " + written);
    }

    /** Runs the chosen scenarios with realistic rows and returns the JSON file written. */
    static Path run(Scale scale, Set<String> scenarios, Path results, Path work, Path jmh) throws Exception {
        return run(scale, RowModel.REALISTIC, scenarios, results, work, jmh);
    }

    /** Runs the chosen scenarios with these rows and returns the JSON file written. */
    static Path run(Scale scale, RowModel rows, Set<String> scenarios, Path results, Path work, Path jmh)
            throws Exception {
        RowModel.use(rows);
        for (String s : scenarios) {
            if (!ALL.contains(s)) {
                throw new IllegalArgumentException("Unknown scenario '" + s + "'; known: " + ALL);
            }
        }
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("scale", scale.name());
        root.put("rows", rows.label());
        root.put("archiveColumns", rows.columns().size());
        root.put("startedAt", Instant.now().toString());
        root.put("commit", commit());
        ObjectNode machine = root.putObject("machine");
        machine.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        machine.put(
                "os",
                System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                        + System.getProperty("os.arch"));
        machine.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        machine.put(
                "jvmArguments",
                String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
        machine.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        machine.put("cpu", cpuModel());
        machine.put(
                "loadAverageAtStart",
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
        machine.put("workDirectory", work.toString());
        ObjectNode out = root.putObject("scenarios");
        long t0 = System.nanoTime();

        NightlyDeltaScenario.Prepared prepared = null;
        if (scenarios.contains("nightly")
                || scenarios.contains("locality")
                || scenarios.contains("cli")
                || scenarios.contains("append")
                || scenarios.contains("memory")
                || scenarios.contains("keys")
                || scenarios.contains("s3")) {
            log("preparing the nightly archive (" + scale.archiveRows() + " parcels)");
            ObjectNode nightly = out.putObject("nightly");
            prepared = NightlyDeltaScenario.prepare(scale, work.resolve("nightly"), nightly);
            if (scenarios.contains("nightly")) {
                log("scenario 1: nightly delta");
                NightlyDeltaScenario.run(prepared, work.resolve("nightly"), nightly);
            }
        }
        if (scenarios.contains("locality")) {
            log("scenario 7: locality");
            LocalityScenario.run(prepared, scale, work.resolve("locality"), out.putObject("locality"));
        }
        if (scenarios.contains("append")) {
            log("scenario 2: append");
            AppendScenario.run(
                    prepared, scale.appendRows(), scale.seed() + 2, work.resolve("append"), out.putObject("append"));
        }
        if (scenarios.contains("compaction")) {
            log("scenario 3: compaction");
            CompactionScenario.run(
                    scale.compactionFileCounts(),
                    scale.compactionRowsPerFile(),
                    scale.seed() + 3,
                    work.resolve("compaction"),
                    out.putObject("compaction"));
        }
        if (scenarios.contains("routing")) {
            log("scenario 4: routing");
            RoutingScenario.run(
                    scale.routingRows(),
                    scale.routingRepeats(),
                    scale.seed() + 4,
                    work.resolve("routing"),
                    out.putObject("routing"));
        }
        if (scenarios.contains("memory")) {
            log("scenario 5: memory");
            MemoryScenario.run(
                    prepared,
                    scale.singlePartitionRows(),
                    scale.deltaRows(),
                    scale.seed() + 5,
                    work.resolve("memory"),
                    out.putObject("memory"));
        }
        if (scenarios.contains("keys")) {
            log("scenario 9: twenty times the keys");
            KeyScaleScenario.run(prepared, work.resolve("keys"), out.putObject("keys"));
        }
        if (scenarios.contains("scaling")) {
            log("scenario 6: scaling");
            ScalingScenario.run(
                    scale.scalingPartitionCounts(),
                    scale.scalingRowsPerPartition(),
                    scale.scalingDeltaRows(),
                    scale.scalingRepeats(),
                    scale.seed() + 6,
                    work.resolve("scaling"),
                    out.putObject("scaling"));
        }
        if (scenarios.contains("s3")) {
            // Last: the in-process S3 server's threads and heap would otherwise share the machine with the others.
            log("scenario 1 on S3: requests and bytes");
            S3Scenario.run(prepared, work.resolve("s3"), out.putObject("s3"));
        }
        if (scenarios.contains("cli")) {
            log("scenario 8: the command line, cold");
            CliColdScenario.run(prepared, CliColdScenario.launcher(), work.resolve("cli"), out.putObject("cli"));
        }
        if (jmh != null && Files.exists(jmh)) {
            root.set("jmh", ArchiveJson.mapper().readTree(jmh.toFile()));
        }
        root.put("totalSeconds", (System.nanoTime() - t0) / 1e9);
        machine.put(
                "loadAverageAtEnd", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());

        Files.createDirectories(results);
        String base = scale.name() + (rows == RowModel.REALISTIC ? "" : "-" + rows.label());
        Path json = results.resolve(base + ".json");
        Files.writeString(
                json,
                ArchiveJson.mapper()
                                .copy()
                                .enable(SerializationFeature.INDENT_OUTPUT)
                                .writeValueAsString(root) + "\n");
        writeReports(root, results, base);
        History.append(results, root);
        return json;
    }

    /** The markdown summary and the charts of a run's JSON, as {@code <base>.md} and {@code <base>-*.svg}. */
    static void writeReports(ObjectNode root, Path results, String base) throws IOException {
        String scaleName = root.path("scale").asText();
        String date = root.path("startedAt").asText().substring(0, 10);
        JsonNode out = root.path("scenarios");
        Summary summary = new Summary(root);
        Files.writeString(results.resolve(base + ".md"), summary.markdown(base));
        Files.writeString(
                results.resolve(base + "-ratios.svg"),
                Charts.ratioBars("nifi-geoparquet benchmarks, " + scaleName + " scale, " + date, summary.bars()));
        JsonNode scaling = out.path("scaling");
        if (!scaling.isMissingNode()) {
            List<Charts.Series> series = new ArrayList<>();
            series.add(new Charts.Series(
                    "incremental upsert (median)", "#4c9a5b", values(scaling, "incrementalMedianSeconds")));
            series.add(new Charts.Series("naive full rewrite", "#c8553d", values(scaling, "naiveFullRewriteSeconds")));
            series.add(
                    new Charts.Series("DuckDB full rewrite", "#3d6bc8", values(scaling, "duckdbFullRewriteSeconds")));
            String[] x = new String[scaling.path("points").size()];
            for (int i = 0; i < x.length; i++) {
                JsonNode p = scaling.path("points").get(i);
                x[i] = p.get("partitions").asInt() + " partitions";
            }
            Files.writeString(
                    results.resolve(base + "-scaling.svg"),
                    Charts.logLines(
                            "Scaling: fixed delta, archives of more partitions of constant size",
                            "archive size",
                            "seconds",
                            x,
                            series));
        }
    }

    private static double[] values(JsonNode scaling, String field) {
        JsonNode points = scaling.path("points");
        double[] v = new double[points.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = points.get(i).path(field).asDouble();
        }
        return v;
    }

    private static String cpuModel() {
        try {
            return Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("unknown");
        } catch (IOException e) {
            return "unknown";
        }
    }

    /** The commit measured, with {@code +changes} when the work tree differs from it; empty outside a clone. */
    private static String commit() {
        try {
            String head = git("rev-parse", "--short=12", "HEAD");
            return git("status", "--porcelain", "--untracked-files=no").isEmpty() ? head : head + "+changes";
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static String git(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (process.waitFor() != 0) {
            throw new IOException("git " + String.join(" ", args) + ": " + output);
        }
        return output;
    }

    static void log(String message) {
        System.out.println("[" + Instant.now() + "] " + message);
    }
}
