package dev.nifigeoparquet.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The only benchmark in the default test run: every scenario at the smoke scale (seconds), checking that the
 * results file has its fields and that the nightly delta, the append and the nightly delta on S3 reconcile. It proves the benchmarks
 * run; its timings mean nothing.
 */
class BenchmarkSmokeTest {

    @Test
    void scenariosRunAndReconcileAtTheSmokeScale(@TempDir Path dir) throws Exception {
        Path json = BenchmarkMain.run(
                Scale.named("smoke"), BenchmarkMain.ALL, dir.resolve("results"), dir.resolve("work"), null);

        assertEquals("smoke.json", json.getFileName().toString());
        JsonNode root = ArchiveJson.mapper().readTree(json.toFile());
        // The history gains the run's headline ratios, under a header naming them.
        List<String> history = Files.readAllLines(dir.resolve("results").resolve(History.FILE));
        assertEquals(2, history.size(), history.toString());
        assertEquals(History.line(root), history.get(1));
        List<String> header = List.of(history.get(0).split(",", -1));
        List<String> line = List.of(history.get(1).split(",", -1));
        assertEquals(header.size(), line.size(), history.toString());
        for (String column : List.of("warm_engine_over_duckdb_same_work", "locality_100_engine_over_same_work")) {
            assertTrue(Double.parseDouble(line.get(header.indexOf(column))) > 0, column + " in " + history);
        }
        JsonNode s = root.path("scenarios");
        JsonNode nightly = s.path("nightly");
        for (String approach : List.of(
                "incremental",
                "incrementalTwoTasks",
                "incrementalPartitionByPartition",
                "naiveFullRewrite",
                "duckdbFullRewrite")) {
            JsonNode a = nightly.path("approaches").path(approach);
            for (String field : List.of(
                    "wallSeconds",
                    "bytesRead",
                    "dataBytesWritten",
                    "indexBytesWritten",
                    "filesWritten",
                    "filesRemovedOrSuperseded",
                    "partitionsTouched",
                    "heapPeakBytes",
                    "rssPeakBytes")) {
                assertTrue(a.has(field), approach + " lacks " + field);
            }
        }
        for (String ratio : List.of(
                "timeNaiveOverIncremental",
                "timeDuckDbOverIncremental",
                "bytesWrittenNaiveOverIncremental",
                "incrementalDataBytesWrittenOverTouchedPartitionBytes",
                "timeIncrementalWarmServiceOverDuckDbSameWork")) {
            assertTrue(nightly.path("ratios").path(ratio).isNumber(), "ratio " + ratio);
        }
        JsonNode rec = nightly.path("reconciliation");
        assertEquals(
                rec.path("baselineRows").asLong() + rec.path("netRowsExpected").asLong(),
                rec.path("afterIncrementalCountedByDuckDb").asLong());
        assertTrue(rec.path("holds").asBoolean(), "nightly reconciliation: " + rec);
        // DuckDB doing the same partition work gives the engine's rows in every measured copy.
        assertEquals(
                NightlyDeltaScenario.INCREMENTAL_REPEATS,
                rec.path("duckDbSameWorkCopiesVerified").asInt());
        assertEquals(0, rec.path("rowsDifferingBetweenEngineAndDuckDbSameWork").asLong(), rec.toString());
        // So does every measured full rewrite: naive, DuckDB on one thread and on every core, in each round.
        JsonNode fullRewrites = rec.path("fullRewriteCopies");
        assertEquals(
                3L * NightlyDeltaScenario.INCREMENTAL_REPEATS,
                fullRewrites.path("measuredCopiesVerified").asLong(),
                fullRewrites.toString());
        assertTrue(fullRewrites.path("holds").asBoolean(), fullRewrites.toString());
        assertEquals(
                NightlyDeltaScenario.INCREMENTAL_REPEATS,
                nightly.path("approaches")
                        .path("naiveFullRewrite")
                        .path("wallSecondsOfEachRun")
                        .size());
        assertEquals(
                rec.path("expectedAfter").asLong(),
                rec.path("afterIncrementalPartitionByPartitionCountedByDuckDb").asLong());
        assertEquals(
                NightlyDeltaScenario.INCREMENTAL_REPEATS,
                nightly.path("approaches")
                        .path("incremental")
                        .path("wallSecondsOfEachRun")
                        .size());
        JsonNode byThreadGroup =
                nightly.path("approaches").path("incremental").path("cpuSecondsByThreadGroupOfEachRun");
        assertEquals(NightlyDeltaScenario.INCREMENTAL_REPEATS, byThreadGroup.size());
        byThreadGroup.forEach(run -> run.forEach(seconds -> assertTrue(seconds.asDouble() > 0, "by thread: " + run)));
        JsonNode nights = s.path("locality").path("nights");
        assertEquals(LocalityScenario.SHARES_OF_BYTES.length + 1, nights.size());
        for (int i = 0; i < nights.size(); i++) {
            JsonNode night = nights.get(i);
            boolean oneThreadToo = i < LocalityScenario.SHARES_OF_BYTES.length
                    && LocalityScenario.ONE_THREAD_TOO.contains(LocalityScenario.SHARES_OF_BYTES[i]);
            // Every measured copy of every approach holds the reference copy's rows: one per key, net rows added.
            assertEveryCopyVerified(night, (oneThreadToo ? 5L : 3L) * LocalityScenario.ROUNDS);
            assertTrue(night.path("ratios").path("engineOverDuckDbSameWork").isNumber(), night.toString());
            assertEquals(
                    oneThreadToo,
                    night.path("ratios")
                            .path("engineOneThreadOverDuckDbSameWorkOneThread")
                            .isNumber(),
                    night.toString());
            if (FileForces.available()) {
                // Each touched partition forces at least its new data file; the same work one file and its directory.
                JsonNode engine = night.path("fileForces").path("engine");
                int partitions = night.path("partitionsTouched").asInt();
                assertTrue(engine.path("dataFiles").asLong() >= partitions, engine.toString());
                assertTrue(engine.path("records").asLong() >= partitions, engine.toString());
                JsonNode sameWork = night.path("fileForces").path("duckDbSameWork");
                assertTrue(sameWork.path("dataFiles").asLong() >= partitions, sameWork.toString());
            }
        }
        // The night touching every partition does touch every one.
        JsonNode everyPartition = nights.get(LocalityScenario.SHARES_OF_BYTES.length - 1);
        assertEquals(
                everyPartition.path("partitions").asInt(),
                everyPartition.path("partitionsTouched").asInt());
        // The command line, cold, with and without its start-up cache, and DuckDB's process: every copy verified.
        JsonNode cli = s.path("cli");
        assertEveryCopyVerified(cli, 3L * CliColdScenario.ROUNDS);
        assertTrue(
                cli.path("ratios").path("commandLineOverDuckDbSameWorkProcess").isNumber(), cli.toString());
        assertTrue(s.path("append").path("reconciliation").path("holds").asBoolean(), "append reconciliation");
        for (JsonNode p : s.path("compaction").path("partitions")) {
            assertTrue(
                    p.path("engine").path("geoIdenticalToCanonical").asBoolean(),
                    "engine compaction keeps the geo block");
        }
        JsonNode bbox = s.path("compaction").path("bboxQuery");
        assertTrue(bbox.path("rowsMatchedAgree").asBoolean(), "the bbox queries match the same rows in both orders");
        assertTrue(
                bbox.path("orders").path("hilbert").path("rowsMatched").asLong() > 0,
                "every query box surrounds a parcel of the partition");
        assertTrue(bbox.path("rowGroupsReadHilbertOverInput").isNumber());
        assertTrue(bbox.path("bytesReadTilesOverInput").isNumber());
        assertTrue(s.path("routing").path("routeThroughputOverPlainCopy").isNumber());
        assertTrue(s.path("routing").path("routeThroughputOverCopyLikeTheRoute").isNumber());
        assertEquals(
                0,
                s.path("routing")
                        .path("routedVerification")
                        .path("rowsOutsideTheirCell")
                        .asLong());
        assertEquals(
                0,
                s.path("routing")
                        .path("routedVerification")
                        .path("rowsWithAnotherBbox")
                        .asLong(-1));
        assertTrue(s.path("routing")
                .path("routeOnOneThreadThroughputOverPlainCopy")
                .isNumber());
        JsonNode routing = s.path("routing");
        assertTrue(routing.path("routeToOneFileThroughputOverCopyLikeTheRoute").isNumber());
        assertTrue(
                routing.path("routeSortedByCellThroughputOverCopyLikeTheRoute").isNumber());
        assertEquals(
                routing.path("features").asLong(),
                routing.path("routedSortedByCellVerification")
                        .path("rowsCountedByDuckDb")
                        .asLong());
        assertEquals(
                0,
                routing.path("routedSortedByCellVerification")
                        .path("rowsOutsideTheirCell")
                        .asLong());
        assertEquals(
                0,
                routing.path("routedSortedByCellVerification")
                        .path("rowsWithAnotherBbox")
                        .asLong(-1));
        assertEquals(
                routing.path("features").asLong(),
                routing.path("routedToOneFileVerification")
                        .path("rowsCountedByDuckDb")
                        .asLong());
        assertTrue(s.path("routing")
                        .path("cpuMicrosecondsPerFeature")
                        .path("route")
                        .asDouble()
                > 0);
        assertTrue(
                s.path("memory").path("nightlyUpsert").path("succeeded").asBoolean(), "nightly upsert under -Xmx256m");
        assertTrue(
                s.path("memory").path("singlePartitionUpsert").path("succeeded").asBoolean(),
                "single-partition upsert under -Xmx256m");
        for (String headroom : List.of("nightlyUpsertHeadroom", "singlePartitionUpsertHeadroom")) {
            JsonNode run = s.path("memory").path(headroom);
            assertEquals(MemoryScenario.HEADROOM_HEAP, run.path("jvmOptions").asText(), headroom);
            assertTrue(run.path("succeeded").asBoolean(), headroom + ": " + run);
        }
        JsonNode scaling = s.path("scaling");
        assertEquals(
                Scale.named("smoke").scalingPartitionCounts().size(),
                scaling.path("points").size());
        // Every approach at every size, each copy verified against the engine's first copy of that size.
        assertEveryCopyVerified(
                scaling,
                3L * scaling.path("points").size() * scaling.path("repeats").asLong());
        assertTrue(scaling.path("incrementalTimeRatioLargestOverSmallest").isNumber());
        // Twenty times the keys: every copy verified, and the cold run on the larger index within the service's heap.
        JsonNode keys = s.path("keys");
        assertEveryCopyVerified(keys, 4L * LocalityScenario.ROUNDS);
        assertEquals(
                keys.path("guideKeys").asLong() * (1 + KeyScaleScenario.SYNTHETIC_PER_KEY),
                keys.path("keys").asLong());
        assertTrue(
                keys.path("indexBytes").asLong() > keys.path("guideIndexBytes").asLong(), keys.toString());
        assertTrue(keys.path("cold20xKeysUnderHeap").path("succeeded").asBoolean(), keys.toString());
        assertTrue(keys.path("cold20xKeysUnderHeadroomHeap").path("succeeded").asBoolean(), keys.toString());
        assertTrue(keys.path("ratios").path("warm20xOverGuideKeys").isNumber());
        JsonNode s3 = s.path("s3");
        for (String approach : List.of("incremental", "fullRewrite")) {
            JsonNode a = s3.path("approaches").path(approach);
            for (String field : List.of(
                    "puts",
                    "gets",
                    "lists",
                    "deletes",
                    "requests",
                    "bytesUploaded",
                    "bytesDownloaded",
                    "objectsDeleted")) {
                assertTrue(a.path(field).isIntegralNumber(), "s3 " + approach + " lacks " + field);
            }
            assertEquals(
                    a.path("puts").asLong()
                            + a.path("gets").asLong()
                            + a.path("lists").asLong()
                            + a.path("deletes").asLong(),
                    a.path("requests").asLong(),
                    "s3 " + approach + " requests");
            assertTrue(
                    a.path("puts").asLong() > 0 && a.path("bytesUploaded").asLong() > 0,
                    "s3 " + approach + " was metered");
        }
        for (String ratio : List.of(
                "requestsFullOverIncremental",
                "bytesUploadedFullOverIncremental",
                "bytesDownloadedFullOverIncremental")) {
            assertTrue(s3.path("ratios").path(ratio).isNumber(), "s3 ratio " + ratio);
        }
        JsonNode s3rec = s3.path("reconciliation");
        assertEquals(
                s3rec.path("expectedAfter").asLong(),
                s3rec.path("afterIncrementalRowsRead").asLong());
        assertEquals(
                s3rec.path("expectedAfter").asLong(),
                s3rec.path("afterFullRewriteRowsRead").asLong());
        assertTrue(s3rec.path("holds").asBoolean(), "s3 reconciliation: " + s3rec);

        String base = json.getFileName().toString().replace(".json", "");
        assertTrue(Files.readString(json.resolveSibling(base + ".md")).contains("## Targets"));
        assertTrue(Files.readString(json.resolveSibling(base + "-ratios.svg")).startsWith("<svg"));
        assertTrue(Files.readString(json.resolveSibling(base + "-scaling.svg")).startsWith("<svg"));
    }

    /** A scenario's (or a night's) measured copies: as many as expected, each holding the reference copy's rows. */
    private static void assertEveryCopyVerified(JsonNode measured, long copies) {
        JsonNode verification = measured.path("verification");
        assertEquals(copies, verification.path("measuredCopiesVerified").asLong(), measured.toString());
        assertTrue(verification.path("holds").asBoolean(), measured.toString());
    }
}
