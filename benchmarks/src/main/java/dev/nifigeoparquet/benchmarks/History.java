package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * The history of runs: one line per run in {@code history.csv} beside the results, its headline ratios only (each
 * run's full figures are in the latest results file of its scale, and in the Git history of that file). A ratio a
 * run did not measure is left empty.
 */
final class History {

    static final String FILE = "history.csv";

    /** The headline figures, by column: where each is read in a run's JSON. */
    private static final Map<String, Function<JsonNode, JsonNode>> COLUMNS = columns();

    private History() {}

    private static Map<String, Function<JsonNode, JsonNode>> columns() {
        Map<String, Function<JsonNode, JsonNode>> c = new LinkedHashMap<>();
        c.put("started_at", r -> r.path("startedAt"));
        c.put("scale", r -> r.path("scale"));
        c.put("rows", r -> r.path("rows"));
        c.put("commit", r -> r.path("commit"));
        c.put("archive_rows", r -> nightly(r).path("archive").path("rows"));
        c.put(
                "warm_engine_over_duckdb_same_work",
                r -> nightlyRatio(r, "timeIncrementalWarmServiceOverDuckDbSameWork"));
        c.put("engine_over_duckdb_same_work", r -> nightlyRatio(r, "timeIncrementalOverDuckDbSameWork"));
        c.put("duckdb_full_rewrite_over_engine", r -> nightlyRatio(r, "timeDuckDbOverIncremental"));
        c.put("naive_full_rewrite_over_engine", r -> nightlyRatio(r, "timeNaiveOverIncremental"));
        c.put("one_thread_over_all_threads", r -> nightlyRatio(r, "timeOneThreadOverAllThreads"));
        for (int i = 0; i <= LocalityScenario.SHARES_OF_BYTES.length; i++) {
            int night = i;
            String name = i < LocalityScenario.SHARES_OF_BYTES.length
                    ? "locality_" + Math.round(LocalityScenario.SHARES_OF_BYTES[i] * 100)
                    : "locality_uniform";
            c.put(name + "_engine_over_same_work", r -> localityRatio(r, night, "engineOverDuckDbSameWork"));
            c.put(name + "_engine_over_full_rewrite", r -> localityRatio(r, night, "engineOverDuckDbFullRewrite"));
        }
        c.put(
                "append_engine_over_duckdb",
                r -> r.path("scenarios").path("append").path("ratios").path("engineTimeOverDuckDb"));
        c.put(
                "routing_over_plain_copy",
                r -> r.path("scenarios").path("routing").path("routeThroughputOverPlainCopy"));
        c.put("scaling_16x_over_1x", r -> r.path("scenarios").path("scaling").path("incrementalTimeRatio16xOver1x"));
        c.put(
                "cli_cold_over_duckdb_same_work_process",
                r -> r.path("scenarios").path("cli").path("ratios").path("commandLineOverDuckDbSameWorkProcess"));
        for (double share : new TreeSet<>(LocalityScenario.ONE_THREAD_TOO)) {
            int night = indexOf(share);
            c.put(
                    "locality_" + Math.round(share * 100) + "_engine_over_same_work_one_thread_each",
                    r -> localityRatio(r, night, "engineOneThreadOverDuckDbSameWorkOneThread"));
        }
        c.put(
                "routing_over_copy_like_the_route",
                r -> r.path("scenarios").path("routing").path("routeThroughputOverCopyLikeTheRoute"));
        c.put(
                "scaling_largest_over_smallest",
                r -> r.path("scenarios").path("scaling").path("incrementalTimeRatioLargestOverSmallest"));
        c.put("keys_20x_cold_over_guide", r -> keysRatio(r, "cold20xOverGuideKeys"));
        c.put("keys_20x_warm_over_guide", r -> keysRatio(r, "warm20xOverGuideKeys"));
        return c;
    }

    /** The locality night of a share of the bytes. */
    private static int indexOf(double share) {
        for (int i = 0; i < LocalityScenario.SHARES_OF_BYTES.length; i++) {
            if (LocalityScenario.SHARES_OF_BYTES[i] == share) {
                return i;
            }
        }
        throw new IllegalArgumentException("No locality night at " + share);
    }

    private static JsonNode keysRatio(JsonNode run, String ratio) {
        return run.path("scenarios").path("keys").path("ratios").path(ratio);
    }

    private static JsonNode nightly(JsonNode run) {
        return run.path("scenarios").path("nightly");
    }

    private static JsonNode nightlyRatio(JsonNode run, String ratio) {
        return nightly(run).path("ratios").path(ratio);
    }

    private static JsonNode localityRatio(JsonNode run, int night, String ratio) {
        return run.path("scenarios")
                .path("locality")
                .path("nights")
                .path(night)
                .path("ratios")
                .path(ratio);
    }

    /**
     * Appends the run's line, writing the header first into a new file. A file whose header lacks columns added since
     * (new columns go last) is brought up to date first, its earlier lines left empty in them.
     */
    static void append(Path results, JsonNode run) throws IOException {
        Path csv = results.resolve(FILE);
        String header = String.join(",", COLUMNS.keySet());
        List<String> lines = new ArrayList<>();
        if (!Files.exists(csv)) {
            lines.add(header);
        } else {
            List<String> existing = Files.readAllLines(csv, StandardCharsets.UTF_8);
            if (existing.isEmpty()) {
                lines.add(header);
            } else if (!existing.get(0).equals(header)) {
                if (!header.startsWith(existing.get(0) + ",")) {
                    throw new IOException(csv + " has columns this version does not write: " + existing.get(0));
                }
                String padding = ",".repeat(COLUMNS.size() - existing.get(0).split(",", -1).length);
                List<String> updated = new ArrayList<>(List.of(header));
                existing.subList(1, existing.size()).forEach(line -> updated.add(line + padding));
                Files.write(csv, updated, StandardCharsets.UTF_8);
            }
        }
        lines.add(line(run));
        Files.write(csv, lines, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    static String line(JsonNode run) {
        List<String> cells = new ArrayList<>();
        for (Function<JsonNode, JsonNode> column : COLUMNS.values()) {
            JsonNode value = column.apply(run);
            cells.add(
                    value.isMissingNode() || value.isNull()
                            ? ""
                            : value.isFloatingPointNumber()
                                    ? String.format(Locale.ROOT, "%.4f", value.asDouble())
                                    : value.asText().replace(',', ';'));
        }
        return String.join(",", cells);
    }
}
