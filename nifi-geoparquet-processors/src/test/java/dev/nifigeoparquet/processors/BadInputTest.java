package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.uber.h3core.H3Core;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.parquet.ArchiveCodecFactory;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ParquetSurgery;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.testing.JsonRecordReaderService;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.MockProcessSession;
import org.apache.nifi.util.TestRunner;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;
import org.locationtech.jts.io.WKTReader;

/**
 * Bad input at the processor that touches the archive: each delta goes to failure with an error.message naming the
 * record (or the file), its content kept byte for byte, and the archive unchanged, file for file. Inputs the keying
 * rule defines (an antimeridian-crossing feature, a polygon whose centroid lies outside it, a key twice in one delta)
 * are accepted and land deterministically.
 */
class BadInputTest {

    @TempDir
    Path dir;

    ParcelArchives parcels;
    Path root;
    String cell;
    Group template;
    Geometry templateGeometry;

    @BeforeEach
    void setUp() throws Exception {
        root = dir.resolve("archive");
        parcels = ParcelArchives.create(root, 200);
        cell = parcels.cellsBySize().get(0);
        template = parcels.initial.get(cell).get(0);
        templateGeometry = new WKBReader()
                .read(template.getBinary(SyntheticParcels.GEOMETRY, 0).getBytes());
    }

