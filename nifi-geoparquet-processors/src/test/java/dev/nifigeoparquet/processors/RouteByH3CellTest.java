package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.cells.CrsReprojector;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.processors.geometry.GeometryFormat;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetRecordSetWriter;
import dev.nifigeoparquet.processors.geoparquet.SchemaSource;
import dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService;
import dev.nifigeoparquet.processors.testing.JsonRecordReaderService;
import dev.nifigeoparquet.processors.testing.JsonRecordWriterService;
import dev.nifigeoparquet.processors.testing.TestArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.nifi.components.ConfigVerificationResult;
import org.apache.nifi.components.ConfigVerificationResult.Outcome;
import org.apache.nifi.provenance.ProvenanceEventType;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.apache.nifi.util.TestRunners;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKTReader;

class RouteByH3CellTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final int RESOLUTION = 7;
    static final String BERLIN_WKT = "POLYGON ((13.30 52.45, 13.50 52.45, 13.50 52.58, 13.30 52.58, 13.30 52.45))";

    @TempDir
    Path dir;

    TestRunner runner;
    StandardGeoParquetArchiveService archive;
    JsonRecordWriterService writer;

    @BeforeEach
    void setUp() throws Exception {
        runner = newRunner(dir);
        archive = (StandardGeoParquetArchiveService)
                runner.getProcessContext().getControllerServiceLookup().getControllerService("archive");
        writer = writerOf(runner);
    }

    /**
     * A runner with JSON reader and writer and an enabled archive service for a new archive of resolution
     * {@value #RESOLUTION} under {@code dir}.
     */
    static TestRunner newRunner(Path dir) throws Exception {
        Path root = dir.resolve("archive");
        TestArchives.create(root, RESOLUTION);
        TestRunner runner = TestRunners.newTestRunner(RouteByH3Cell.class);
        JsonRecordReaderService reader = new JsonRecordReaderService();
        JsonRecordWriterService writer = new JsonRecordWriterService();
        StandardGeoParquetArchiveService archive = new StandardGeoParquetArchiveService();
        runner.addControllerService("reader", reader);
        runner.addControllerService("writer", writer);
        runner.addControllerService("archive", archive);
        runner.setProperty(archive, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.enableControllerService(reader);
        runner.enableControllerService(writer);
        runner.enableControllerService(archive);
        runner.setProperty(RouteByH3Cell.RECORD_READER, "reader");
        runner.setProperty(RouteByH3Cell.RECORD_WRITER, "writer");
        runner.setProperty(RouteByH3Cell.ARCHIVE_SERVICE, "archive");
        return runner;
    }

    /** The runner's JSON Record Writer, which remembers what it was given. */
    static JsonRecordWriterService writerOf(TestRunner runner) {
        return (JsonRecordWriterService)
                runner.getProcessContext().getControllerServiceLookup().getControllerService("writer");
    }

    @Test
    void theSameFeatureIsKeyedIdenticallyWhicheverEncodingCarriesIt() throws Exception {
        Geometry berlin = new WKTReader().read(BERLIN_WKT);
        String expectedCell = archive.keyer().cellOf(berlin, archive.crs());
        String expectedWkb = HexFormat.of().formatHex(Wkb.write(berlin));

        Map<String, MockFlowFile> byEncoding = new HashMap<>();
        byEncoding.put(
                "WKT",
                routeOne(
                        GeometryFormat.WKT,
                        "wkt",
                        JSON.createObjectNode().put("id", "b").put("wkt", BERLIN_WKT)));
        byEncoding.put(
                "GeoJSON string",
                routeOne(
                        GeometryFormat.GEOJSON,
                        "shape",
                        JSON.createObjectNode()
                                .put("id", "b")
                                .put("shape", geoJson(berlin).toString())));
        ObjectNode nested = JSON.createObjectNode().put("id", "b");
        nested.set("shape", geoJson(berlin));
        byEncoding.put("GeoJSON record", routeOne(GeometryFormat.GEOJSON, "shape", nested));
        byEncoding.put(
                "WKB",
                routeOne(
                        GeometryFormat.WKB,
                        "geometry",
                        JSON.createObjectNode().put("id", "b").put("geometry", expectedWkb)));

        for (Map.Entry<String, MockFlowFile> entry : byEncoding.entrySet()) {
            MockFlowFile cell = entry.getValue();
            assertEquals(expectedCell, cell.getAttribute("h3.cell"), entry.getKey());
            assertEquals(String.valueOf(RESOLUTION), cell.getAttribute("h3.resolution"));
            JsonNode record = JSON.readTree(cell.getContent()).get(0);
            assertEquals(
                    expectedWkb,
                    record.get("geometry").asText(),
                    entry.getKey() + ": WKB in the archive's geometry column");
            assertEquals("b", record.get("id").asText());
            assertFalse(record.has("wkt") || record.has("shape"), entry.getKey() + ": the source field is replaced");
        }
        // Identical output content, whatever encoding the feature arrived in: one delta to the archive.
        assertEquals(
                1,
                byEncoding.values().stream()
                        .map(MockFlowFile::getContent)
                        .distinct()
                        .count());
    }

    @Test
    void theGeometryFieldIsARecordPath() throws Exception {
        MockFlowFile topLevel = routeOne(
                GeometryFormat.WKT,
                "wkt",
                JSON.createObjectNode().put("id", "n").put("wkt", BERLIN_WKT));
        ObjectNode nested = JSON.createObjectNode().put("id", "n");
        nested.putObject("location").put("wkt", BERLIN_WKT);
        MockFlowFile child = routeOne(GeometryFormat.WKT, "/location/wkt", nested);
        ObjectNode listed = JSON.createObjectNode().put("id", "n");
        listed.putArray("shapes").add(BERLIN_WKT).add("POINT (0 0)");
        MockFlowFile indexed = routeOne(GeometryFormat.WKT, "/shapes[0]", listed);
        assertEquals(topLevel.getAttribute("h3.cell"), child.getAttribute("h3.cell"));
        assertEquals(
                topLevel.getAttribute("h3.cell"),
                indexed.getAttribute("h3.cell"),
                "an array element selected by index");

        runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, "/shapes[");
        runner.assertNotValid();
    }

    @Test
    void longitudeAndLatitudeFieldsKeyLikeTheSamePointInWkt() throws Exception {
        MockFlowFile fromWkt = routeOne(
                GeometryFormat.WKT,
                "wkt",
                JSON.createObjectNode().put("id", "p").put("wkt", "POINT (2.35 48.86)"));
        runner.setProperty(RouteByH3Cell.LONGITUDE_FIELD, "lon");
        runner.setProperty(RouteByH3Cell.LATITUDE_FIELD, "lat");
        MockFlowFile fromLonLat = routeOne(
                GeometryFormat.LON_LAT,
                null,
                JSON.createObjectNode().put("id", "p").put("lon", 2.35).put("lat", 48.86));
        assertEquals(fromWkt.getAttribute("h3.cell"), fromLonLat.getAttribute("h3.cell"));
        JsonNode record = JSON.readTree(fromLonLat.getContent()).get(0);
        assertEquals(JSON.readTree(fromWkt.getContent()).get(0).get("geometry"), record.get("geometry"));
        assertEquals(2.35, record.get("lon").asDouble(), 0.0, "coordinate fields are kept");
    }

    /** Features in OGC:CRS84, as WKT. */
    private static final List<String> WORLD_FEATURES = List.of(
            BERLIN_WKT,
            "POINT (-122.42 37.77)",
            "POINT (151.21 -33.87)",
            "LINESTRING (-0.13 51.5, 2.35 48.86)",
            "POINT (0.0001 0.0001)");

    /** {@link #WORLD_FEATURES} as records {@code {"id": "f<index>", "wkt": ...}}, in {@code crs}. */
    private static ArrayNode worldFeaturesIn(SourceCrs crs) throws Exception {
        CrsReprojector reprojector = new CrsReprojector();
        WKTReader wkt = new WKTReader();
        ArrayNode records = JSON.createArrayNode();
        for (int i = 0; i < WORLD_FEATURES.size(); i++) {
            Geometry geometry = reprojector.reproject(wkt.read(WORLD_FEATURES.get(i)), SourceCrs.CRS84, crs);
            records.add(JSON.createObjectNode().put("id", "f" + i).put("wkt", geometry.toText()));
        }
        return records;
    }

    @Test
    void aWebMercatorDeltaRoutesToTheSameCellsAndLeavesInTheArchivesCrs() throws Exception {
        WKTReader wkt = new WKTReader();
        List<String> features = WORLD_FEATURES;
        ArrayNode lonLat = worldFeaturesIn(SourceCrs.CRS84);
        ArrayNode projected = worldFeaturesIn(SourceCrs.declared("EPSG:3857"));
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.WKT);
        runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, "wkt");
        Map<String, String> cellsIn4326 = cellsById(route(lonLat));
        runner.setProperty(RouteByH3Cell.SOURCE_CRS, "EPSG:3857");
        List<MockFlowFile> fromMercator = route(projected);
        assertEquals(cellsIn4326, cellsById(fromMercator));

        WKBReader wkb = new WKBReader();
        for (MockFlowFile flowFile : fromMercator) {
            for (JsonNode record : JSON.readTree(flowFile.getContent())) {
                Geometry out =
                        wkb.read(HexFormat.of().parseHex(record.get("geometry").asText()));
                Geometry expected = wkt.read(
                        features.get(Integer.parseInt(record.get("id").asText().substring(1))));
                assertTrue(out.equalsExact(expected, 1e-7), "left in OGC:CRS84: " + out + " vs " + expected);
            }
        }
    }

    /**
     * The GeoParquet writer is handed each geometry as keyed, in the archive's CRS, for its covering bbox: a geometry
     * in the Source CRS would give each row a box in metres.
     */
    @Test
    void aWebMercatorDeltaWrittenAsGeoParquetGetsEachGeometrysBboxInTheArchivesCrs() throws Exception {
        GeoParquetRecordSetWriter geoParquet = new GeoParquetRecordSetWriter();
        runner.addControllerService("geoparquet", geoParquet);
        runner.setProperty(geoParquet, GeoParquetRecordSetWriter.SCHEMA_SOURCE, SchemaSource.RECORD_SCHEMA.getValue());
        runner.setProperty(
                geoParquet,
                GeoParquetRecordSetWriter.GEO_METADATA,
                GeoMetadata.builder()
                        .wkbColumn("geometry", List.of(), null, "bbox")
                        .build()
                        .rawString());
        runner.enableControllerService(geoParquet);
        runner.setProperty(RouteByH3Cell.RECORD_WRITER, "geoparquet");
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.WKT);
        runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, "wkt");
        runner.setProperty(RouteByH3Cell.SOURCE_CRS, "EPSG:3857");

        List<MockFlowFile> routed = route(worldFeaturesIn(SourceCrs.declared("EPSG:3857")));

        WKBReader wkb = new WKBReader();
        int rows = 0;
        for (MockFlowFile flowFile : routed) {
            Path file = Files.write(dir.resolve(flowFile.getAttribute("uuid") + ".parquet"), flowFile.toByteArray());
            for (List<Object> row : DuckDb.query(
                    "SELECT geometry, bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax FROM read_parquet(?)",
                    file.toString())) {
                Envelope envelope = wkb.read((byte[]) row.get(0)).getEnvelopeInternal();
                assertEquals(
                        List.of(envelope.getMinX(), envelope.getMinY(), envelope.getMaxX(), envelope.getMaxY()),
                        row.subList(1, 5));
                assertTrue(envelope.getMaxX() <= 180 && envelope.getMinY() >= -90, "in OGC:CRS84: " + envelope);
                rows++;
            }
        }
        assertEquals(WORLD_FEATURES.size(), rows);
    }

    @Test
    void recordsThatCannotBeKeyedGoTogetherToFailureWithTheirReasons() throws Exception {
        ArrayNode input = JSON.createArrayNode();
        input.add(JSON.createObjectNode().put("id", "good-1").put("wkt", "POINT (13.4 52.5)"));
        input.add(JSON.createObjectNode().put("id", "missing").putNull("wkt"));
        input.add(JSON.createObjectNode().put("id", "empty").put("wkt", "POINT EMPTY"));
        input.add(JSON.createObjectNode().put("id", "garbage").put("wkt", "POINT (13.4"));
        input.add(JSON.createObjectNode().put("id", "good-2").put("wkt", "POINT (-74.0 40.7)"));
        input.add(JSON.createObjectNode().put("id", "polar").put("wkt", "POINT (10 95)"));
        input.add(JSON.createObjectNode().put("id", "east").put("wkt", "POINT (190 10)"));
        input.add(JSON.createObjectNode().put("id", "good-3").put("wkt", "POINT (13.4001 52.5001)"));
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.WKT);
        runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, "wkt");
        runner.enqueue(input.toString());
        runner.run();

        List<MockFlowFile> success = runner.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS);
        runner.assertTransferCount(RouteByH3Cell.REL_FAILURE, 1);
        runner.assertTransferCount(RouteByH3Cell.REL_ORIGINAL, 1);
        MockFlowFile failure =
                runner.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE).get(0);

        long routed = success.stream()
                .mapToLong(f -> Long.parseLong(f.getAttribute("record.count")))
                .sum();
        long failed = Long.parseLong(failure.getAttribute("record.count"));
        assertEquals(3, routed);
        assertEquals(5, failed);
        assertEquals(input.size(), routed + failed, "success and failure records add up to the input");
        assertTrue(
                failure.getAttribute("error.message").startsWith("5 of 8 records could not be keyed"),
                failure.getAttribute("error.message"));

        Map<String, String> reasons = new HashMap<>();
        for (JsonNode record : JSON.readTree(failure.getContent())) {
            reasons.put(
                    record.get("id").asText(),
                    record.get(RouteByH3Cell.KEYING_ERROR_FIELD).asText());
            assertTrue(record.has("wkt"), "failed records keep their original fields");
        }
        assertTrue(reasons.get("missing").startsWith("MISSING_GEOMETRY"), reasons.toString());
        assertTrue(reasons.get("empty").startsWith("EMPTY_GEOMETRY"), reasons.toString());
        assertTrue(reasons.get("garbage").startsWith("INVALID_GEOMETRY"), reasons.toString());
        assertTrue(reasons.get("polar").startsWith("LATITUDE_OUT_OF_RANGE"), reasons.toString());
        assertTrue(reasons.get("east").startsWith("LONGITUDE_OUT_OF_RANGE"), reasons.toString());

        Set<String> ids = new HashSet<>(reasons.keySet());
        for (MockFlowFile flowFile : success) {
            JSON.readTree(flowFile.getContent())
                    .forEach(record -> assertTrue(ids.add(record.get("id").asText()), "each record once"));
        }
        assertEquals(input.size(), ids.size(), "nothing dropped");
        assertEquals(3L, runner.getCounterValue(RouteByH3Cell.COUNTER_RECORDS_ROUTED));
        assertEquals(5L, runner.getCounterValue(RouteByH3Cell.COUNTER_RECORDS_FAILED));
        assertEquals((long) success.size(), runner.getCounterValue(RouteByH3Cell.COUNTER_CELLS_TOUCHED));
    }

    @Test
    void aLargeInputKeepsEachCellsRecordOrderAndItsFailuresAcrossTheKeyingThreadsBlocks() throws Exception {
        // Far more records than the blocks keyed ahead (1,024 each), spread over 4 cities, every 97th unkeyable.
        double[][] cities = {{13.4, 52.5}, {-74.0, 40.7}, {2.35, 48.85}, {139.7, 35.7}};
        int records = 9_000;
        ArrayNode input = JSON.createArrayNode();
        int unkeyable = 0;
        for (int i = 0; i < records; i++) {
            double[] city = cities[(i * 7 + i / 13) % cities.length];
            ObjectNode record = JSON.createObjectNode().put("id", "r" + i).put("seq", i);
            if (i % 97 == 0) {
                record.put("wkt", "POINT (13.4");
                unkeyable++;
            } else {
                record.put("wkt", "POINT (" + city[0] + " " + city[1] + ")");
            }
            input.add(record);
        }
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.WKT);
        runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, "wkt");
        runner.setThreadCount(2);
        runner.enqueue(input.toString());
        runner.run(1, false);
        assertTrue(keyingThreads() > 0, "the records were keyed on the processor's keying threads");
        runner.stop();

        runner.assertTransferCount(RouteByH3Cell.REL_SUCCESS, cities.length);
        runner.assertTransferCount(RouteByH3Cell.REL_FAILURE, 1);
        long routed = 0;
        for (MockFlowFile cell : runner.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS)) {
            int previous = -1;
            for (JsonNode record : JSON.readTree(cell.getContent())) {
                int seq = record.get("seq").asInt();
                assertTrue(
                        seq > previous,
                        "records leave in input order within their cell: " + seq + " after " + previous);
                assertTrue(seq % 97 != 0, "an unkeyable record was routed: " + seq);
                previous = seq;
                routed++;
            }
            assertEquals(
                    Long.parseLong(cell.getAttribute("record.count")),
                    JSON.readTree(cell.getContent()).size());
        }
        assertEquals(records - unkeyable, routed);
        MockFlowFile failure =
                runner.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE).get(0);
        assertEquals(String.valueOf(unkeyable), failure.getAttribute("record.count"));
        assertTrue(
                failure.getAttribute("error.message")
                        .startsWith(unkeyable + " of " + records
                                + " records could not be keyed, by reason {INVALID_GEOMETRY=" + unkeyable + "}"),
                failure.getAttribute("error.message"));

        // Once the processor has stopped, its keying threads end: each is given two seconds to, and none runs on.
        for (Thread thread : keyingThreadList()) {
            thread.join(Duration.ofSeconds(2));
        }
        assertEquals(0, keyingThreads(), "keying threads left after the processor stopped");
    }

    private static long keyingThreads() {
        return keyingThreadList().size();
    }

    private static List<Thread> keyingThreadList() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("RouteByH3Cell[") && thread.isAlive())
                .toList();
    }

    @Test
    void nonFiniteCoordinatesAreRefusedWithTheirReason() throws Exception {
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.LON_LAT);
        ArrayNode input = JSON.createArrayNode();
        input.add(
                JSON.createObjectNode().put("id", "nan").put("longitude", "NaN").put("latitude", 10.0));
        input.add(JSON.createObjectNode()
                .put("id", "text")
                .put("longitude", "east")
                .put("latitude", 10.0));
        input.add(JSON.createObjectNode().put("id", "ok").put("longitude", 10.0).put("latitude", 10.0));
        runner.enqueue(input.toString());
        runner.run();
        runner.assertTransferCount(RouteByH3Cell.REL_SUCCESS, 1);
        JsonNode failed = JSON.readTree(runner.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE)
                .get(0)
                .getContent());
        assertTrue(
                failed.get(0).get(RouteByH3Cell.KEYING_ERROR_FIELD).asText().startsWith("NON_FINITE_COORDINATE"),
                failed.toString());
        assertTrue(
                failed.get(1).get(RouteByH3Cell.KEYING_ERROR_FIELD).asText().startsWith("INVALID_GEOMETRY"),
                failed.toString());
    }

    @Test
    void everyCellFlowFileCarriesItsAttributesAndAContentDerivedDeltaId() throws Exception {
        ArrayNode input = JSON.createArrayNode();
        input.add(JSON.createObjectNode().put("id", "a").put("wkt", "POINT (13.4 52.5)"));
        input.add(JSON.createObjectNode().put("id", "b").put("wkt", "POINT (-74.0 40.7)"));
        input.add(JSON.createObjectNode().put("id", "c").put("wkt", "POINT (13.4 52.5)"));
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.WKT);
        runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, "wkt");
        List<MockFlowFile> first = route(input);
        assertEquals(2, first.size());
        Set<String> fragmentIds = new HashSet<>();
        Set<String> indexes = new HashSet<>();
        for (MockFlowFile flowFile : first) {
            flowFile.assertAttributeEquals("fragment.count", "2");
            flowFile.assertAttributeEquals("mime.type", "application/json");
            fragmentIds.add(flowFile.getAttribute("fragment.identifier"));
            indexes.add(flowFile.getAttribute("fragment.index"));
            assertNull(flowFile.getAttribute("delta.id"), "the archive derives a delta's id from its records");
        }
        assertEquals(1, fragmentIds.size());
        assertEquals(Set.of("0", "1"), indexes);
        assertNotNull(first.stream()
                .filter(f -> f.getAttribute("record.count").equals("2"))
                .findFirst()
                .orElse(null));
        assertTrue(runner.getProvenanceEvents().stream().anyMatch(e -> e.getEventType() == ProvenanceEventType.FORK));

        List<MockFlowFile> again = route(input);
        assertEquals(contents(first), contents(again), "a redelivered delta is routed to the same contents");
    }

    @Test
    void anUnreadableInputGoesToFailureUnchanged() {
        runner.enqueue("this is not JSON");
        runner.run();
        runner.assertAllFlowFilesTransferred(RouteByH3Cell.REL_FAILURE, 1);
        MockFlowFile failed =
                runner.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE).get(0);
        failed.assertContentEquals("this is not JSON");
        assertNotNull(failed.getAttribute("error.message"));
    }

    @Test
    void theResolutionComesFromTheArchiveAndMayNotBeSetBesideIt() {
        runner.assertValid();
        runner.setProperty(RouteByH3Cell.H3_RESOLUTION, "9");
        runner.assertNotValid();
        runner.removeProperty(RouteByH3Cell.ARCHIVE_SERVICE);
        runner.assertValid();
        runner.removeProperty(RouteByH3Cell.H3_RESOLUTION);
        runner.assertNotValid();
    }

    @Test
    void aBadSourceCrsIsExplainedAndAGoodOneVerified() {
        runner.setProperty(RouteByH3Cell.SOURCE_CRS, "EPSG:99999999");
        runner.assertNotValid();
        runner.setProperty(RouteByH3Cell.SOURCE_CRS, "EPSG:3857");
        runner.assertValid();
        List<ConfigVerificationResult> results = ((RouteByH3Cell) runner.getProcessor())
                .verify(runner.getProcessContext(), runner.getLogger(), Map.of());
        assertTrue(results.stream().allMatch(r -> r.getOutcome() == Outcome.SUCCESSFUL), results.toString());
        assertTrue(
                results.toString().contains("EPSG:3857") && results.toString().contains("OGC:CRS84"),
                results.toString());
    }

    private MockFlowFile routeOne(GeometryFormat format, String field, ObjectNode record) {
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, format);
        if (field != null) {
            runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, field);
        }
        List<MockFlowFile> out = route(JSON.createArrayNode().add(record));
        assertEquals(1, out.size());
        return out.get(0);
    }

    private List<MockFlowFile> route(ArrayNode records) {
        runner.clearTransferState();
        runner.enqueue(records.toString());
        runner.run();
        runner.assertTransferCount(RouteByH3Cell.REL_FAILURE, 0);
        runner.assertTransferCount(RouteByH3Cell.REL_ORIGINAL, 1);
        return new ArrayList<>(runner.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS));
    }

    private static Map<String, String> cellsById(List<MockFlowFile> flowFiles) throws Exception {
        Map<String, String> cells = new HashMap<>();
        for (MockFlowFile flowFile : flowFiles) {
            for (JsonNode record : JSON.readTree(flowFile.getContent())) {
                cells.put(record.get("id").asText(), flowFile.getAttribute("h3.cell"));
            }
        }
        return cells;
    }

    private static Set<String> contents(List<MockFlowFile> flowFiles) {
        Set<String> contents = new HashSet<>();
        flowFiles.forEach(f -> contents.add(f.getAttribute("h3.cell") + "/" + f.getContent()));
        return contents;
    }

    private static ObjectNode geoJson(Geometry polygon) {
        ObjectNode node = JSON.createObjectNode().put("type", "Polygon");
        ArrayNode ring = node.putArray("coordinates").addArray();
        for (var c : polygon.getCoordinates()) {
            ring.addArray().add(c.x).add(c.y);
        }
        return node;
    }
}
