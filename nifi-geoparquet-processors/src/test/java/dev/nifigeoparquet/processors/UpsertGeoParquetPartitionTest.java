package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.uber.h3core.H3Core;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.testing.JsonRecordReaderService;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.apache.nifi.provenance.ProvenanceEventType;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UpsertGeoParquetPartitionTest {

    @TempDir
    Path dir;

    ParcelArchives parcels;
    Path root;
    List<MockFlowFile> routed;

    @BeforeEach
    void setUp() throws Exception {
        root = dir.resolve("archive");
        parcels = ParcelArchives.create(root, 200);
        Path delta = ChainFixtures.geoParquetDelta(dir.resolve("delta.parquet"), ChainFixtures.delta(parcels));
        routed = ChainFixtures.routeGeoParquet(root, delta);
    }

    TestRunner upsert() throws Exception {
        return ChainFixtures.upsert(root, GeoParquetReader::new);
    }

    @Test
    void theSameDeltaTwiceAndAReplayUnderANewUuidChangeNothing() throws Exception {
        MockFlowFile cellDelta = routed.get(0);
        TestRunner upsert = upsert();
        upsert.enqueue(cellDelta.getContentStream(), cellDelta.getAttributes());
        upsert.run();
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS, 1);
        upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS)
                .get(0)
                .assertAttributeEquals("geoparquet.replay", "false");
        Map<String, String> afterFirst = ParcelArchives.hashes(root);
        long rows = parcels.duckDbCount();

        // Redelivered in the same batch as itself, and once more later under a new FlowFile UUID (a provenance replay).
        upsert.clearTransferState();
        upsert.enqueue(cellDelta.getContentStream(), cellDelta.getAttributes());
        upsert.enqueue(cellDelta.getContentStream(), cellDelta.getAttributes());
        Map<String, String> replayed = new HashMap<>(cellDelta.getAttributes());
        replayed.put("uuid", UUID.randomUUID().toString());
        upsert.enqueue(cellDelta.getContentStream(), replayed);
        upsert.run();
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS, 3);
        for (MockFlowFile flowFile : upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS)) {
            flowFile.assertAttributeEquals("geoparquet.replay", "true");
            flowFile.assertAttributeEquals("geoparquet.rows.net", "0");
            flowFile.assertAttributeEquals("geoparquet.files.written", "0");
        }
        assertEquals(afterFirst, ParcelArchives.hashes(root), "a replay writes nothing");
        assertEquals(rows, parcels.duckDbCount());
    }

    @Test
    void everyFlowFileOfABatchIsReportedAsSentToTheFilesItsCommitWrote() throws Exception {
        MockFlowFile cellDelta = routed.get(0);
        TestRunner upsert = upsert();
        for (String night : List.of("night-1", "night-2")) {
            Map<String, String> attributes = new HashMap<>(cellDelta.getAttributes());
            attributes.put("delta.id", night);
            attributes.put("uuid", UUID.randomUUID().toString());
            upsert.enqueue(cellDelta.getContentStream(), attributes);
        }
        upsert.run();

        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS, 2);
        for (MockFlowFile flowFile : upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS)) {
            flowFile.assertAttributeEquals("geoparquet.batch.deltas", "2");
            List<String> sent = upsert.getProvenanceEvents().stream()
                    .filter(event -> event.getEventType() == ProvenanceEventType.SEND
                            && event.getFlowFileUuid().equals(flowFile.getAttribute("uuid")))
                    .map(event -> event.getTransitUri())
                    .toList();
            assertTrue(!sent.isEmpty(), flowFile.getAttribute("delta.id") + " has a SEND event");
            assertTrue(
                    sent.stream().allMatch(uri -> uri.contains("h3_cell=" + cellDelta.getAttribute("h3.cell"))),
                    sent.toString());
        }
    }

    @Test
    void withoutADeltaIdTheRecordsIdMakesTheRedeliveryANoOp() throws Exception {
        MockFlowFile cellDelta = routed.get(0);
        Map<String, String> attributes = new HashMap<>(cellDelta.getAttributes());
        TestRunner upsert = upsert();
        upsert.enqueue(cellDelta.getContentStream(), attributes);
        upsert.enqueue(cellDelta.getContentStream(), attributes);
        upsert.run();
        List<MockFlowFile> done = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS);
        assertEquals(2, done.size());
        done.get(0).assertAttributeEquals("geoparquet.replay", "false");
        done.get(1).assertAttributeEquals("geoparquet.replay", "true");
        assertEquals(
                done.get(0).getAttribute("geoparquet.operation.id"),
                done.get(1).getAttribute("geoparquet.operation.id"));
        assertNotEquals(done.get(0).getAttribute("uuid"), done.get(1).getAttribute("uuid"));
    }

    @Test
    void aForgedCellFailsAndNothingOutsideTheArchiveRootIsCreated() throws Exception {
        MockFlowFile cellDelta = routed.get(0);
        String cell = cellDelta.getAttribute("h3.cell");
        String otherCell = parcels.initial.keySet().stream()
                .filter(c -> !c.equals(cell))
                .findFirst()
                .orElseThrow();
        String parentCell = H3Core.newInstance().cellToParentAddress(cell, ParcelArchives.RESOLUTION - 1);
        List<String> forged = List.of(
                "../x",
                "../../etc/passwd",
                cell.toUpperCase(Locale.ROOT),
                parentCell,
                otherCell,
                "garbage",
                "",
                "8" + cell);
        List<String> before = ParcelArchives.paths(dir);
        Map<String, String> hashes = ParcelArchives.hashes(root);

        TestRunner upsert = upsert();
        for (String value : forged) {
            Map<String, String> attributes = new HashMap<>(cellDelta.getAttributes());
            attributes.put("h3.cell", value);
            upsert.enqueue(cellDelta.getContentStream(), attributes);
        }
        Map<String, String> missing = new HashMap<>(cellDelta.getAttributes());
        missing.remove("h3.cell");
        upsert.enqueue(cellDelta.getContentStream(), missing);
        upsert.run();

        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_FAILURE, forged.size() + 1);
        for (MockFlowFile failed : upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE)) {
            String message = failed.getAttribute("error.message");
            if (otherCell.equals(failed.getAttribute("h3.cell"))) {
                assertTrue(message.contains("not in partition " + otherCell), message);
            } else {
                assertTrue(message.startsWith("Attribute h3.cell is not a partition of the archive"), message);
            }
        }
        assertEquals(before, ParcelArchives.paths(dir), "no file or directory appeared or vanished anywhere");
        assertEquals(hashes, ParcelArchives.hashes(root));
    }

    @Test
    void aTruncatedFileFailsTheUpsertNamingItAndVerifyReportsIt() throws Exception {
        MockFlowFile cellDelta = routed.get(0);
        String cell = cellDelta.getAttribute("h3.cell");
        DataFileEntry victim = parcels.archive.partitionState(cell).files().get(0);
        Path file = root.resolve("h3_cell=" + cell).resolve(victim.name());
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        Map<String, String> hashes = ParcelArchives.hashes(root);

        TestRunner upsert = upsert();
        upsert.enqueue(cellDelta.getContentStream(), cellDelta.getAttributes());
        upsert.run();
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_FAILURE, 1);
        String message = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE)
                .get(0)
                .getAttribute("error.message");
        assertTrue(message.contains(victim.name()), message);
        assertEquals(hashes, ParcelArchives.hashes(root), "nothing written, nothing deleted");

        TestRunner verify = ChainFixtures.verify(root);
        verify.enqueue(new byte[0], Map.of("h3.cell", cell));
        verify.run();
        verify.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_INVALID, 1);
        MockFlowFile report = verify.getFlowFilesForRelationship(VerifyGeoMetadata.REL_INVALID)
                .get(0);
        report.assertAttributeEquals("geo.consistent", "false");
        JsonNode json = ChainFixtures.JSON.readTree(report.getContent());
        JsonNode problems = json.get("problemsByFile").get("h3_cell=" + cell + "/" + victim.name());
        assertTrue(problems != null && problems.toString().contains("CORRUPT_FILE"), json.toPrettyString());
        // The bulletin names the kind and its first file, so an operator knows what to look at before the report.
        String bulletin = verify.getLogger().getWarnMessages().get(0).getMsg();
        assertTrue(bulletin.contains("CORRUPT_FILE x") && bulletin.contains(victim.name()), bulletin);
    }

    @Test
    void aDamagedPartitionFailsOnlyTheFlowFilesThatNeedItAndTheRestOfTheRunCommits() throws Exception {
        assertEquals(2, routed.size(), "the delta spans two cells");
        String good = routed.get(0).getAttribute("h3.cell");
        String bad = routed.get(1).getAttribute("h3.cell");
        long goodRowsBefore = parcels.archive.partitionState(good).rowCount();
        DataFileEntry victim = parcels.archive.partitionState(bad).files().get(0);
        Path file = root.resolve("h3_cell=" + bad).resolve(victim.name());
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length / 2));
        Map<String, String> badPartition = ParcelArchives.hashes(root.resolve("h3_cell=" + bad));

        TestRunner upsert = upsert();
        routed.forEach(flowFile -> upsert.enqueue(flowFile.getContentStream(), flowFile.getAttributes()));
        upsert.run();

        upsert.assertTransferCount(UpsertGeoParquetPartition.REL_SUCCESS, 1);
        upsert.assertTransferCount(UpsertGeoParquetPartition.REL_FAILURE, 1);
        MockFlowFile committed = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS)
                .get(0);
        committed.assertAttributeEquals("h3.cell", good);
        committed.assertAttributeEquals("geoparquet.rows.net", "1");
        assertEquals(goodRowsBefore + 1, parcels.archive.partitionState(good).rowCount());
        MockFlowFile failed = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE)
                .get(0);
        failed.assertAttributeEquals("h3.cell", bad);
        assertTrue(failed.getAttribute("error.message").contains(victim.name()), failed.getAttribute("error.message"));
        assertEquals(
                badPartition,
                ParcelArchives.hashes(root.resolve("h3_cell=" + bad)),
                "the failed partition is as it was");
    }

    @Test
    void aValueTheArchiveCannotHoldFailsNamingTheField() throws Exception {
        MockFlowFile cellDelta = routed.get(0);
        TestRunner upsert = ChainFixtures.upsert(root, JsonRecordReaderService::new);
        String json =
                "[{\"parcel_id\":\"x\",\"land_use\":\"forest\",\"area_m2\":1.5,\"updated_at\":\"yesterday\",\"geometry\":\"00\"}]";
        upsert.enqueue(json, Map.of("h3.cell", cellDelta.getAttribute("h3.cell")));
        upsert.run();
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_FAILURE, 1);
        String message = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE)
                .get(0)
                .getAttribute("error.message");
        assertTrue(message.contains("record 0") && message.contains("updated_at"), message);
    }
}
