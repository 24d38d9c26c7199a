package dev.nifigeoparquet.processors.templates;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The flows' chains of this bundle's processors, configured and wired as the flow definitions configure and wire them,
 * run with TestRunners on temporary archives. The incremental and append-only flows must leave the same archive as
 * the command-line apply of the same delta ({@link CliApply}, the tool's own entry point): same rows and keys per partition, same
 * {@code geo} bytes and schema in every file; file names and counts may differ.
 */
class FlowChainTest {

    /** Two archives built from the same generated parcels: identical content, different file names. */
    static final int PARCELS = 400;

    @TempDir
    Path dir;

    private static Map<String, String> fetched(String name, Path directory) {
        return Map.of("filename", name, "absolute.path", directory.toString() + "/", "path", "./");
    }

    @Test
    void theIncrementalUpsertFlowLeavesTheSameArchiveAsTheCommandLineApply() throws Exception {
        FlowDefinitions flow = FlowDefinitions.load("incremental-upsert.json");
        Path flowRoot = dir.resolve("flow-archive");
        Path cliRoot = dir.resolve("cli-archive");
        ParcelArchives parcels = ParcelArchives.create(flowRoot, PARCELS);
        ParcelArchives.create(cliRoot, PARCELS);
        ArchiveSnapshot initial = ArchiveSnapshot.of(flowRoot);
        assertEquals(initial, ArchiveSnapshot.of(cliRoot), "both archives start alike");

        Path delta = ParcelDeltas.writeGeoParquet(
                dir.resolve("parcels-2026-02-01.parquet"), ParcelDeltas.upsertDelta(parcels), null);

        FlowHarness harness = new FlowHarness(
                flow, FlowDefinitionTest.testParameters(flow, dir, flowRoot), FlowDefinitionTest.STAND_INS);
        harness.emit(
                "Fetch delta file",
                "success",
                Files.readAllBytes(delta),
                fetched(delta.getFileName().toString(), dir));
        harness.runUntilQuiet();
        assertEquals(List.of(), harness.deliveredTo("Quarantine"), "nothing was quarantined");

        List<String> cells = CliApply.apply(cliRoot, delta, WriteMode.UPSERT, ParcelDeltas.DELETE_MARKER);

        ArchiveSnapshot byFlow = ArchiveSnapshot.of(flowRoot);
        ArchiveSnapshot byCli = ArchiveSnapshot.of(cliRoot);
        assertEquals(byCli.keys(), byFlow.keys(), "the same keys per partition");
        assertEquals(byCli.rows(), byFlow.rows(), "the same rows per partition");
        assertEquals(byCli.geo(), byFlow.geo(), "the same geo footer bytes");
        assertEquals(1, byFlow.geo().size(), "one canonical geo block in every file");
        assertEquals(byCli.schemas(), byFlow.schemas(), "the same Parquet schema");
        assertEquals(1, byFlow.schemas().size());
        assertNotEquals(initial.rows(), byFlow.rows(), "the delta changed the archive");
        // 3 cells: one edit, one insert and one deletion each, plus a key that moved from the first to the second cell.
        assertEquals(initial.rowCount(), byFlow.rowCount(), "three inserted, three deleted; the moved key moved");
        String mover =
                ParcelDeltas.key(parcels.initial.get(cells(parcels).get(0)).get(4));
        assertFalse(byFlow.keys().get(cells(parcels).get(0)).contains(mover), "the moved key left its old partition");
        assertTrue(
                byFlow.keys().get(cells(parcels).get(1)).contains(mover),
                "the moved key is in its new partition: "
                        + byFlow.keys().entrySet().stream()
                                .filter(e -> e.getValue().contains(mover))
                                .map(Map.Entry::getKey)
                                .toList()
                        + " " + cells(parcels));
        assertTrue(cells.containsAll(cells(parcels)));

        // The verification at the end of the chain found every touched partition valid, and its reports were kept.
        List<FlowHarness.Delivered> valid = harness.deliveredTo("Write reports").stream()
                .filter(d -> d.from().equals("Verify touched partitions")
                        && d.relationship().equals("valid"))
                .toList();
        assertEquals(3, valid.size());
        valid.forEach(report -> assertEquals("true", report.attributes().get("geo.consistent")));
    }

    @Test
    void aDeltaTheArchiveCannotHoldIsQuarantinedAndTheArchiveIsUnchanged() throws Exception {
        FlowDefinitions flow = FlowDefinitions.load("incremental-upsert.json");
        Path root = dir.resolve("archive");
        ParcelArchives parcels = ParcelArchives.create(root, PARCELS);
        ArchiveSnapshot before = ArchiveSnapshot.of(root);
        Path delta = ParcelDeltas.writeGeoParquet(
                dir.resolve("bad.parquet"), ParcelDeltas.upsertDelta(parcels), "not_an_archive_column");

        FlowHarness harness =
                new FlowHarness(flow, FlowDefinitionTest.testParameters(flow, dir, root), FlowDefinitionTest.STAND_INS);
        harness.emit("Fetch delta file", "success", Files.readAllBytes(delta), fetched("bad.parquet", dir));
        harness.runUntilQuiet();

        List<FlowHarness.Delivered> quarantined = harness.deliveredTo("Quarantine");
        assertFalse(quarantined.isEmpty());
        for (FlowHarness.Delivered flowFile : quarantined) {
            assertEquals("Upsert cell into archive", flowFile.from());
            assertEquals("failure", flowFile.relationship());
            assertTrue(
                    flowFile.attributes().get("error.message").contains("not_an_archive_column"),
                    flowFile.attributes().get("error.message"));
        }
        assertEquals(before, ArchiveSnapshot.of(root));
    }

    @Test
    void theAppendOnlyFlowLeavesTheSameArchiveAsTheCommandLineAppend() throws Exception {
        FlowDefinitions flow = FlowDefinitions.load("append-only.json");
        Path flowRoot = dir.resolve("flow-archive");
        Path cliRoot = dir.resolve("cli-archive");
        ParcelArchives parcels = ParcelArchives.create(flowRoot, PARCELS);
        ParcelArchives.create(cliRoot, PARCELS);
        List<Group> rows = ParcelDeltas.appendDelta(parcels);

        FlowHarness harness = new FlowHarness(
                flow, FlowDefinitionTest.testParameters(flow, dir, flowRoot), FlowDefinitionTest.STAND_INS);
        harness.emit("Fetch delta file", "success", ParcelDeltas.json(rows), fetched("new-parcels.json", dir));
        harness.runUntilQuiet();
        assertEquals(List.of(), harness.deliveredTo("Quarantine"), "nothing was quarantined");

        List<ParcelDeltas.Row> appended = new ArrayList<>();
        rows.forEach(row -> appended.add(new ParcelDeltas.Row(row, false)));
        Path delta = ParcelDeltas.writeGeoParquet(dir.resolve("new-parcels.parquet"), appended, null);
        // The delta file carries the marker column (all false); the tool reads it as the delete marker and drops it.
        CliApply.apply(cliRoot, delta, WriteMode.APPEND, ParcelDeltas.DELETE_MARKER);

        ArchiveSnapshot byFlow = ArchiveSnapshot.of(flowRoot);
        ArchiveSnapshot byCli = ArchiveSnapshot.of(cliRoot);
        assertEquals(byCli.keys(), byFlow.keys());
        assertEquals(byCli.rows(), byFlow.rows());
        assertEquals(byCli.geo(), byFlow.geo());
        assertEquals(byCli.schemas(), byFlow.schemas());
        assertEquals(PARCELS + rows.size(), byFlow.rowCount());
        assertEquals(
                2,
                harness.deliveredTo("Write reports").stream()
                        .filter(d -> d.relationship().equals("valid"))
                        .count(),
                "both partitions verified, and their reports kept");
    }

    @Test
    void theNightlySweepCompactsQualifyingPartitionsVerifiesThemAndAuditsTheArchive() throws Exception {
        FlowDefinitions flow = FlowDefinitions.load("nightly-compaction-sweep.json");
        Path root = dir.resolve("archive");
        ParcelArchives parcels = ParcelArchives.create(root, PARCELS);
        ArchiveSnapshot before = ArchiveSnapshot.of(root);
        long qualifying = parcels.initial.values().stream()
                .filter(cellRows -> cellRows.size() > 1)
                .count();

        FlowHarness harness =
                new FlowHarness(flow, FlowDefinitionTest.testParameters(flow, dir, root), FlowDefinitionTest.STAND_INS);
        harness.trigger("Compaction sweep");
        harness.runUntilQuiet();
        harness.trigger("Audit whole archive");

        assertEquals(List.of(), harness.deliveredTo("Write reports"), "no failure and no problem report");
        List<FlowHarness.Delivered> verified = harness.terminated().stream()
                .filter(d -> d.from().equals("Verify compacted partitions"))
                .toList();
        assertEquals(qualifying, verified.size(), "every compacted partition was verified");
        assertEquals(
                new TreeSet<>(verified.stream()
                                .map(d -> d.attributes().get("h3.cell"))
                                .toList())
                        .size(),
                verified.size());
        List<FlowHarness.Delivered> audit = harness.terminated().stream()
                .filter(d -> d.from().equals("Audit whole archive"))
                .toList();
        assertEquals(1, audit.size());
        assertEquals(String.valueOf(PARCELS), audit.getFirst().attributes().get("archive.row.count"));
        assertEquals(before, ArchiveSnapshot.of(root), "compaction keeps every row, the geo bytes and the schema");
    }

    private static List<String> cells(ParcelArchives parcels) {
        return parcels.cellsBySize().subList(0, 3);
    }
}
