package dev.nifigeoparquet.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.cells.DeclaredCrs;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.schema.EdgeInterpolationAlgorithm;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/**
 * {@link ArchiveSpec#withNativeGeometry}: the geo block's WKB column also typed as Parquet GEOMETRY or GEOGRAPHY, with
 * the block's CRS, so both kinds of reader are served; the block itself is kept.
 */
class NativeGeometrySpecTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static ArchiveSpec spec(String crs, String edges) throws IOException {
        GeoMetadata.Builder geo = GeoMetadata.builder()
                .wkbColumn(
                        SyntheticParcels.GEOMETRY, List.of("Polygon"), crs == null ? null : JSON.readTree(crs), null);
        if (edges != null) {
            geo.columnField(SyntheticParcels.GEOMETRY, "edges", edges);
        }
        return ArchiveSpec.of(
                SyntheticParcels.schema(),
                FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, geo.build().rawString())),
                List.of(SyntheticParcels.KEY),
                null,
                5,
                WriterSettings.defaults(),
                "template.parquet");
    }

    private static LogicalTypeAnnotation geometryType(ArchiveSpec spec) {
        return spec.schema().getType(SyntheticParcels.GEOMETRY).getLogicalTypeAnnotation();
    }

    @Test
    void theDefaultCrsIsTheLogicalTypesDefault() throws IOException {
        ArchiveSpec typed = spec(null, null).withNativeGeometry("template.parquet");
        assertEquals(LogicalTypeAnnotation.geometryType(null), geometryType(typed));
        assertEquals(spec(null, null).footer(), typed.footer(), "the geo block is kept as it was");

        String crs84 =
                "{\"type\":\"GeographicCRS\",\"name\":\"WGS 84 (CRS84)\",\"id\":{\"authority\":\"OGC\",\"code\":\"CRS84\"}}";
        assertEquals(
                LogicalTypeAnnotation.geometryType(null),
                geometryType(spec(crs84, null).withNativeGeometry("template.parquet")),
                "OGC:CRS84 written out in full, as GeoPandas does, is the default too");
    }

    @Test
    void anotherCrsIsCarriedInlineAndBothFormsDeclareTheSame() throws IOException {
        String mercator =
                "{\"type\":\"ProjectedCRS\",\"name\":\"WGS 84 / Pseudo-Mercator\",\"id\":{\"authority\":\"EPSG\",\"code\":3857}}";
        ArchiveSpec typed = spec(mercator, null).withNativeGeometry("template.parquet");
        LogicalTypeAnnotation annotation = geometryType(typed);
        assertTrue(annotation instanceof LogicalTypeAnnotation.GeometryLogicalTypeAnnotation, annotation.toString());
        assertEquals(
                JSON.readTree(mercator),
                JSON.readTree(((LogicalTypeAnnotation.GeometryLogicalTypeAnnotation) annotation).getCrs()));
        assertEquals(
                "EPSG:3857",
                DeclaredCrs.of(typed.schema(), typed.footer().asMap(), SyntheticParcels.GEOMETRY)
                        .orElseThrow()
                        .authorityCode());
    }

    @Test
    void sphericalEdgesMakeAGeographyColumnAndATypedColumnIsLeftAsItIs() throws IOException {
        ArchiveSpec typed = spec(null, "spherical").withNativeGeometry("template.parquet");
        assertEquals(
                LogicalTypeAnnotation.geographyType(null, EdgeInterpolationAlgorithm.SPHERICAL), geometryType(typed));
        assertSame(typed, typed.withNativeGeometry("template.parquet"));
    }

    @Test
    void aColumnWithoutTheGeoBlockOrNotWkbIsRefused() {
        ArchiveSpec nativeOnly = ArchiveSpec.of(
                new MessageType(
                        "parcels",
                        Types.optional(PrimitiveType.PrimitiveTypeName.BINARY)
                                .as(LogicalTypeAnnotation.stringType())
                                .named("geometry")),
                FooterEntries.canonicalOf(Map.of(
                        FooterEntries.GEO,
                        GeoMetadata.builder()
                                .wkbColumn("geometry", List.of(), null, null)
                                .build()
                                .rawString())),
                List.of(),
                null,
                5,
                WriterSettings.defaults(),
                "strings.parquet");
        IllegalArgumentException refused =
                assertThrows(IllegalArgumentException.class, () -> nativeOnly.withNativeGeometry("strings.parquet"));
        assertTrue(refused.getMessage().contains("only a plain binary column of WKB"), refused.getMessage());
    }
}
