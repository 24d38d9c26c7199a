package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What an operator of {@code templates/incremental-upsert.json} sees of each kind of failure, in NiFi:
 * <ul>
 *   <li>transient, the archive's share unmounted under the running flow: Upsert warns, NiFi retries the FlowFile on its
 *       relationship retry (penalised, in front of Upsert) and nothing is written; once the share is back the delta
 *       is applied;</li>
 *   <li>operator action needed, a partition whose commit log a newer implementation wrote: the cell's FlowFile goes to
 *       quarantine with the reason and what to do, Upsert raises an error bulletin, the partition is left as it was;</li>
 *   <li>bad input (a record that cannot be keyed, a corrupt file) is {@link IncrementalUpsertFlowIT}'s.</li>
 * </ul>
 */
@ExtendWith(NiFiExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FailureKindsFlowIT {

    static final String UPSERT = IncrementalUpsertFlowIT.UPSERT;
    static final Duration BULLETIN_TIMEOUT = Duration.ofMinutes(1);

    Backlog backlog;
    UpsertFlow flow;
    Path dir;

    @BeforeAll
    void importAndStart(RunningNiFi nifi, @TempDir Path dir) throws Exception {
        this.dir = dir;
        Parcels dataset = Parcels.writeDataset(dir.resolve("dataset"), 1500, 1, 31);
        backlog = new Backlog(dataset);
        flow = UpsertFlow.upload(nifi.api(), dir, "failure kinds", dataset.root);
        flow.group.setPenalty(UPSERT, "1 sec");
        flow.group.enableServices();
        flow.startAll();
    }

    @AfterAll
    void stop() throws Exception {
        if (flow != null) {
            flow.group.stopAll();
        }
    }

    @Test
    @Order(1)
    void anUnreachableArchiveIsRetriedWithoutWritingAndTheDeltaAppliedOnceItIsBack() throws Exception {
        Backlog.Night night = backlog.nights().get(0);
        long mark = flow.group.lastBulletinId();
        Path unmounted = dir.resolve("unmounted");
        Files.move(flow.root, unmounted);

        flow.drop(night);
        flow.intake.awaitFetched(night.filename());
        FlowGroup.Bulletin warning = awaitBulletin(mark, "WARNING", "not reachable");
        assertTrue(warning.message().contains("retry"), "the warning says the FlowFile is retried: " + warning);
        String inFrontOfUpsert = flow.group.connection(IncrementalUpsertFlowIT.ROUTE, "success");
        assertTrue(flow.group.queuedCount(inFrontOfUpsert) > 0, "the cell FlowFiles wait in front of Upsert");
        assertFalse(Files.exists(flow.root), "nothing was written where the archive was");
        assertEquals(List.of(), flow.quarantined(), "a transient failure is retried, not quarantined");

        Files.move(unmounted, flow.root);
        flow.group.awaitIdle(IncrementalUpsertFlowIT.DOWNSTREAM);
        assertEquals(List.of(), flow.quarantined());
        Map<String, List<Object>> expected = backlog.firstApplied(1);
        assertEquals(expected, Backlog.rows(flow.root), "the delta applied once the archive is back");
        VerificationReport report = ArchiveChecks.verify(flow.root, expected.size());
        assertTrue(report.consistent(), report.toString());
        requireNoErrorFrom(UPSERT, flow.group.bulletins(mark));
    }

    @Test
    @Order(2)
    void aPartitionANewerImplementationWroteGoesToQuarantineWithAdviceAndStaysAsItWas() throws Exception {
        Backlog.Night night = backlog.nights().get(1);
        Group first = night.rows().stream()
                .filter(row -> row.getFieldRepetitionCount(NightlyDelta.DELETE_MARKER) == 0
                        || !row.getBoolean(NightlyDelta.DELETE_MARKER, 0))
                .findFirst()
                .orElseThrow();
        String cell = Parcels.cellOf(first);
        forgeNewerFormatEntry(cell);
        Map<String, String> before = partitionFiles(cell);
        long mark = flow.group.lastBulletinId();

        flow.send(night);

        List<Written> failed = IncrementalUpsertFlowIT.withFilename(flow.quarantined(), night.filename()).stream()
                .filter(written -> cell.equals(written.attribute("h3.cell")))
                .toList();
        assertEquals(1, failed.size(), "the cell's FlowFile is quarantined");
        String reason = failed.get(0).attribute("error.message");
        assertTrue(reason.contains("format version 99"), reason);
        assertTrue(reason.contains("Upgrade the bundle"), "the reason says what to do: " + reason);
        assertTrue(
                flow.group.bulletins(mark).stream()
                        .anyMatch(bulletin -> bulletin.sourceName().equals(UPSERT)
                                && bulletin.level().equals("ERROR")
                                && bulletin.message().contains("Upgrade the bundle")),
                "Upsert raises an error bulletin with the advice");
        assertEquals(before, partitionFiles(cell), "the partition's data files are as they were");
    }

    /**
     * Adds to the cell's log the entry a newer implementation would write next: the latest one again, one version on,
     * declaring a format version this one does not read.
     */
    private void forgeNewerFormatEntry(String cell) throws Exception {
        Path log = flow.root.resolve(ArchiveLayout.logDirectory(cell));
        Path latest;
        try (Stream<Path> entries = Files.list(log)) {
            latest = entries.filter(entry -> entry.getFileName().toString().endsWith(".json"))
                    .max(Path::compareTo)
                    .orElseThrow();
        }
        ObjectNode entry = (ObjectNode) NiFiApi.JSON.readTree(latest.toFile());
        long version = entry.path("version").asLong() + 1;
        entry.put("version", version);
        entry.put("formatVersion", 99);
        Files.write(flow.root.resolve(ArchiveLayout.logEntry(cell, version)), NiFiApi.JSON.writeValueAsBytes(entry));
    }

    /** The partition's data files with their content hashes. */
    private Map<String, String> partitionFiles(String cell) throws Exception {
        return new TreeMap<>(ArchiveChecks.snapshot(flow.root.resolve(ArchiveLayout.partitionDirectory(cell))));
    }

    private FlowGroup.Bulletin awaitBulletin(long mark, String level, String text) throws Exception {
        Instant deadline = Instant.now().plus(BULLETIN_TIMEOUT);
        while (Instant.now().isBefore(deadline)) {
            for (FlowGroup.Bulletin bulletin : flow.group.bulletins(mark)) {
                if (bulletin.sourceName().equals(UPSERT)
                        && bulletin.level().equals(level)
                        && bulletin.message().contains(text)) {
                    return bulletin;
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError(
                "No " + level + " bulletin from " + UPSERT + " about '" + text + "': " + flow.group.bulletins(mark));
    }

    private static void requireNoErrorFrom(String component, List<FlowGroup.Bulletin> bulletins) {
        Bulletins.requireNoErrors(bulletins, List.of(component));
    }
}
