package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.verify.VerificationReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code templates/nightly-compaction-sweep.json} in NiFi, each CRON-driven processor run once: the sweep merges the
 * small files of every partition that has several, each rewritten partition is verified, and the audit verifies the
 * whole archive. The flow's PutFile runs, so a failure or an invalid report would land as a file in the reports
 * directory, which stays empty. The flow has no source: its CRON-driven processors are run once each.
 */
@ExtendWith(NiFiExtension.class)
class CompactionSweepFlowIT {

    static final String SWEEP = "Compaction sweep";
    static final String VERIFY_COMPACTED = "Verify compacted partitions";
    static final String AUDIT = "Audit whole archive";
    static final String REPORTS = "Write reports";

    FlowGroup flow;

    @AfterEach
    void stop() throws Exception {
        if (flow != null) {
            flow.stopAll();
        }
    }

    @Test
    void theSweepMergesSmallFilesAndTheAuditFindsTheArchiveValid(RunningNiFi nifi, @TempDir Path dir) throws Exception {
        Path archive = dir.resolve("parcels");
        Parcels parcels = Parcels.writeDataset(archive, 800, 3, 31);
        AppendOnlyFlowIT.adopt(archive);
        Set<String> split = new TreeSet<>();
        parcels.byCell.forEach((cell, rows) -> {
            if (rows.size() > 1) {
                split.add(cell);
            }
        });
        Map<String, ArchiveChecks.Parcel> before = ArchiveChecks.parcels(archive);
        Path reports = dir.resolve("reports");

        flow = FlowGroup.upload(
                nifi.api(), NiFiRuntimeIT.flowDefinition("nightly-compaction-sweep.json"), "compaction sweep");
        flow.setParameters(Map.of(
                "archive.root", archive.toString(),
                "archive.allowed.roots", dir.toString(),
                "h3.resolution", String.valueOf(Parcels.RESOLUTION),
                "reports.directory", reports.toString()));
        FileIntake.requireValid(flow, REPORTS);
        flow.setAutoTerminated(VERIFY_COMPACTED, List.of());
        String compacted = flow.observe(VERIFY_COMPACTED, "valid");
        flow.setAutoTerminated(AUDIT, List.of("failure"));
        String audited = flow.observe(AUDIT, "valid");
        flow.enableServices();
        long mark = flow.lastBulletinId();

        flow.start(VERIFY_COMPACTED, REPORTS);
        flow.startPorts();
        flow.runOnce(SWEEP);
        nifi.api()
                .await(
                        "the sweep's FlowFiles to be verified",
                        () -> flow.queued(compacted),
                        queued -> queued.size() >= split.size());
        flow.awaitIdle(VERIFY_COMPACTED, REPORTS);

        List<FlowGroup.Queued> verified = flow.queued(compacted);
        Set<String> cells = new TreeSet<>();
        verified.forEach(flowFile -> cells.add(flowFile.attribute("h3.cell")));
        assertEquals(split, cells, "every partition of several files was compacted and verified, each once");
        assertEquals(split.size(), verified.size());
        for (FlowGroup.Queued flowFile : verified) {
            assertEquals(
                    "true",
                    flowFile.attribute("compaction.compacted"),
                    flowFile.attributes().toString());
            assertEquals(
                    "1",
                    flowFile.attribute("compaction.files.after"),
                    flowFile.attributes().toString());
        }
        // Nothing failed and no report said invalid: the reports directory holds nothing.
        assertEquals(List.of(), Written.in(flow, REPORTS, reports));
        assertFalse(Files.exists(reports), "the reports directory was never created");
        for (String cell : parcels.byCell.keySet()) {
            assertEquals(1, dataFiles(archive.resolve("h3_cell=" + cell)), "partition " + cell + " holds one file");
        }
        assertEquals(before, ArchiveChecks.parcels(archive), "DuckDB reads the same parcels, each in the same cell");

        flow.runOnce(AUDIT);
        List<FlowGroup.Queued> audit =
                nifi.api().await("the audit's report", () -> flow.queued(audited), queued -> !queued.isEmpty());
        assertEquals(1, audit.size());
        assertEquals("true", audit.get(0).attribute("geo.consistent"));
        assertEquals(String.valueOf(parcels.rows()), audit.get(0).attribute("archive.row.count"));
        assertEquals(String.valueOf(parcels.byCell.size()), audit.get(0).attribute("partitions.checked"));
        flow.awaitIdle(REPORTS);
        assertEquals(List.of(), Written.in(flow, REPORTS, reports), "the audit reported nothing invalid");

        VerificationReport report = ArchiveChecks.verify(archive, parcels.rows());
        assertTrue(report.consistent(), report.toString());
        Bulletins.requireNoErrors(flow.bulletins(mark), List.of(SWEEP, VERIFY_COMPACTED, AUDIT, REPORTS));
    }

    private static long dataFiles(Path partition) throws Exception {
        try (Stream<Path> files = Files.list(partition)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".parquet"))
                    .count();
        }
    }
}
