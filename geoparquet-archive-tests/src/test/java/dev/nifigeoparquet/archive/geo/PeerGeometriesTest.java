package dev.nifigeoparquet.archive.geo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKTReader;

/** Every geometry in the peer files decodes to what the producer says it wrote. */
class PeerGeometriesTest {

    @TempDir
    Path dir;

    static Stream<Arguments> geoArrowTestData() {
        List<Arguments> cases = new ArrayList<>();
        for (String type : List.of("point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon")) {
            for (String encoding : List.of("wkb", "native")) {
                cases.add(Arguments.of(type, encoding));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("geoArrowTestData")
    void geoParquet11GeometriesMatchTheirWkt(String type, String encoding) throws Exception {
        Path file = PeerData.copy("geoparquet-1.1.0/data-" + type + "-encoding_" + encoding + ".parquet", dir);
        List<String> expected = csvWkt(PeerData.file("geoparquet-1.1.0/data-" + type + "-wkt.csv"));

        ParquetRows.Contents contents = ParquetRows.read(file);
        GeoMetadata geo = GeoMetadata.parse(contents.footer().keyValues().get(FooterEntries.GEO));
        GeometryCodec codec = GeometryCodec.forFile(contents.footer().schema(), "geometry", geo);
        assertEquals(encoding.equals("wkb") ? GeometryEncoding.WKB : GeometryEncoding.fromJson(type), codec.encoding());

        assertEquals(expected.size(), contents.rows().size(), "rows in " + file);
        for (int row = 0; row < expected.size(); row++) {
            assertSameGeometry(expected.get(row), codec.decode(contents.rows().get(row), row), file + " row " + row);
        }
    }

    @Test
    void nativeParquetGeometryTypeMatchesItsWktColumn() throws Exception {
        for (String name : List.of("geospatial.parquet", "crs-default.parquet")) {
            Path file = PeerData.copy("parquet-format-geospatial/" + name, dir);
            ParquetRows.Contents contents = ParquetRows.read(file);
            MessageType schema = contents.footer().schema();
            assertTrue(GeometryCodec.isParquetGeospatial(schema.getType("geometry")), name + " uses the GEOMETRY type");
            assertFalse(contents.footer().keyValues().containsKey(FooterEntries.GEO), name + " has no geo metadata");

            GeometryCodec codec = GeometryCodec.forFile(schema, "geometry", null);
            assertEquals(GeometryEncoding.WKB, codec.encoding());
            List<Group> rows = contents.rows();
            assertFalse(rows.isEmpty());
            for (int row = 0; row < rows.size(); row++) {
                Group group = rows.get(row);
                String wkt = group.getFieldRepetitionCount("wkt") == 0 ? null : group.getString("wkt", 0);
                assertSameGeometry(wkt, codec.decode(group, row), name + " row " + row);
            }
        }
    }

    @Test
    void geospatialYamlListsEveryWktOfTheFileInOrder() throws Exception {
        // The YAML is the producer's own statement of what it wrote; the wkt column must agree with it.
        var yaml = new ObjectMapper(new YAMLFactory())
                .readTree(PeerData.file("parquet-format-geospatial/geospatial.yaml")
                        .toFile());
        List<String> fromYaml = new ArrayList<>();
        yaml.properties()
                .forEach(group -> group.getValue().forEach(wkt -> fromYaml.add(wkt.isNull() ? null : wkt.asText())));

        ParquetRows.Contents contents =
                ParquetRows.read(PeerData.copy("parquet-format-geospatial/geospatial.parquet", dir));
        GeometryCodec codec = GeometryCodec.forColumn(contents.footer().schema(), "geometry", GeometryEncoding.WKB);
        assertEquals(fromYaml.size(), contents.rows().size());
        for (int row = 0; row < fromYaml.size(); row++) {
            assertSameGeometry(
                    fromYaml.get(row), codec.decode(contents.rows().get(row), row), "geospatial.yaml row " + row);
        }
    }

    @Test
    void examplesDecodeAndTheirStoredCoveringBboxIsTheEnvelope() throws Exception {
        for (String name : List.of("geoparquet-1.0.0/example.parquet", "geoparquet-1.1.0/example.parquet")) {
            ParquetRows.Contents contents = ParquetRows.read(PeerData.copy(name, dir.resolve(name.replace('/', '_'))));
            GeoMetadata geo = GeoMetadata.parse(contents.footer().keyValues().get(FooterEntries.GEO));
            GeoColumn column = geo.primary();
            GeometryCodec codec = GeometryCodec.forColumn(contents.footer().schema(), geo.primaryColumn(), column);
            for (int row = 0; row < contents.rows().size(); row++) {
                Group group = contents.rows().get(row);
                Geometry geometry = codec.decode(group, row);
                assertNotNull(geometry, name + " row " + row);
                assertTrue(geometry.isValid() || !geometry.isEmpty(), name + " row " + row);
                if (column.coveringBbox().isPresent()) {
                    Group stored = group.getGroup("bbox", 0);
                    Bbox computed = CoveringBbox.of(geometry, false);
                    for (String key : List.of("xmin", "ymin", "xmax", "ymax")) {
                        assertEquals(
                                stored.getDouble(key, 0), computed.get(key), 0.0, name + " row " + row + " " + key);
                    }
                }
            }
        }
    }

    static List<String> csvWkt(Path csv) throws IOException {
        List<String> wkts = new ArrayList<>();
        List<String> lines = Files.readAllLines(csv);
        for (String line : lines.subList(1, lines.size())) {
            String value = line.substring(line.indexOf(',') + 1).trim();
            wkts.add(value.isEmpty() ? null : value.substring(1, value.length() - 1));
        }
        return wkts;
    }

    /** Same type, same coordinates in the same order (incl. Z and M); EMPTY equals EMPTY of the same type. */
    static void assertSameGeometry(String expectedWkt, Geometry actual, String where) throws ParseException {
        if (expectedWkt == null) {
            assertNull(actual, where + ": expected null");
            return;
        }
        Geometry expected = new WKTReader().read(expectedWkt);
        assertNotNull(actual, where + ": expected " + expectedWkt);
        assertEquals(expected.getGeometryType(), actual.getGeometryType(), where);
        assertEquals(expected.isEmpty(), actual.isEmpty(), where + ": " + expectedWkt + " vs " + actual);
        assertTrue(expected.equalsExact(actual), where + ": " + expectedWkt + " vs " + actual);
        Coordinate[] e = expected.getCoordinates();
        Coordinate[] a = actual.getCoordinates();
        for (int i = 0; i < e.length; i++) {
            assertEquals(e[i].getZ(), a[i].getZ(), 0.0, where + " Z of coordinate " + i);
            assertEquals(e[i].getM(), a[i].getM(), 0.0, where + " M of coordinate " + i);
        }
    }
}
