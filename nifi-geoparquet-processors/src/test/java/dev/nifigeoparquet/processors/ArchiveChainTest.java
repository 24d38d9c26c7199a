package dev.nifigeoparquet.processors;

import static dev.nifigeoparquet.processors.ChainFixtures.JSON;
import static dev.nifigeoparquet.processors.ChainFixtures.compact;
import static dev.nifigeoparquet.processors.ChainFixtures.delta;
import static dev.nifigeoparquet.processors.ChainFixtures.geoParquetDelta;
import static dev.nifigeoparquet.processors.ChainFixtures.jsonDelta;
import static dev.nifigeoparquet.processors.ChainFixtures.key;
import static dev.nifigeoparquet.processors.ChainFixtures.pass;
import static dev.nifigeoparquet.processors.ChainFixtures.route;
import static dev.nifigeoparquet.processors.ChainFixtures.routeGeoParquet;
import static dev.nifigeoparquet.processors.ChainFixtures.upsert;
import static dev.nifigeoparquet.processors.ChainFixtures.verify;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.processors.ChainFixtures.Delta;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.testing.JsonRecordReaderService;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.nifi.provenance.ProvenanceEventRecord;
import org.apache.nifi.provenance.ProvenanceEventType;
import org.apache.nifi.serialization.RecordReaderFactory;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The whole flow on a generated archive: RouteByH3Cell, then UpsertGeoParquetPartition, CompactGeoParquetPartition and
 * VerifyGeoMetadata, the output of each enqueued into the next.
 */
class ArchiveChainTest {

    @TempDir
    Path dir;

    ParcelArchives parcels;
    Path root;

    @BeforeEach
    void setUp() throws Exception {
        root = dir.resolve("archive");
        parcels = ParcelArchives.create(root, 400);
    }

    // ---- the chain

    @Test
    void aGeoParquetDeltaFlowsThroughTheChainAndChangesOnlyItsPartitions() throws Exception {
        Delta delta = delta(parcels);
        Path file = geoParquetDelta(dir.resolve("delta.parquet"), delta);
        runChain(route(root, true), () -> new GeoParquetReader(), Files.readAllBytes(file), delta);
    }

    @Test
    void aJsonDeltaFlowsThroughTheChainAndChangesOnlyItsPartitions() throws Exception {
        Delta delta = delta(parcels);
        runChain(route(root, false), JsonRecordReaderService::new, jsonDelta(delta), delta);
    }

    private void runChain(TestRunner route, Supplier<RecordReaderFactory> reader, byte[] content, Delta delta)
            throws Exception {
        long baseline = parcels.duckDbCount();
        Map<String, String> before = ParcelArchives.hashes(root);

        route.enqueue(content);
        route.run();
        List<MockFlowFile> routed = route.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS);
        assertEquals(
                delta.cells(),
                new TreeSet<>(
                        routed.stream().map(f -> f.getAttribute("h3.cell")).toList()));

