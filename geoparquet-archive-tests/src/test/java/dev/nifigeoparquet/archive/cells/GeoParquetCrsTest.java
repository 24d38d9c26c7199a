package dev.nifigeoparquet.archive.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.KeyingException.Reason;
import org.junit.jupiter.api.Test;

class GeoParquetCrsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void absentCrsMeansCrs84() {
        assertEquals(SourceCrs.CRS84, GeoParquetCrs.resolve(null));
        assertEquals(SourceCrs.CRS84, GeoParquetCrs.resolve(MissingNode.getInstance()));
        assertEquals(SourceCrs.CRS84, GeoParquetCrs.resolve(json("{\"crs\": 1}").path("no-such-key")));
        assertTrue(SourceCrs.CRS84.isWgs84LonLat());
        assertTrue(SourceCrs.CRS84.conformanceWarning().isEmpty());
    }

    @Test
    void explicitNullIsAnUnknownCrs() {
        assertReason(Reason.UNKNOWN_CRS, NullNode.getInstance());
        assertReason(Reason.UNKNOWN_CRS, json("{\"crs\": null}").get("crs"));
    }

    @Test
    void projJsonIsIdentifiedByItsId() {
        SourceCrs crs = GeoParquetCrs.resolve(json("""
                {"type": "ProjectedCRS", "name": "WGS 84 / Pseudo-Mercator",
                 "id": {"authority": "EPSG", "code": 3857}}"""));
        assertEquals("EPSG:3857", crs.authorityCode());
        assertFalse(crs.isWgs84LonLat());
        assertTrue(crs.conformanceWarning().isEmpty());
    }

    @Test
    void projJsonIdsArrayIsUsedWhenThereIsNoId() {
        SourceCrs crs = GeoParquetCrs.resolve(json("""
                {"type": "GeographicCRS", "name": "WGS 84",
                 "ids": [{"authority": "ESRI"}, {"authority": "EPSG", "code": "4326"}]}"""));
        assertEquals("EPSG:4326", crs.authorityCode());
        assertTrue(crs.isWgs84LonLat());
    }

    @Test
    void ogcCrs84InProjJsonNeedsNoTransform() {
        SourceCrs crs = GeoParquetCrs.resolve(json("""
                {"type": "GeographicCRS", "name": "WGS 84 (CRS84)", "id": {"authority": "OGC", "code": "CRS84"}}"""));
        assertEquals(SourceCrs.CRS84, crs);
        assertTrue(crs.isWgs84LonLat());
    }

    @Test
    void projJsonWithoutIdIsAnUnknownCrsNamedInTheError() {
        KeyingException e = assertReason(Reason.UNKNOWN_CRS, json("""
                {"type": "ProjectedCRS", "name": "My local grid", "base_crs": {"name": "WGS 84"}}"""));
        assertTrue(e.getMessage().contains("My local grid"), e.getMessage());
    }

    @Test
    void projJsonWithAnIdTheProjectionLibraryLacksIsUnsupported() {
        KeyingException e = assertReason(Reason.UNSUPPORTED_CRS, json("""
                {"type": "ProjectedCRS", "name": "Somewhere", "id": {"authority": "EPSG", "code": 999999}}"""));
        assertTrue(e.getMessage().contains("EPSG:999999"), e.getMessage());
    }

    @Test
    void aPlainStringIsAcceptedButFlaggedAsNotProjJson() {
        SourceCrs crs = GeoParquetCrs.resolve(json("\"EPSG:4326\""));
        assertEquals("EPSG:4326", crs.authorityCode());
        assertTrue(crs.isWgs84LonLat());
        String warning = crs.conformanceWarning().orElseThrow();
        assertTrue(warning.contains("PROJJSON") && warning.contains("EPSG:4326"), warning);

        assertEquals("EPSG:3857", GeoParquetCrs.resolve(json("\"EPSG:3857\"")).authorityCode());
    }

    @Test
    void otherJsonTypesAreUnknownCrss() {
        assertReason(Reason.UNKNOWN_CRS, json("4326"));
        assertReason(Reason.UNKNOWN_CRS, json("[\"EPSG\", 4326]"));
        assertReason(Reason.UNKNOWN_CRS, json("\"WGS 84\""));
    }

    @Test
    void operatorsDeclareCrssAsAuthorityAndCode() {
        SourceCrs crs = SourceCrs.declared("EPSG:3857");
        assertEquals("EPSG:3857", crs.authorityCode());
        assertTrue(crs.conformanceWarning().isEmpty());
        assertEquals(crs, SourceCrs.declared(" epsg:3857 "));
        assertEquals(crs, GeoParquetCrs.resolve(json("{\"id\": {\"authority\": \"EPSG\", \"code\": 3857}}")));

        assertEquals(
                Reason.UNKNOWN_CRS,
                assertThrows(KeyingException.class, () -> SourceCrs.declared("3857"))
                        .reason());
        assertEquals(
                Reason.UNKNOWN_CRS,
                assertThrows(KeyingException.class, () -> SourceCrs.declared(null))
                        .reason());
        assertEquals(
                Reason.UNSUPPORTED_CRS,
                assertThrows(KeyingException.class, () -> SourceCrs.declared("EPSG:999999"))
                        .reason());
        assertEquals(
                Reason.UNSUPPORTED_CRS,
                assertThrows(KeyingException.class, () -> SourceCrs.declared("NOSUCH:1"))
                        .reason());
    }

    private static KeyingException assertReason(Reason expected, JsonNode crs) {
        KeyingException e = assertThrows(KeyingException.class, () -> GeoParquetCrs.resolve(crs));
        assertEquals(expected, e.reason(), e.getMessage());
        assertTrue(e.getMessage().startsWith(expected + ": "), e.getMessage());
        return e;
    }

    private static JsonNode json(String text) {
        try {
            return JSON.readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
