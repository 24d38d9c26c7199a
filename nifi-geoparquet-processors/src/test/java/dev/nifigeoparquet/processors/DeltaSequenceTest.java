package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.synthetic.NightlyBacklog;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * UpsertGeoParquetPartition's Delta Sequence, as a flow uses it: three nights routed by RouteByH3Cell, each FlowFile
 * carrying its night's date in an attribute the property reads. Delivered in every order, one night per run or all the
 * backlog's FlowFiles in one batch, they leave the rows the nights leave applied in order; without the property they do
 * not.
 */
class DeltaSequenceTest {

    private static final String NIGHT = "night.date";
    private static final List<List<Integer>> ORDERS = List.of(
            List.of(0, 1, 2), List.of(0, 2, 1), List.of(1, 0, 2), List.of(1, 2, 0), List.of(2, 0, 1), List.of(2, 1, 0));

    @TempDir
    Path dir;

    Path baseline;
    /** Each night's cell FlowFiles as RouteByH3Cell wrote them: content and attributes. */
    final List<List<MockFlowFile>> routed = new ArrayList<>();

    @BeforeEach
    void routeTheNights() throws Exception {
        baseline = dir.resolve("baseline");
        ParcelArchives parcels = ParcelArchives.create(baseline, 300);
        NightlyBacklog backlog = NightlyBacklog.against(parcels.initial, row -> cellOf(parcels, row), false);
        for (int night = 0; night < 3; night++) {
            Path file = dir.resolve("night-" + NightlyBacklog.sequence(night) + ".parquet");
            ArchiveFixtures.writeFile(file, NightlyDelta.schema(), SyntheticParcels.footer(), backlog.night(night));
            TestRunner route = ChainFixtures.route(baseline, true);
            route.enqueue(Files.readAllBytes(file), Map.of(NIGHT, String.valueOf(NightlyBacklog.sequence(night))));
            route.run();
            routed.add(route.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS));
        }
    }

    @Test
    void theNightsInEveryOrderOneRunEachOrAllInOneBatchLeaveTheRowsOfTheInOrderRun() throws Exception {
        List<List<Object>> expected = apply("in-order", List.of(0, 1, 2), true, false);
        for (List<Integer> order : ORDERS) {
            String name = order.stream().map(String::valueOf).reduce("", String::concat);
            assertEquals(expected, apply("runs-" + name, order, true, false), "one run per night, order " + order);
            assertEquals(expected, apply("batch-" + name, order, true, true), "one batch, order " + order);
        }
        assertNotEquals(
                expected,
                apply("unsequenced", List.of(2, 1, 0), false, false),
                "without a sequence the late nights overwrite the newer ones");
    }

    @Test
    void aDeltaSequenceThatIsNotANumberFailsTheFlowFileNamingTheValue() throws Exception {
        TestRunner upsert = upsert(copy("bad-sequence"));
        upsert.setProperty(UpsertGeoParquetPartition.DELTA_SEQUENCE, "${" + NIGHT + "}");
        MockFlowFile cell = routed.get(0).get(0);
        Map<String, String> attributes = new HashMap<>(cell.getAttributes());
        attributes.put(NIGHT, "yesterday");
        upsert.enqueue(cell.toByteArray(), attributes);
        upsert.run();
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_FAILURE, 1);
        String reason = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE)
                .get(0)
                .getAttribute("error.message");
        assertTrue(reason.contains("'yesterday'") && reason.contains("Delta Sequence"), reason);
        assertFalse(upsert.isYieldCalled(), "bad input: the next FlowFile may be fine");
    }

    /**
     * Applies the nights' FlowFiles in {@code order} to a copy of the baseline and returns every row as DuckDB reads it.
     *
     * @param inOneBatch true to queue every FlowFile of the backlog and take them in one run (a node catching up)
     */
    private List<List<Object>> apply(String name, List<Integer> order, boolean sequenced, boolean inOneBatch)
            throws Exception {
        Path root = copy(name);
        TestRunner upsert = upsert(root);
        if (sequenced) {
            upsert.setProperty(UpsertGeoParquetPartition.DELTA_SEQUENCE, "${" + NIGHT + "}");
        }
        upsert.setProperty(UpsertGeoParquetPartition.BATCH_SIZE, "1000");
        for (int night : order) {
            ChainFixtures.pass(routed.get(night), upsert);
            if (!inOneBatch) {
                upsert.run();
            }
        }
        if (inOneBatch) {
            upsert.run();
        }
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS);
        return DuckDb.query(
                "SET enable_geoparquet_conversion = false;"
                        + " SELECT parcel_id, land_use, area_m2, updated_at, md5(geometry), h3_cell"
                        + " FROM read_parquet(?, hive_partitioning = true) ORDER BY parcel_id",
                root + "/*/*.parquet");
    }

    /** Upsert with the nights' delete marker. */
    private static TestRunner upsert(Path root) throws Exception {
        TestRunner upsert = ChainFixtures.upsert(root, GeoParquetReader::new);
        upsert.setProperty(UpsertGeoParquetPartition.DELETE_MARKER, NightlyDelta.DELETE_MARKER);
        return upsert;
    }

    private Path copy(String name) throws Exception {
        Path to = dir.resolve(name);
        try (Stream<Path> paths = Files.walk(baseline)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(baseline.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
        return to;
    }

    private static String cellOf(ParcelArchives parcels, org.apache.parquet.example.data.Group row) {
        return parcels.archive
                .keyer()
                .cellOf(parcels.archive.geometryCodec().decode(row, 0), parcels.archive.sourceCrs());
    }
}
