package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suite's standalone NiFi survives {@code kill -9} ({@link RunningNiFi#kill()}, {@link RunningNiFi#restart()}):
 * started again on the same home it answers at the same address with its flow, its processors running again, and the
 * FlowFiles it held, content and all, recovered from the repositories the killed process left.
 *
 * <p>The first test runs the file intake of {@code templates/incremental-upsert.json} (ListFile and FetchFile) with this
 * bundle's processors stopped, so that fetched deltas wait in front of RouteByH3Cell; the second runs the whole flow on
 * a backlog of four nights and kills NiFi while it upserts one of them.
 */
@ExtendWith(NiFiExtension.class)
class NiFiRestartIT {

    static final int DELTAS = 5;

    @Test
    void aKilledNiFiRestartsOnItsHomeWithItsFlowAndItsQueuedFlowFiles(RunningNiFi nifi, @TempDir Path dir)
            throws Exception {
        FileIntake intake = FileIntake.under(dir);
        FlowGroup flow =
                FlowGroup.upload(nifi.api(), NiFiRuntimeIT.flowDefinition("incremental-upsert.json"), "restart check");
        try {
            flow.setParameters(intake.parameters());
            intake.prepare(flow);
            String fetched = flow.connection(FileIntake.FETCH, "success");
            flow.start(FileIntake.LIST, FileIntake.FETCH);
            for (int i = 0; i < DELTAS; i++) {
                intake.drop("before-" + i + ".parquet", ("delta " + i).getBytes(StandardCharsets.UTF_8));
            }
            nifi.api().await("the deltas to be fetched", () -> flow.queuedCount(fetched), count -> count == DELTAS);
            Map<String, byte[]> before = contents(flow, flow.queued(fetched));

            nifi.kill();
            assertFalse(nifi.isRunning());
            nifi.restart();

            List<FlowGroup.Queued> queued = flow.queued(fetched);
            Map<String, byte[]> after = contents(flow, queued);
            assertEquals(before.keySet(), after.keySet(), "the same FlowFiles wait where they waited");
            before.forEach((uuid, content) -> assertArrayEquals(content, after.get(uuid), uuid));
            for (String processor : List.of(FileIntake.LIST, FileIntake.FETCH)) {
                assertEquals(
                        "RUNNING",
                        flow.processor(processor)
                                .path("component")
                                .path("state")
                                .asText(),
                        processor + " runs again, as it did before the kill");
            }

            // The intake works on: ListFile kept its listing (nothing listed twice), a new delta is fetched.
            intake.drop("after.parquet", "delta after".getBytes(StandardCharsets.UTF_8));
            intake.awaitFetched("after.parquet");
            nifi.api().await("the new delta to be queued", () -> flow.queuedCount(fetched), count -> count > DELTAS);
            List<FlowGroup.Queued> now = flow.queued(fetched);
            assertEquals(DELTAS + 1, now.size(), now.toString());
            assertTrue(contents(flow, now).keySet().containsAll(before.keySet()));
        } finally {
            if (nifi.isRunning()) {
                flow.stopAll();
            }
        }
    }

    @Test
    void aNiFiKilledWhileItUpsertsAppliesEveryDeltaOnceAfterItRestarts(RunningNiFi nifi, @TempDir Path dir)
            throws Exception {
        Parcels dataset = Parcels.writeDataset(dir.resolve("dataset"), 1500, 2, 29);
        Backlog backlog = new Backlog(dataset);
        UpsertFlow flow = UpsertFlow.upload(nifi.api(), dir, "killed while it upserts", dataset.root);
        try {
            flow.group.setProcessorProperties(IncrementalUpsertFlowIT.UPSERT, Map.of("Batch Size", "1"));
            flow.group.setPenalty(IncrementalUpsertFlowIT.UPSERT, "1 sec");
            flow.group.enableServices();
            flow.startAll();
            for (Backlog.Night night : backlog.nights()) {
                flow.drop(night);
            }
            awaitUpserting(flow.group);
            nifi.kill();
            nifi.restart();

            // The FlowFiles NiFi held come back from its repositories and run again: what the killed process committed
            // is recognised as applied and changes nothing, the rest is applied.
            for (Backlog.Night night : backlog.nights()) {
                flow.intake.awaitFetched(night.filename());
            }
            flow.group.awaitIdle(IncrementalUpsertFlowIT.DOWNSTREAM);
            assertEquals(List.of(), flow.quarantined(), "nothing failed");
            backlog.requireAppliedInOrder(flow.root);
        } finally {
            if (nifi.isRunning()) {
                flow.group.stopAll();
            }
        }
    }

    /** Waits until the flow's Upsert is at work. */
    private static void awaitUpserting(FlowGroup flow) throws Exception {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (flow.activeThreads(IncrementalUpsertFlowIT.UPSERT) == 0) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("Upsert never ran");
            }
            Thread.sleep(20);
        }
    }

    private static Map<String, byte[]> contents(FlowGroup flow, List<FlowGroup.Queued> queued) throws Exception {
        Map<String, byte[]> contents = new TreeMap<>();
        for (FlowGroup.Queued flowFile : queued) {
            contents.put(flowFile.uuid(), flow.content(flowFile));
        }
        return contents;
    }
}
