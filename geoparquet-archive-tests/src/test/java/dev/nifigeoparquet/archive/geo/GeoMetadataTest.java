package dev.nifigeoparquet.archive.geo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.testing.GeoSchema;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeoMetadataTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void everyPeerGeoBlockValidatesAgainstItsOfficialSchema() throws Exception {
        int checked = 0;
        for (String file : PeerData.parquetFiles()) {
            String geo = ParquetRows.read(PeerData.copy(file, dir.resolve(file.replace('/', '_'))))
                    .footer()
                    .keyValues()
                    .get(FooterEntries.GEO);
            if (geo == null) {
                continue; // the native Parquet GEOMETRY files carry no GeoParquet metadata
            }
            GeoMetadata parsed = GeoMetadata.parse(geo);
            assertEquals(List.of(), GeoSchema.errors(parsed.version(), JSON.readTree(geo)), file);
            checked++;
        }
        assertEquals(14, checked, "peer files with geo metadata");
    }

    @Test
    void theValidatorRejectsBadBlocksIncludingBadProjjsonBehindTheOfflineRef() throws Exception {
        JsonNode badEncoding = JSON.readTree("""
                {"version": "1.1.0", "primary_column": "g", "columns": {"g": {"encoding": "GeoJSON", "geometry_types": []}}}""");
        assertFalse(GeoSchema.errors("1.1.0", badEncoding).isEmpty());

        JsonNode badCrs = JSON.readTree("""
                {"version": "1.1.0", "primary_column": "g",
                 "columns": {"g": {"encoding": "WKB", "geometry_types": [], "crs": {"type": "NoSuchCRS"}}}}""");
        assertFalse(GeoSchema.errors("1.1.0", badCrs).isEmpty(), "PROJJSON schema must be resolved and applied");
    }

    @Test
    void builtBlocksValidateAgainstTheOfficialSchema() throws Exception {
        JsonNode crs84 = peerCrs();
        List<GeoMetadata> built = List.of(
                GeoMetadata.builder()
                        .wkbColumn("geometry", List.of(), null, null)
                        .build(),
                GeoMetadata.builder()
                        .wkbColumn("geometry", List.of("Polygon", "MultiPolygon"), crs84, "bbox")
                        .build(),
                GeoMetadata.builder()
                        .wkbColumn("geom", List.of("LineString Z"), crs84, "geom_bbox")
                        .columnField("geom", "edges", "spherical")
                        .columnField("geom", "orientation", "counterclockwise")
                        .build(),
                GeoMetadata.builder()
                        .wkbColumn("a", List.of("Point"), null, null)
                        .wkbColumn("b", List.of("Polygon"), crs84, "b_bbox")
                        .primaryColumn("b")
                        .build());
        for (GeoMetadata geo : built) {
            assertEquals("1.1.0", geo.version());
            assertEquals(List.of(), GeoSchema.errors("1.1.0", JSON.readTree(geo.rawBytes())), geo.rawString());
        }
    }

    @Test
    void builderRecordsWhatItWasGiven() throws Exception {
        GeoMetadata geo = GeoMetadata.builder()
                .wkbColumn("geom", List.of("Polygon"), peerCrs(), "geom_bbox")
                .columnField("geom", "edges", "spherical")
                .columnField("geom", "orientation", "counterclockwise")
                .build();
        GeoColumn column = geo.primary();
        assertEquals(GeometryEncoding.WKB, column.encoding());
        assertEquals(Crs.Kind.PROJJSON, column.crs().kind());
        assertEquals(peerCrs(), column.crs().projjson());
        assertTrue(column.spherical());
        assertTrue(column.counterclockwise());
        assertEquals(
                Map.of(
                        "xmin",
                        List.of("geom_bbox", "xmin"),
                        "ymin",
                        List.of("geom_bbox", "ymin"),
                        "xmax",
                        List.of("geom_bbox", "xmax"),
                        "ymax",
                        List.of("geom_bbox", "ymax")),
                column.coveringBbox().orElseThrow());
    }

    @Test
    void crsAbsentMeansCrs84AndExplicitNullMeansUnknown() {
        GeoMetadata geo = GeoMetadata.parse("""
                {"version": "1.1.0", "primary_column": "a", "columns": {
                  "a": {"encoding": "WKB", "geometry_types": []},
                  "b": {"encoding": "point", "geometry_types": ["Point"], "crs": null},
                  "c": {"encoding": "WKB", "geometry_types": [], "crs": {"id": {"authority": "EPSG", "code": 3857}}}}}""");
        assertEquals(Crs.DEFAULT, geo.column("a").crs());
        assertEquals(Crs.UNKNOWN, geo.column("b").crs());
        assertEquals(GeometryEncoding.POINT, geo.column("b").encoding());
        assertEquals(3857, geo.column("c").crs().projjson().at("/id/code").asInt());
        assertEquals("planar", geo.column("a").edges());
        assertFalse(geo.column("a").counterclockwise());
        assertEquals(List.of("a", "b", "c"), List.copyOf(geo.columns().keySet()));
    }

    @Test
    void rawBytesAreKeptExactlyIncludingWhitespaceAndKeyOrder() {
        String raw =
                "{ \"primary_column\" :\"g\",  \"version\": \"1.0.0\",\n \"columns\": {\"g\": {\"encoding\": \"WKB\", "
                        + "\"geometry_types\": [], \"bbox\": [1, 2, 3.5, 4]}} }";
        GeoMetadata geo = GeoMetadata.parse(raw);
        assertArrayEquals(raw.getBytes(StandardCharsets.UTF_8), geo.rawBytes());
        assertEquals(List.of(1.0, 2.0, 3.5, 4.0), geo.primary().bbox().orElseThrow());
    }

    @Test
    void malformedBlocksAreRejectedWithAReason() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> GeoMetadata.parse("{not json"))
                .getMessage()
                .contains("not valid JSON"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> GeoMetadata.parse("{\"version\": \"1.1.0\", \"primary_column\": \"x\", \"columns\": {}}"))
                .getMessage()
                .contains("'x'"));
        assertTrue(assertThrows(
                        IllegalArgumentException.class,
                        () -> GeoMetadata.parse(
                                "{\"version\": \"1.1.0\", \"primary_column\": \"g\", \"columns\": {\"g\": {\"encoding\": \"GeoJSON\"}}}"))
                .getMessage()
                .contains("GeoJSON"));
    }

    /** The real PROJJSON of OGC:CRS84 that GeoPandas wrote into the 1.1.0 example. */
    private JsonNode peerCrs() throws Exception {
        String geo = ParquetRows.read(PeerData.copy("geoparquet-1.1.0/example.parquet", dir))
                .footer()
                .keyValues()
                .get(FooterEntries.GEO);
        return JSON.readTree(geo).at("/columns/geometry/crs");
    }
}
