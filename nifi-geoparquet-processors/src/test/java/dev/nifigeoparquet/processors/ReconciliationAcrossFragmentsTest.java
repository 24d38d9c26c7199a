package dev.nifigeoparquet.processors;

import static dev.nifigeoparquet.processors.ChainFixtures.EDIT_TIME;
import static dev.nifigeoparquet.processors.ChainFixtures.copy;
import static dev.nifigeoparquet.processors.ChainFixtures.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fragments of one delta move keys between two cells in both directions and delete a key stored in another cell
 * than the one its delete record is routed to. They are committed one by one, and only then verified: each fragment's
 * expected rows are stale by then, yet VerifyGeoMetadata must find both valid (it reconciles from the commit records),
 * and every count attribute must be non-negative and add up to what DuckDB counts.
 */
class ReconciliationAcrossFragmentsTest {

    private static final List<String> COUNTS = List.of(
            "geoparquet.rows.before",
            "geoparquet.rows.after",
            "geoparquet.rows.inserted",
            "geoparquet.rows.updated",
            "geoparquet.rows.moved",
            "geoparquet.rows.deleted",
            "geoparquet.rows.skipped");

    @TempDir
    Path dir;

    @Test
    void interleavedFragmentsThatMoveKeysBothWaysVerifyValidAndCountsAddUp() throws Exception {
        Path root = dir.resolve("archive");
        ParcelArchives parcels = ParcelArchives.create(root, 400);
        List<String> cells = parcels.cellsBySize().subList(0, 2);
        List<Group> a = parcels.initial.get(cells.get(0));
        List<Group> b = parcels.initial.get(cells.get(1));
        List<Group> upserts = new ArrayList<>();
        List<Group> deletions = new ArrayList<>();
        upserts.add(copy(b.get(0), key(a.get(0)), 101.0, EDIT_TIME)); // a0 moves to B
        upserts.add(copy(a.get(1), key(b.get(1)), 102.0, EDIT_TIME)); // b1 moves to A
        upserts.add(copy(a.get(2), key(a.get(2)), 103.0, EDIT_TIME)); // a2 edited in place
        upserts.add(copy(a.get(3), "brand-new", 104.0, EDIT_TIME)); // a new key in A
        deletions.add(copy(a.get(4), key(b.get(2)), 0, EDIT_TIME)); // deletes b2, routed to A by its geometry
        Path delta = ChainFixtures.geoParquetDelta(
                dir.resolve("delta.parquet"), new ChainFixtures.Delta(upserts, deletions, new TreeSet<>(cells), 0));
        long before = parcels.duckDbCount();

        List<MockFlowFile> routed = ChainFixtures.routeGeoParquet(root, delta);
        assertEquals(2, routed.size(), "one fragment per cell");
        TestRunner upsert = ChainFixtures.upsert(root, GeoParquetReader::new);
        upsert.setProperty(UpsertGeoParquetPartition.BATCH_SIZE, "1");
        ChainFixtures.pass(routed, upsert);
        upsert.run(2);
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS, 2);
        List<MockFlowFile> applied = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS);

        long net = 0;
        long inserted = 0;
        long deleted = 0;
        long moved = 0;
        Set<String> touched = new TreeSet<>();
        for (MockFlowFile flowFile : applied) {
            for (String count : COUNTS) {
                assertTrue(
                        Long.parseLong(flowFile.getAttribute(count)) >= 0,
                        count + " is never negative: " + flowFile.getAttributes());
            }
            long fragmentNet = Long.parseLong(flowFile.getAttribute("geoparquet.rows.net"));
            assertEquals(
                    Long.parseLong(flowFile.getAttribute("geoparquet.rows.inserted"))
                            - Long.parseLong(flowFile.getAttribute("geoparquet.rows.deleted")),
                    fragmentNet,
                    "net is inserted minus deleted");
            assertEquals(
                    Long.parseLong(flowFile.getAttribute("geoparquet.rows.after"))
                            - Long.parseLong(flowFile.getAttribute("geoparquet.rows.before")),
                    fragmentNet,
                    "net is after minus before");
            net += fragmentNet;
            inserted += Long.parseLong(flowFile.getAttribute("geoparquet.rows.inserted"));
            deleted += Long.parseLong(flowFile.getAttribute("geoparquet.rows.deleted"));
            moved += Long.parseLong(flowFile.getAttribute("geoparquet.rows.moved"));
            touched.addAll(List.of(
                    flowFile.getAttribute("geoparquet.partitions.touched").split(",")));
            assertTrue(!flowFile.getAttribute("geoparquet.commits").isBlank(), "the commits are named");
        }
        assertEquals(
                List.of(1L, 1L, 2L),
                List.of(inserted, deleted, moved),
                "one new key, one delete reaching another cell, two moves");
        assertEquals(parcels.duckDbCount() - before, net, "the fragments' net changes add up to what DuckDB counts");
        assertEquals(new TreeSet<>(cells), touched);

        // Verified only now, after both commits: each fragment's partitions have moved on since its own commit.
        TestRunner verify = ChainFixtures.verify(root);
        ChainFixtures.pass(applied, verify);
        verify.run(2);
        assertEquals(
                List.of(),
                verify.getFlowFilesForRelationship(VerifyGeoMetadata.REL_INVALID).stream()
                        .map(flowFile -> flowFile.getContent())
                        .toList(),
                "no false alarm");
        verify.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_VALID, 2);
    }
}
