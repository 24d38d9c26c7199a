package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The only benchmark in the default test run: every scenario at the smoke scale (seconds), checking that the
 * results file has its fields and that the nightly delta and the append reconcile. It proves the benchmarks
 * run; its timings mean nothing.
 */
class BenchmarkSmokeTest {

    @Test
    void scenariosRunAndReconcileAtTheSmokeScale(@TempDir Path dir) throws Exception {
        Path json = BenchmarkMain.run(Scale.named("smoke"), BenchmarkMain.ALL, dir.resolve("results"), dir.resolve("work"), null);

        JsonNode root = ArchiveJson.mapper().readTree(json.toFile());
        JsonNode s = root.path("scenarios");
        JsonNode nightly = s.path("nightly");
        for (String approach : List.of("incremental", "naiveFullRewrite", "duckdbFullRewrite")) {
            JsonNode a = nightly.path("approaches").path(approach);
            for (String field : List.of("wallSeconds", "bytesRead", "dataBytesWritten", "indexBytesWritten", "filesWritten",
                    "filesRemovedOrSuperseded", "partitionsTouched", "heapPeakBytes", "rssPeakBytes")) {
                assertTrue(a.has(field), approach + " lacks " + field);
            }
        }
        for (String ratio : List.of("timeNaiveOverIncremental", "timeDuckDbOverIncremental", "bytesWrittenNaiveOverIncremental",
                "incrementalDataBytesWrittenOverTouchedPartitionBytes")) {
            assertTrue(nightly.path("ratios").path(ratio).isNumber(), "ratio " + ratio);
        }
        JsonNode rec = nightly.path("reconciliation");
        assertEquals(rec.path("baselineRows").asLong() + rec.path("netRowsExpected").asLong(), rec.path("afterIncrementalCountedByDuckDb").asLong());
        assertTrue(rec.path("holds").asBoolean(), "nightly reconciliation: " + rec);
        assertTrue(s.path("append").path("reconciliation").path("holds").asBoolean(), "append reconciliation");
        for (JsonNode p : s.path("compaction").path("partitions")) {
            assertTrue(p.path("engine").path("geoIdenticalToCanonical").asBoolean(), "engine compaction keeps the geo block");
        }
        assertTrue(s.path("routing").path("routeThroughputOverPlainCopy").isNumber());
        assertTrue(s.path("memory").path("nightlyUpsert").path("succeeded").asBoolean(), "nightly upsert under -Xmx256m");
        assertTrue(s.path("memory").path("singlePartitionUpsert").path("succeeded").asBoolean(), "single-partition upsert under -Xmx256m");
        assertEquals(3, s.path("scaling").path("points").size());

        String base = json.getFileName().toString().replace(".json", "");
        assertTrue(Files.readString(json.resolveSibling(base + ".md")).contains("## Targets"));
        assertTrue(Files.readString(json.resolveSibling(base + "-ratios.svg")).startsWith("<svg"));
        assertTrue(Files.readString(json.resolveSibling(base + "-scaling.svg")).startsWith("<svg"));
    }
}