        TestRunner upsert = upsert(root, reader);
        pass(routed, upsert);
        upsert.run();
        upsert.assertAllFlowFilesTransferred(
                UpsertGeoParquetPartition.REL_SUCCESS, delta.cells().size());
        List<MockFlowFile> upserted = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS);
        long net = 0;
        Set<String> touched = new TreeSet<>();
        for (MockFlowFile flowFile : upserted) {
            flowFile.assertAttributeEquals("geoparquet.replay", "false");
            flowFile.assertAttributeEquals("geoparquet.rows.inserted", "2");
            flowFile.assertAttributeEquals("geoparquet.rows.updated", "2");
            flowFile.assertAttributeEquals("geoparquet.rows.deleted", "1");
            assertTrue(
                    flowFile.getAttribute("geoparquet.operation.id").matches("[0-9a-f]{64}"),
                    "the id derived from the records");
            net += Long.parseLong(flowFile.getAttribute("geoparquet.rows.net"));
            touched.addAll(List.of(
                    flowFile.getAttribute("geoparquet.partitions.touched").split(",")));
        }
        assertEquals(delta.cells(), touched);
        assertEquals(delta.cells().size(), net, "each cell: two inserted, one deleted");
        assertWrittenFilesAreInProvenance(upsert, delta.cells());

        TestRunner compact = compact(root);
        pass(upserted, compact);
        compact.run(upserted.size());
        compact.assertAllFlowFilesTransferred(CompactGeoParquetPartition.REL_SUCCESS, upserted.size());
        for (MockFlowFile flowFile : compact.getFlowFilesForRelationship(CompactGeoParquetPartition.REL_SUCCESS)) {
            flowFile.assertAttributeEquals("compaction.compacted", "true");
            assertTrue(
                    Integer.parseInt(flowFile.getAttribute("compaction.files.after"))
                            < Integer.parseInt(flowFile.getAttribute("compaction.files.before")),
                    flowFile.getAttributes().toString());
        }
        // The FlowFile's content is sent nowhere: each compaction is a remote invocation on its partition.
        assertEquals(
                Set.of(ProvenanceEventType.REMOTE_INVOCATION),
                compact.getProvenanceEvents().stream()
                        .map(ProvenanceEventRecord::getEventType)
                        .collect(java.util.stream.Collectors.toSet()));
        for (MockFlowFile flowFile : compact.getFlowFilesForRelationship(CompactGeoParquetPartition.REL_SUCCESS)) {
            assertTrue(
                    compact.getProvenanceEvents().stream()
                            .anyMatch(event -> event.getFlowFileUuid().equals(flowFile.getAttribute("uuid"))),
                    "each compacting FlowFile has its invocation");
        }

        TestRunner verify = verify(root);
        pass(compact.getFlowFilesForRelationship(CompactGeoParquetPartition.REL_SUCCESS), verify);
        verify.run(upserted.size());
        verify.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_VALID, upserted.size());
        for (MockFlowFile report : verify.getFlowFilesForRelationship(VerifyGeoMetadata.REL_VALID)) {
            report.assertAttributeEquals("geo.consistent", "true");
            report.assertAttributeEquals("geo.crs", "OGC:CRS84");
            report.assertAttributeEquals("partitions.checked", "1");
            assertEquals(
                    Long.parseLong(report.getAttribute("geoparquet.rows.before"))
                            + Long.parseLong(report.getAttribute("geoparquet.rows.net")),
                    Long.parseLong(report.getAttribute("archive.row.count")),
                    "the partition holds the upsert's baseline plus its net delta");
            JsonNode json = JSON.readTree(report.getContent());
            assertTrue(json.get("consistent").asBoolean());
            assertEquals(0, json.get("problems").size());
        }

        // The whole archive on a timer: consistent, and the total is the baseline plus the net delta.
        TestRunner audit = verify(root);
        audit.setIncomingConnection(false);
        audit.setProperty(VerifyGeoMetadata.EXPECTED_ROW_COUNT, String.valueOf(baseline + net));
        audit.run();
        audit.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_VALID, 1);
        MockFlowFile report =
                audit.getFlowFilesForRelationship(VerifyGeoMetadata.REL_VALID).get(0);
        report.assertAttributeEquals("archive.row.count", String.valueOf(baseline + net));
        report.assertAttributeEquals("partitions.checked", String.valueOf(parcels.initial.size()));

        // DuckDB reads the result: the count, the edits, the new keys, the deletions.
        assertEquals(baseline + net, parcels.duckDbCount());
        Map<String, Double> areas = parcels.duckDbAreas();
        for (Group row : delta.upserts()) {
            assertEquals(row.getDouble("area_m2", 0), areas.get(key(row)), 0.0, key(row));
        }
        for (Group row : delta.deletions()) {
            assertFalse(areas.containsKey(key(row)), key(row) + " was deleted");
        }

        assertOnlyTouchedPartitionsChanged(before, ParcelArchives.hashes(root), delta.cells());
    }

    @Test
    void aVerificationAfterAWriteFinishesThePublishingThatAStoppedWriterLeft() throws Exception {
        Delta delta = delta(parcels);
        String cell = delta.cells().iterator().next();
        Path partition = root.resolve(ArchiveLayout.partitionDirectory(cell));
        Path before = dir.resolve("before");
        copyFiles(partition, before);
        List<MockFlowFile> routed = routeGeoParquet(root, geoParquetDelta(dir.resolve("delta.parquet"), delta));
        TestRunner upsert = upsert(root, () -> new GeoParquetReader());
        pass(routed, upsert);
        upsert.run();
        List<MockFlowFile> upserted = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS);
        long rowsAfter = parcels.duckDbCount();
        Map<String, String> published = ParcelArchives.hashes(partition);

        unpublish(cell, before);
        assertEquals(
                rowsAfter - 1,
                parcels.duckDbCount(),
                "a plain reader sees the partition as it was, without its net row (two inserted, one deleted)");

        TestRunner audit = verify(root);
        audit.setIncomingConnection(false);
        audit.run();
        audit.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_INVALID, 1);
        JsonNode sweepReport = JSON.readTree(audit.getFlowFilesForRelationship(VerifyGeoMetadata.REL_INVALID)
                .get(0)
                .getContent());
        assertTrue(sweepReport.get("problems").size() > 0, sweepReport.toString());
        for (JsonNode problem : sweepReport.get("problems")) {
            assertTrue(
                    Set.of("UNPUBLISHED_FILE", "SUPERSEDED_FILE")
                            .contains(problem.get("kind").asText()),
                    "the sweep reports the unfinished publishing as it finds it: " + problem);
        }

        TestRunner verify = verify(root);
        pass(upserted, verify);
        verify.run(upserted.size());
        verify.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_VALID, upserted.size());
        assertEquals(rowsAfter, parcels.duckDbCount(), "a plain reader sees the committed rows");
        assertEquals(
                published, ParcelArchives.hashes(partition), "the partition is published as its writer would have");
    }

    /**
     * Puts the partition back in the state its last writer left when it stopped right after its commit: every file of
     * the commit only staged (new content for a name it replaces beside the old), the files it superseded still there.
     */
    private void unpublish(String cell, Path filesBefore) throws Exception {
        PartitionCommit state =
                GeoParquetArchive.open(new LocalArchiveStorage(root)).partitionState(cell);
        Path partition = root.resolve(ArchiveLayout.partitionDirectory(cell));
        for (DataFileEntry file : state.files()) {
            if (file.stagedAs() == null && Files.exists(filesBefore.resolve(file.name()))) {
                continue; // carried over from an earlier commit, published then
            }
            Path published = partition.resolve(file.name());
            Path staged = root.resolve(
                    file.stagedAs() == null
                            ? ArchiveLayout.stagedFile(cell, file.name())
                            : ArchiveLayout.replacementFile(cell, file.stagedAs()));
            Files.createDirectories(staged.getParent());
            Files.move(published, staged);
        }
        copyFiles(filesBefore, partition);
    }

    private static void copyFiles(Path from, Path to) throws Exception {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, to.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    @Test
    void thePlacementCheckKeysEveryRowOrASampleWhenAsked() throws Exception {
        long rows = parcels.duckDbCount();
        TestRunner audit = verify(root);
        audit.setIncomingConnection(false);
        audit.setProperty(VerifyGeoMetadata.SWEEP_INTERVAL, "0 sec"); // every run sweeps
        audit.setProperty(VerifyGeoMetadata.PLACEMENT_CHECK, "some");
        audit.assertNotValid();
        for (String setting : List.of("all", "10", "none")) {
            audit.clearTransferState();
            audit.setProperty(VerifyGeoMetadata.PLACEMENT_CHECK, setting);
            audit.run();
            audit.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_VALID, 1);
            JsonNode report = JSON.readTree(audit.getFlowFilesForRelationship(VerifyGeoMetadata.REL_VALID)
                    .get(0)
                    .getContent());
            switch (setting) {
                case "all" -> assertEquals(rows, report.get("rowsPlaced").asLong(), report.toString());
                case "10" ->
                    assertTrue(
                            report.get("rowsPlaced").asLong() >= 5
                                    && report.get("rowsPlaced").asLong() <= 10,
                            report.toString());
                default -> assertFalse(report.has("rowsPlaced"), report.toString());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Input Order", "Hilbert Curve"})
    void aSweepWithoutInputCompactsEveryQualifyingPartitionAndKeepsTheRows(String rowOrder) throws Exception {
        long rows = parcels.duckDbCount();
        long qualifying = parcels.initial.values().stream()
                .filter(cellRows -> cellRows.size() > 1)
                .count();
        TestRunner sweep = compact(root);
        sweep.setProperty(CompactGeoParquetPartition.ROW_ORDER, rowOrder);
        sweep.assertValid();
        sweep.setIncomingConnection(false);
        sweep.run();
        sweep.assertAllFlowFilesTransferred(CompactGeoParquetPartition.REL_SUCCESS, (int) qualifying);
        for (MockFlowFile flowFile : sweep.getFlowFilesForRelationship(CompactGeoParquetPartition.REL_SUCCESS)) {
            flowFile.assertAttributeEquals("compaction.files.before", "2");
            flowFile.assertAttributeEquals("compaction.files.after", "1");
            assertTrue(parcels.initial.containsKey(flowFile.getAttribute("h3.cell")));
            assertEquals(
                    flowFile.getAttribute("h3.cell"),
                    JSON.readTree(flowFile.getContent()).get("cell").asText());
        }
        assertEquals(rows, parcels.duckDbCount());

        TestRunner audit = verify(root);
        audit.setIncomingConnection(false);
        audit.run();
        audit.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_VALID, 1);
    }

    /** Every file of a partition the delta did not touch has the same content; nothing appeared or vanished there. */
    static void assertOnlyTouchedPartitionsChanged(
            Map<String, String> before, Map<String, String> after, Set<String> touched) {
        Set<String> paths = new TreeSet<>(before.keySet());
        paths.addAll(after.keySet());
        List<String> unexpected = new ArrayList<>();
        int changed = 0;
        for (String path : paths) {
            if (Objects.equals(before.get(path), after.get(path))) {
                continue;
            }
            changed++;
            String cell = cellOf(path);
            // The key index (its shards' files and logs), transaction records and leases are archive-wide metadata,
            // not partitions.
            boolean archiveWide = path.startsWith(ArchiveLayout.INDEX_DIRECTORY)
                    || path.startsWith(ArchiveLayout.TRANSACTION_DIRECTORY)
                    || path.startsWith(ArchiveLayout.LEASE_DIRECTORY)
                    || ArchiveLayout.isIndexShard(cell);
            if (!archiveWide && (cell == null || !touched.contains(cell))) {
                unexpected.add(path);
            }
        }
        assertTrue(changed > 0, "the touched partitions changed");
        assertEquals(List.of(), unexpected, "files outside the touched partitions changed");
    }

    /** The cell a data, log or staging path belongs to; null for anything else. */
    static String cellOf(String path) {
        if (path.startsWith(ArchiveLayout.PARTITION_PREFIX)) {
            return path.substring(ArchiveLayout.PARTITION_PREFIX.length(), path.indexOf('/'));
        }
        for (String prefix : List.of(ArchiveLayout.LOG_DIRECTORY + "/", ArchiveLayout.STAGING_DIRECTORY + "/")) {
            if (path.startsWith(prefix)) {
                String rest = path.substring(prefix.length());
                return rest.contains("/") ? rest.substring(0, rest.indexOf('/')) : null;
            }
        }
        return null;
    }

    static void assertWrittenFilesAreInProvenance(TestRunner upsert, Set<String> cells) {
        Map<String, Integer> perCell = new HashMap<>();
        for (ProvenanceEventRecord event : upsert.getProvenanceEvents()) {
            if (event.getEventType() == ProvenanceEventType.SEND) {
                String uri = event.getTransitUri();
                assertTrue(uri.startsWith("file:") && uri.endsWith(".parquet"), uri);
                String cell = uri.substring(
                        uri.indexOf(ArchiveLayout.PARTITION_PREFIX) + ArchiveLayout.PARTITION_PREFIX.length());
                perCell.merge(cell.substring(0, cell.indexOf('/')), 1, Integer::sum);
            }
        }
        assertEquals(cells, perCell.keySet());
    }
}
