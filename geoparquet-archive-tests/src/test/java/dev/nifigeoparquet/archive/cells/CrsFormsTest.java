package dev.nifigeoparquet.archive.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.uber.h3core.H3Core;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.KeyingException.Reason;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * Every form in which a file can declare its CRS, for CRSs of four continents: the place's coordinates in the CRS
 * (converted by PROJ from the coordinates Wikipedia publishes, {@code src/test/resources/crs/generate.py}) must key to
 * the H3 cell of the published coordinates, which owes nothing to the code under test.
 */
class CrsFormsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final GeometryFactory FACTORY = new GeometryFactory();
    /** Resolution 9 cells are about 350 m across: a CRS applied wrongly (axes swapped, datum shift lost) lands elsewhere. */
    private static final int RESOLUTION = 9;
    /** How far the converted coordinates may be from the published ones: a metre and a half, in degrees of latitude. */
    private static final double DEGREES_TOLERANCE = 1.5 / 111_000;

    private final H3Keyer keyer = new H3Keyer(RESOLUTION);
    private final CrsReprojector reprojector = new CrsReprojector();

    static List<Arguments> forms() {
        List<Arguments> forms = new ArrayList<>();
        for (JsonNode place : places()) {
            int epsg = place.get("epsg").asInt();
            String name = "EPSG:" + epsg + " " + place.get("place").asText();
            String projjson = place.get("projjson").toString();
            forms.add(Arguments.of(
                    name + ", geo crs PROJJSON with its id", place, GeoParquetCrs.resolve(place.get("projjson"))));
            forms.add(Arguments.of(
                    name + ", geo crs PROJJSON without any id",
                    place,
                    GeoParquetCrs.resolve(place.get("projjsonWithoutIds"))));
            if (place.has("boundProjjson")) {
                forms.add(Arguments.of(
                        name + ", geo crs BoundCRS with its datum shift",
                        place,
                        GeoParquetCrs.resolve(place.get("boundProjjson"))));
            }
            forms.add(Arguments.of(
                    name + ", logical type srid:" + epsg, place, ParquetCrs.resolve("srid:" + epsg, Map.of())));
            forms.add(Arguments.of(
                    name + ", logical type projjson:<key>",
                    place,
                    ParquetCrs.resolve("projjson:projjson_epsg_" + epsg, Map.of("projjson_epsg_" + epsg, projjson))));
            forms.add(Arguments.of(
                    name + ", logical type inline PROJJSON", place, ParquetCrs.resolve(projjson, Map.of())));
            forms.add(Arguments.of(
                    name + ", logical type inline PROJJSON without ids",
                    place,
                    ParquetCrs.resolve(place.get("projjsonWithoutIds").toString(), Map.of())));
            forms.add(Arguments.of(
                    name + ", logical type EPSG:" + epsg, place, ParquetCrs.resolve("EPSG:" + epsg, Map.of())));
        }
        return forms;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forms")
    void everyFormKeysThePlaceToTheCellOfItsPublishedCoordinates(String form, JsonNode place, SourceCrs crs)
            throws IOException {
        Geometry point = FACTORY.createPoint(
                new Coordinate(place.get("x").asDouble(), place.get("y").asDouble()));
        double lon = place.get("lon").asDouble();
        double lat = place.get("lat").asDouble();

        Coordinate lonLat = reprojector.reproject(point, crs, SourceCrs.CRS84).getCoordinate();
        assertEquals(lon, lonLat.x, DEGREES_TOLERANCE / Math.cos(Math.toRadians(lat)), form + ": longitude");
        assertEquals(lat, lonLat.y, DEGREES_TOLERANCE, form + ": latitude");
        String expected = H3Core.newInstance().latLngToCellAddress(lat, lon, RESOLUTION);
        assertEquals(expected, keyer.cellOf(point, crs), form);
    }

    @Test
    void theIdentifiedFormsAreTheEpsgCrsAndTheDefinedOnesCarryTheirParameters() {
        JsonNode albers = place(5070);
        assertEquals("EPSG:5070", GeoParquetCrs.resolve(albers.get("projjson")).authorityCode());
        assertEquals("EPSG:5070", ParquetCrs.resolve("srid:5070", Map.of()).authorityCode());
        SourceCrs defined = GeoParquetCrs.resolve(albers.get("projjsonWithoutIds"));
        assertEquals(null, defined.authorityCode());
        String parameters = defined.definition().orElseThrow();
        assertTrue(
                parameters.startsWith("+proj=aea")
                        && parameters.contains("+lat_1=29.5")
                        && parameters.contains("+lat_2=45.5")
                        && parameters.contains("+lon_0=-96")
                        && parameters.contains("+datum=NAD83"),
                parameters);
        assertTrue(defined.toString().contains("NAD83 / Conus Albers"), defined.toString());

        SourceCrs bound = GeoParquetCrs.resolve(place(27700).get("boundProjjson"));
        assertTrue(
                bound.definition().orElseThrow().contains("+towgs84=446.448,-125.157,542.06,0.15,0.247,0.842,-20.489"),
                bound.toString());
    }

    /**
     * An id of another database proj4j-epsg ships is that CRS too: ESRI:102003, USA Contiguous Albers Equal Area Conic,
     * has its natural origin (false easting and northing 0) at 37.5 N, 96 W.
     */
    @Test
    void anEsriIdentifiedCrsIsTheCrsOfThatDatabase() throws IOException {
        JsonNode esri = JSON.readTree("""
                {"type": "ProjectedCRS", "name": "USA_Contiguous_Albers_Equal_Area_Conic",
                 "id": {"authority": "ESRI", "code": 102003}}
                """);
        SourceCrs crs = GeoParquetCrs.resolve(esri);
        assertEquals("ESRI:102003", crs.authorityCode());
        Coordinate origin = reprojector
                .reproject(FACTORY.createPoint(new Coordinate(0, 0)), crs, SourceCrs.CRS84)
                .getCoordinate();
        assertEquals(-96, origin.x, 1e-9);
        assertEquals(37.5, origin.y, 1e-9);
    }

    /** GeoParquet orders WGS 84 longitude first whatever EPSG:4326 says; swapping the axes would land in the sea. */
    @Test
    void wgs84IsLongitudeFirstInEveryForm() {
        JsonNode sydney = place(4326);
        for (SourceCrs crs : List.of(
                SourceCrs.CRS84,
                GeoParquetCrs.resolve(sydney.get("projjson")),
                GeoParquetCrs.resolve(sydney.get("projjsonWithoutIds")),
                ParquetCrs.resolve("srid:4326", Map.of()),
                ParquetCrs.resolve(null, Map.of()),
                ParquetCrs.resolve("OGC:CRS84", Map.of()))) {
            assertTrue(crs.isWgs84LonLat(), crs.toString());
            assertTrue(crs.sameCoordinatesAs(SourceCrs.CRS84), crs.toString());
        }
        assertFalse(
                ParquetCrs.resolve("srid:4269", Map.of()).isWgs84LonLat(),
                "NAD83 is converted, however little it moves");
    }

    @Test
    void theDefaultIsOgcCrs84() {
        assertEquals(SourceCrs.CRS84, ParquetCrs.resolve(null, Map.of()));
        assertEquals(SourceCrs.CRS84, ParquetCrs.resolve("", Map.of()));
        assertEquals(SourceCrs.CRS84, GeoParquetCrs.resolve(null));
    }

    @Test
    void anUndefinedCrsIsRefusedWithAMessageSayingSo() {
        KeyingException nullCrs =
                assertThrows(KeyingException.class, () -> GeoParquetCrs.resolve(NullNode.getInstance()));
        assertEquals(Reason.UNKNOWN_CRS, nullCrs.reason());
        assertTrue(
                (nullCrs.getMessage().contains("explicitly undefined")
                                && nullCrs.getMessage().contains("cannot be keyed"))
                        || nullCrs.getMessage().contains("no feature can be keyed"),
                nullCrs.getMessage());
        KeyingException sridZero = assertThrows(KeyingException.class, () -> ParquetCrs.resolve("srid:0", Map.of()));
        assertEquals(Reason.UNKNOWN_CRS, sridZero.reason());
        assertTrue(sridZero.getMessage().contains("undefined"), sridZero.getMessage());
    }

    @Test
    void whatCannotBeInterpretedIsRefusedNamingIt() {
        KeyingException arbitrary =
                assertThrows(KeyingException.class, () -> ParquetCrs.resolve("my favourite grid", Map.of()));
        assertEquals(Reason.UNKNOWN_CRS, arbitrary.reason());
        assertTrue(arbitrary.getMessage().contains("my favourite grid"), arbitrary.getMessage());

        KeyingException missingProperty =
                assertThrows(KeyingException.class, () -> ParquetCrs.resolve("projjson:projjson_epsg_5070", Map.of()));
        assertTrue(missingProperty.getMessage().contains("projjson_epsg_5070"), missingProperty.getMessage());

        ObjectNode krovak = (ObjectNode) place(5070).get("projjsonWithoutIds").deepCopy();
        ((ObjectNode) krovak.path("conversion").path("method")).put("name", "Krovak (North Orientated)");
        KeyingException method = assertThrows(KeyingException.class, () -> GeoParquetCrs.resolve(krovak));
        assertEquals(Reason.UNSUPPORTED_CRS, method.reason());
        assertTrue(method.getMessage().contains("Krovak"), method.getMessage());

        KeyingException unknownCode =
                assertThrows(KeyingException.class, () -> ParquetCrs.resolve("srid:999999", Map.of()));
        assertEquals(Reason.UNSUPPORTED_CRS, unknownCode.reason());
    }

    static List<JsonNode> places() {
        try (InputStream in = CrsFormsTest.class.getResourceAsStream("/crs/places.json")) {
            List<JsonNode> places = new ArrayList<>();
            JSON.readTree(in).get("places").forEach(places::add);
            return places;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static JsonNode place(int epsg) {
        return places().stream()
                .filter(place -> place.get("epsg").asInt() == epsg)
                .findFirst()
                .orElseThrow();
    }
}
