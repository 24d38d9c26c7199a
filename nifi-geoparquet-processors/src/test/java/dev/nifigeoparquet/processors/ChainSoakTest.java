package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.processors.testing.JsonRecordReaderService;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.MockProcessSession;
import org.apache.nifi.util.TestRunner;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.io.WKBReader;

/**
 * Soak: hundreds of small deltas through RouteByH3Cell, UpsertGeoParquetPartition, CompactGeoParquetPartition and
 * VerifyGeoMetadata, with faults drawn at random: the node dying between the engine commit and the session commit
 * (the session rolled back, the FlowFile redelivered), a FlowFile delivered twice, a provenance replay under a new
 * UUID, a corrupt delta among the good ones, compaction runs in between. The expected table is kept independently
 * from the deltas themselves; at the end DuckDB must read exactly it and Verify must find the archive valid.
 */
@Tag("heavy")
class ChainSoakTest {

    private static final int DELTAS = 300;

    @TempDir
    Path dir;

    @Test
    void hundredsOfSmallDeltasWithRandomFaultsEndInExactlyTheExpectedTable() throws Exception {
        Path root = dir.resolve("archive");
        ParcelArchives parcels = ParcelArchives.create(root, 300);
        Map<String, Double> expected = new TreeMap<>(parcels.duckDbAreas());
        List<Group> pool = new ArrayList<>();
        parcels.initial.values().forEach(pool::addAll);
        Random random = new Random(20260301);
        WKBReader wkb = new WKBReader();

        TestRunner route = ChainFixtures.route(root, false);
        TestRunner upsert = ChainFixtures.upsert(root, JsonRecordReaderService::new);
        TestRunner compact = ChainFixtures.compact(root);
        upsert.run(1, false, true);
        int crashes = 0, duplicates = 0, replays = 0, corrupt = 0, compactions = 0, committed = 0, noOps = 0;
        for (int d = 0; d < DELTAS; d++) {
            ArrayNode delta = ChainFixtures.JSON.createArrayNode();
            Instant version = Instant.parse("2026-02-01T00:00:00Z").plusSeconds(d);
            for (int r = 0; r < 1 + random.nextInt(4); r++) {
                Group source = pool.get(random.nextInt(pool.size()));
                boolean insert = random.nextInt(4) == 0;
                String id = insert ? "soak-" + d + "-" + r : source.getString(SyntheticParcels.KEY, 0);
                double area = Math.round(random.nextDouble() * 100_000) / 10.0;
                boolean delete = !insert && random.nextInt(10) == 0 && expected.containsKey(id);
                delta.add(ChainFixtures.JSON
                        .createObjectNode()
                        .put(SyntheticParcels.KEY, id)
                        .put("land_use", source.getString("land_use", 0))
                        .put("area_m2", area)
                        .put(SyntheticParcels.VERSION, version.toString())
                        .put(
                                "wkt",
                                wkb.read(source.getBinary(SyntheticParcels.GEOMETRY, 0)
                                                .getBytes())
                                        .toText())
                        .put(ChainFixtures.DELETE_MARKER, delete));
                if (delete) {
                    expected.remove(id);
                } else {
                    expected.put(id, area);
                }
            }
            route.clearTransferState();
            route.enqueue(ChainFixtures.JSON.writeValueAsBytes(delta));
            route.run();
            List<MockFlowFile> cells = route.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS);
            assertEquals(
                    0,
                    route.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE).size());
            for (MockFlowFile cell : cells) {
                upsert.clearTransferState();
                int fault = random.nextInt(10);
                upsert.enqueue(cell.toByteArray(), cell.getAttributes());
                if (fault == 0) {
                    // Engine commit, then the node dies before the session commit: rolled back, redelivered below.
                    MockProcessSession session = (MockProcessSession)
                            upsert.getProcessSessionFactory().createSession();
                    ((UpsertGeoParquetPartition) upsert.getProcessor()).onTrigger(upsert.getProcessContext(), session);
                    session.rollback();
                    crashes++;
                } else if (fault == 1) {
                    upsert.enqueue(cell.toByteArray(), cell.getAttributes());
                    duplicates++;
                } else if (fault == 2) {
                    Map<String, String> replay = new HashMap<>(cell.getAttributes());
                    replay.put("uuid", UUID.randomUUID().toString());
                    upsert.enqueue(cell.toByteArray(), replay);
                    replays++;
                } else if (fault == 3) {
                    upsert.enqueue("[{\"parcel_id\": 1".getBytes(StandardCharsets.UTF_8), cell.getAttributes());
                    corrupt++;
                }
                upsert.run(1, false, false);
                assertEquals(
                        0,
                        upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_RETRY)
                                .size(),
                        "no retries on one node");
                for (MockFlowFile done : upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS)) {
                    if ("true".equals(done.getAttribute("geoparquet.replay"))) {
                        noOps++;
                    } else {
                        committed++;
                    }
                }
                assertEquals(
                        fault == 3 ? 1 : 0,
                        upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE)
                                .size());
            }
            if (random.nextInt(25) == 0) {
                compact.run();
                compactions++;
            }
        }
        assertEquals(expected, parcels.duckDbAreas(), "DuckDB reads exactly the independently computed table");
        TestRunner verify = ChainFixtures.verify(root);
        verify.setIncomingConnection(false); // a scheduled sweep: the whole archive
        verify.run();
        verify.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_VALID, 1);
        assertTrue(noOps >= crashes + duplicates + replays, "every redelivery, duplicate and replay was a no-op");
        System.out.println("soak: " + DELTAS + " deltas routed into cell deltas, " + committed + " commits, " + noOps
                + " no-op redeliveries ("
                + crashes + " crashes between the engine and session commits, " + duplicates + " duplicates, " + replays
                + " provenance replays), " + corrupt + " corrupt deltas to failure, " + compactions
                + " compaction sweeps; "
                + expected.size() + " rows match the expected table and Verify finds the archive valid");
    }
}
