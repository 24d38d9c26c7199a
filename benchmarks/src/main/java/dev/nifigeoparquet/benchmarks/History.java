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
        return c;
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

    /** Appends the run's line, writing the header first into a new file. */
    static void append(Path results, JsonNode run) throws IOException {
        Path csv = results.resolve(FILE);
        List<String> lines = new ArrayList<>();
        if (!Files.exists(csv)) {
            lines.add(String.join(",", COLUMNS.keySet()));
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