    /** A good record in the cell: a new key with the template's geometry. */
    private ObjectNode record(String id) {
        return ChainFixtures.JSON
                .createObjectNode()
                .put(SyntheticParcels.KEY, id)
                .put("land_use", "forest")
                .put("area_m2", 12.5)
                .put(SyntheticParcels.VERSION, "2026-03-01T00:00:00Z")
                .put(SyntheticParcels.GEOMETRY, templateGeometry.toText());
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    /** A little-endian WKB polygon with one ring, coordinates as given (NaN and infinities included). */
    private static byte[] wkbPolygon(double... xy) {
        ByteBuffer buffer = ByteBuffer.allocate(1 + 4 + 4 + 4 + 8 * xy.length).order(ByteOrder.LITTLE_ENDIAN);
        buffer.put((byte) 1).putInt(3).putInt(1).putInt(xy.length / 2);
        for (double value : xy) {
            buffer.putDouble(value);
        }
        return buffer.array();
    }

    @Test
    void everyBadRecordFailsItsDeltaNamingTheRecordAndLeavesTheArchiveUnchanged() throws Exception {
        byte[] valid = new WKBWriter().write(templateGeometry);
        Coordinate inside = templateGeometry.getInteriorPoint().getCoordinate();
        Map<String, ObjectNode> cases = new LinkedHashMap<>();
        cases.put("invalid WKB", record("x").put("geometry", "0103000000ffffffff00"));
        cases.put("truncated WKB", record("x").put("geometry", hex(Arrays.copyOf(valid, valid.length / 2))));
        cases.put("bad WKT", record("x").put("geometry", "POLYGON ((1 1, 2 2"));
        cases.put(
                "GeoJSON that is not a geometry",
                record("x").put("geometry", "{\"type\":\"Feature\",\"properties\":{}}"));
        cases.put("null geometry", record("x").putNull("geometry"));
        cases.put("empty geometry", record("x").put("geometry", "POLYGON EMPTY"));
        cases.put(
                "NaN coordinate",
                record("x")
                        .put(
                                "geometry",
                                hex(wkbPolygon(
                                        inside.x,
                                        inside.y,
                                        Double.NaN,
                                        inside.y,
                                        inside.x,
                                        inside.y + 0.001,
                                        inside.x,
                                        inside.y))));
        cases.put(
                "infinite coordinate",
                record("x")
                        .put(
                                "geometry",
                                hex(wkbPolygon(
                                        inside.x,
                                        inside.y,
                                        Double.POSITIVE_INFINITY,
                                        inside.y,
                                        inside.x,
                                        inside.y + 0.001,
                                        inside.x,
                                        inside.y))));
        cases.put("latitude beyond 90", record("x").put("geometry", "POLYGON ((10 95, 11 95, 11 96, 10 95))"));
        cases.put(
                "geometry type outside the canonical list",
                record("x").put("geometry", "POINT (" + inside.x + " " + inside.y + ")"));
        cases.put(
                "record outside the cell",
                record("x").put("geometry", "POLYGON ((-70 -40, -69.99 -40, -69.99 -39.99, -70 -40))"));
        ObjectNode missingKey = record("x");
        missingKey.remove(SyntheticParcels.KEY);
        cases.put("missing key", missingKey);
        cases.put("null key", record("x").putNull(SyntheticParcels.KEY));
        ObjectNode missingRequired = record("x");
        missingRequired.remove("area_m2");
        cases.put("missing non-nullable field", missingRequired);
        cases.put("extra field", record("x").put("colour", "red"));
        cases.put("unconvertible type", record("x").put("area_m2", "big"));

        Map<String, String> before = ParcelArchives.hashes(root);
        TestRunner upsert = ChainFixtures.upsert(root, JsonRecordReaderService::new);
        Map<String, byte[]> inputs = new HashMap<>();
        for (Map.Entry<String, ObjectNode> bad : cases.entrySet()) {
            ArrayNode delta = ChainFixtures.JSON.createArrayNode();
            delta.add(record("good-" + inputs.size()));
            delta.add(bad.getValue());
            byte[] content = ChainFixtures.JSON.writeValueAsBytes(delta);
            inputs.put(bad.getKey(), content);
            upsert.enqueue(content, Map.of("h3.cell", cell, "case", bad.getKey()));
        }
        upsert.run();

        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_FAILURE, cases.size());
        List<String> report = new ArrayList<>();
        for (MockFlowFile failed : upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE)) {
            String name = failed.getAttribute("case");
            String message = failed.getAttribute("error.message");
            // An extra field is part of the records' schema, so the first record already carries it (as null).
            String names = name.equals("extra field") ? "field 'colour'" : "record 1";
            assertTrue(message.contains(names), name + ": the error names the record or field: " + message);
            assertArrayEquals(inputs.get(name), failed.toByteArray(), name + ": the input is kept as it came");
            report.add(name + " -> " + message);
        }
        assertEquals(before, ParcelArchives.hashes(root), "not one file of the archive changed");
        System.out.println("bad records: " + cases.size() + " deltas routed to failure, archive unchanged:");
        report.forEach(line -> System.out.println("  " + line));
    }

    @Test
    void badParquetDeltasFailNamingTheFileAndADeltaInAnotherCrsIsRefused() throws Exception {
        List<MockFlowFile> routed = routedGeoParquet();
        MockFlowFile good = routed.get(0);
        byte[] content = good.toByteArray();
        Map<String, byte[]> cases = new LinkedHashMap<>();
        cases.put("truncated.parquet", Arrays.copyOf(content, content.length / 2));
        byte[] corrupt = content.clone();
        for (int i = 64; i < Math.min(corrupt.length - 16, 400); i++) {
            corrupt[i] = (byte) 0xA5;
        }
        cases.put("corrupt-pages.parquet", corrupt);
        byte[] hugeFooter = content.clone();
        ByteBuffer.wrap(hugeFooter, hugeFooter.length - 8, 4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(Integer.MAX_VALUE - 8);
        cases.put("declares-a-2GB-footer.parquet", hugeFooter);
        cases.put("web-mercator.parquet", Files.readAllBytes(webMercatorDelta(dir.resolve("web-mercator.parquet"))));
        // Sizes a blind allocation would not survive (-Xmx1g, or -Xmx256m in the heavy profile); see DeclaredSizesTest.
        cases.put(
                "page-declares-2GB.parquet",
                ParquetSurgery.withLastChunkPageHeader(
                        content, page -> page.setCompressed_page_size(Integer.MAX_VALUE - 64)));
        cases.put(
                "page-declares-256MB-uncompressed.parquet",
                ParquetSurgery.withLastChunkPageHeader(
                        content,
                        page -> page.setUncompressed_page_size(ArchiveCodecFactory.DEFAULT_MAX_PAGE_BYTES - 1)));
        cases.put(
                "column-chunk-beyond-the-file.parquet",
                ParquetSurgery.withFooter(
                        content,
                        footer -> footer.getRow_groups().get(0).getColumns().forEach(chunk -> {
                            chunk.getMeta_data().unsetDictionary_page_offset();
                            chunk.getMeta_data().setData_page_offset(1L << 40);
                        })));
        cases.put(
                "row-group-declares-2^40-rows.parquet",
                ParquetSurgery.withFooter(
                        content, footer -> footer.getRow_groups().get(0).setNum_rows(1L << 40)));

        Map<String, String> before = ParcelArchives.hashes(root);
        TestRunner upsert = ChainFixtures.upsert(root, GeoParquetReader::new);
        for (Map.Entry<String, byte[]> bad : cases.entrySet()) {
            Map<String, String> attributes = new HashMap<>(good.getAttributes());
            attributes.put("filename", bad.getKey());
            upsert.enqueue(bad.getValue(), attributes);
        }
        upsert.run();
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_FAILURE, cases.size());
        for (MockFlowFile failed : upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE)) {
            String name = failed.getAttribute("filename");
            String message = failed.getAttribute("error.message");
            assertTrue(message.contains(name), name + ": the error names the file: " + message);
            assertArrayEquals(cases.get(name), failed.toByteArray(), name + ": the input is kept");
            System.out.println("bad Parquet delta " + name + " -> " + message);
        }
        String crsMessage = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE).stream()
                .filter(f -> f.getAttribute("filename").equals("web-mercator.parquet"))
                .findFirst()
                .orElseThrow()
                .getAttribute("error.message");
        assertTrue(crsMessage.contains("EPSG:3857") && crsMessage.contains("OGC:CRS84"), crsMessage);
        assertTrue(crsMessage.contains("RouteByH3Cell with the delta's CRS as its Source CRS"), crsMessage);
        assertEquals(before, ParcelArchives.hashes(root), "not one file of the archive changed");

        // RouteByH3Cell refuses it too when its Source CRS says otherwise, keeping the input.
        TestRunner route = ChainFixtures.route(root, true);
        byte[] mercator = cases.get("web-mercator.parquet");
        route.enqueue(mercator, Map.of("filename", "web-mercator.parquet"));
        route.run();
        route.assertAllFlowFilesTransferred(RouteByH3Cell.REL_FAILURE, 1);
        MockFlowFile refused =
                route.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE).get(0);
        assertTrue(refused.getAttribute("error.message").contains("EPSG:3857"), refused.getAttribute("error.message"));
        assertArrayEquals(mercator, refused.toByteArray());
    }

    @Test
    void featuresTheKeyingRuleDefinesAreAcceptedAndLandDeterministically() throws Exception {
        GeometryFactory factory = new GeometryFactory();
        // Crosses the antimeridian: keyed by the centroid of its unwrapped longitudes, (180, 10.05), not by the planar
        // centroid of its stored coordinates near longitude 0.
        Polygon antimeridian = factory.createPolygon(new Coordinate[] {
            new Coordinate(179.9, 10),
            new Coordinate(-179.9, 10),
            new Coordinate(-179.9, 10.1),
            new Coordinate(179.9, 10.1),
            new Coordinate(179.9, 10)
        });
        // A U shape whose centroid lies in the notch, outside the polygon.
        Polygon horseshoe = (Polygon) new WKTReader()
                .read("POLYGON ((13 52, 13.3 52, 13.3 52.3, 13.2 52.3, 13.2 52.05, 13.1 52.05,"
                        + " 13.1 52.3, 13 52.3, 13 52))");
        assertTrue(!horseshoe.contains(horseshoe.getCentroid()), "the centroid lies outside the polygon");
        H3Core h3 = H3Core.newInstance();
        Map<String, String> expected = new LinkedHashMap<>();
        ArrayNode delta = ChainFixtures.JSON.createArrayNode();
        for (Map.Entry<String, Polygon> feature :
                Map.of("antimeridian", antimeridian, "horseshoe", horseshoe).entrySet()) {
            Coordinate centroid = feature.getKey().equals("antimeridian")
                    ? new Coordinate(180, 10.05)
                    : feature.getValue().getCentroid().getCoordinate();
            expected.put(feature.getKey(), h3.latLngToCellAddress(centroid.y, centroid.x, ParcelArchives.RESOLUTION));
            delta.add(record(feature.getKey())
                    .put("geometry", feature.getValue().toText())
                    .put("wkt", feature.getValue().toText()));
        }
        // The same key twice in one delta: the later record wins.
        delta.add(record("twice").put("area_m2", 1.0).put("wkt", templateGeometry.toText()));
        delta.add(record("twice").put("area_m2", 2.0).put("wkt", templateGeometry.toText()));
        expected.put("twice", cell);
        for (JsonNode node : delta) {
            ((ObjectNode) node).remove("geometry");
        }

        List<String> routedTwice = new ArrayList<>();
        List<MockFlowFile> cells = null;
        for (int run = 0; run < 2; run++) {
            TestRunner route = ChainFixtures.route(root, false);
            route.enqueue(ChainFixtures.JSON.writeValueAsBytes(delta));
            route.run();
            cells = route.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS);
            cells.forEach(f -> routedTwice.add(f.getAttribute("h3.cell") + "/" + f.getContent()));
        }
        assertEquals(
                routedTwice.subList(0, routedTwice.size() / 2),
                routedTwice.subList(routedTwice.size() / 2, routedTwice.size()),
                "routing the same input twice gives the same cells and contents");
        TestRunner upsert = ChainFixtures.upsert(root, JsonRecordReaderService::new);
        for (MockFlowFile routed : cells) {
            upsert.enqueue(routed.toByteArray(), routed.getAttributes());
        }
        upsert.run();
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS, cells.size());
        Map<String, String> landed = new LinkedHashMap<>();
        for (List<Object> row : DuckDb.query(
                "SELECT parcel_id, h3_cell, area_m2 FROM read_parquet(?, hive_partitioning = true) WHERE parcel_id IN ('antimeridian', 'horseshoe', 'twice')",
                root + "/*/*.parquet")) {
            landed.put((String) row.get(0), (String) row.get(1));
            if ("twice".equals(row.get(0))) {
                assertEquals(2.0, ((Number) row.get(2)).doubleValue(), "the later of two records with one key wins");
            }
        }
        assertEquals(
                new TreeMap<>(expected),
                new TreeMap<>(landed),
                "each feature lies in the cell of its keying centroid, computed independently with H3");
    }

    @Test
    void aCrashBetweenTheEngineCommitAndTheSessionCommitThenRedeliveryAndAReplayAreNoOps() throws Exception {
        List<MockFlowFile> routed = routedGeoParquet();
        MockFlowFile cellDelta = routed.get(0);
        TestRunner upsert = ChainFixtures.upsert(root, GeoParquetReader::new);
        upsert.run(1, false, true); // schedules the processor; nothing queued yet
        upsert.enqueue(cellDelta.toByteArray(), cellDelta.getAttributes());

        // The engine commits, then the node dies before NiFi commits the session: the session rolls back and the
        // FlowFile goes back to the queue, unchanged, as NiFi's repository restores it after a restart.
        MockProcessSession session =
                (MockProcessSession) upsert.getProcessSessionFactory().createSession();
        ((UpsertGeoParquetPartition) upsert.getProcessor()).onTrigger(upsert.getProcessContext(), session);
        session.rollback();
        Map<String, String> committed = ParcelArchives.hashes(root);
        long rows = parcels.duckDbCount();
        assertEquals(1, upsert.getQueueSize().getObjectCount(), "the FlowFile is back in the queue");

        // Redelivery of the same FlowFile, then a provenance replay: a new FlowFile (new UUID), same content.
        Map<String, String> replayed = new HashMap<>(cellDelta.getAttributes());
        replayed.put("uuid", UUID.randomUUID().toString());
        upsert.enqueue(cellDelta.toByteArray(), replayed);
        upsert.run(1, true, false);
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS, 2);
        for (MockFlowFile done : upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS)) {
            done.assertAttributeEquals("geoparquet.replay", "true");
            done.assertAttributeEquals("geoparquet.files.written", "0");
        }
        assertEquals(committed, ParcelArchives.hashes(root), "neither the redelivery nor the replay wrote anything");
        assertEquals(rows, parcels.duckDbCount());
    }

    private List<MockFlowFile> routedGeoParquet() throws Exception {
        Path delta = ChainFixtures.geoParquetDelta(dir.resolve("delta.parquet"), ChainFixtures.delta(parcels));
        return ChainFixtures.routeGeoParquet(root, delta);
    }

    /** The template row in a GeoParquet file whose geo block says EPSG:3857 (the coordinates are not converted). */
    private Path webMercatorDelta(Path file) throws Exception {
        var crs = ChainFixtures.JSON.readTree("{\"type\":\"ProjectedCRS\",\"name\":\"WGS 84 / Pseudo-Mercator\","
                + "\"id\":{\"authority\":\"EPSG\",\"code\":3857}}");
        GeoMetadata geo = GeoMetadata.builder()
                .wkbColumn(SyntheticParcels.GEOMETRY, List.of("Polygon"), crs, null)
                .build();
        ArchiveFixtures.writeFile(
                file,
                SyntheticParcels.schema(),
                FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, geo.rawString())),
                List.of(template));
        return file;
    }
}
