package dev.nifigeoparquet.archive.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.uber.h3core.H3Core;
import com.uber.h3core.LengthUnit;
import com.uber.h3core.util.LatLng;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKTReader;

/**
 * The keying rule for features crossing the antimeridian (format section 6.1): such a feature is keyed by the
 * centroid of its unwrapped geometry, and every other feature keeps exactly the cell the planar centroid of its
 * stored coordinates gave it before the rule existed.
 */
class AntimeridianKeyingTest {

    private static final GeometryFactory GEOMETRIES = new GeometryFactory();
    private static final H3Core H3 = H3CellsTest.newH3();

    /** The rule before antimeridian crossings were unwrapped: the planar centroid of the coordinates as stored. */
    private static String plainCentroidCell(Geometry lonLat, int resolution) {
        Coordinate centroid = lonLat.getCentroid().getCoordinate();
        return H3.latLngToCellAddress(centroid.y, centroid.x, resolution);
    }

    @Test
    void everyPeerGeometryThatDoesNotCrossKeepsItsCellAndFijiMovesHome() throws Exception {
        int compared = 0;
        List<String> crossing = new ArrayList<>();
        for (String relative : PeerData.parquetFiles()) {
            ParquetRows.Contents contents = ParquetRows.read(PeerData.file(relative));
            String geoText = contents.footer().keyValues().get(FooterEntries.GEO);
            GeoMetadata geo = geoText == null ? null : GeoMetadata.parse(geoText);
            String column = geo == null ? "geometry" : geo.primaryColumn();
            if (!contents.footer().schema().containsField(column)) {
                continue;
            }
            GeometryCodec codec = GeometryCodec.forFile(contents.footer().schema(), column, geo);
            for (int row = 0; row < contents.rows().size(); row++) {
                Geometry geometry = codec.decode(contents.rows().get(row), row);
                if (geometry == null || geometry.isEmpty() || !onTheGlobe(geometry)) {
                    continue;
                }
                for (int resolution : new int[] {0, 3, 5, 9}) {
                    String now = new H3Keyer(resolution).cellOf(geometry, SourceCrs.CRS84);
                    if (H3Keyer.crossesAntimeridian(geometry)) {
                        if (resolution == 0) {
                            crossing.add(relative + " row " + row + " "
                                    + name(contents.rows().get(row)));
                        }
                    } else {
                        assertEquals(
                                plainCentroidCell(geometry, resolution),
                                now,
                                relative + " row " + row + " at " + resolution);
                        compared++;
                    }
                }
            }
        }
        assertTrue(compared > 500, "compared " + compared);
        // Natural Earth's Fiji (both example files) is the one peer feature that crosses: parts at 177..180 and
        // -180..-178.
        assertEquals(
                List.of("geoparquet-1.0.0/example.parquet row 0 Fiji", "geoparquet-1.1.0/example.parquet row 0 Fiji"),
                crossing);

        ParquetRows.Contents countries = ParquetRows.read(PeerData.file("geoparquet-1.1.0/example.parquet"));
        GeoMetadata geo = GeoMetadata.parse(countries.footer().keyValues().get(FooterEntries.GEO));
        Geometry fiji = GeometryCodec.forFile(countries.footer().schema(), geo.primaryColumn(), geo)
                .decode(countries.rows().get(0), 0);
        String cell = new H3Keyer(3).cellOf(fiji, SourceCrs.CRS84);
        LatLng suva = new LatLng(-18.14, 178.44);
        assertTrue(
                H3.greatCircleDistance(H3.cellToLatLng(cell), suva, LengthUnit.km) < 300,
                "Fiji is keyed in Fiji: " + H3.cellToLatLng(cell));
        assertTrue(
                H3.greatCircleDistance(H3.cellToLatLng(plainCentroidCell(fiji, 3)), suva, LengthUnit.km) > 1_000,
                "the planar centroid of the stored coordinates lies far from Fiji");
    }

    @Test
    void syntheticFeaturesThatDoNotCrossKeepTheirCells() {
        Random random = new Random(20_260_611L);
        int compared = 0;
        for (int i = 0; i < 20_000; i++) {
            Geometry geometry = randomFeature(random);
            assertFalse(H3Keyer.crossesAntimeridian(geometry), geometry.toText());
            int resolution = random.nextInt(16);
            assertEquals(
                    plainCentroidCell(geometry, resolution),
                    new H3Keyer(resolution).cellOf(geometry, SourceCrs.CRS84),
                    geometry.toText());
            compared++;
        }
        assertEquals(20_000, compared);
    }

    @Test
    void aleutianIslandsFrom172EastTo179WestAreKeyedInTheAleutians() throws Exception {
        // A county-like MultiPolygon of islands from 172°E to 179°W, most of its area east of the antimeridian.
        Geometry aleutians = new WKTReader(GEOMETRIES)
                .read("MULTIPOLYGON ("
                        + "((172.4 52.8, 173.3 52.8, 173.3 53.0, 172.4 53.0, 172.4 52.8)), "
                        + "((177.3 51.9, 177.7 51.9, 177.7 52.1, 177.3 52.1, 177.3 51.9)), "
                        + "((-179.9 51.4, -179.0 51.4, -179.0 52.3, -179.9 52.3, -179.9 51.4)))");
        assertTrue(H3Keyer.crossesAntimeridian(aleutians));
        Coordinate centroid = H3Keyer.keyingCentroid(aleutians);
        assertTrue(centroid.x > 172 || centroid.x < -179, "centroid among the islands: " + centroid);
        assertTrue(centroid.y > 51.4 && centroid.y < 53, "centroid among the islands: " + centroid);
        Coordinate stored = aleutians.getCentroid().getCoordinate();
        assertTrue(stored.x < -80, "as stored, the planar centroid lies in North America: " + stored);

        for (int resolution : new int[] {0, 4, 7}) {
            String cell = new H3Keyer(resolution).cellOf(aleutians, SourceCrs.CRS84);
            assertEquals(H3.latLngToCellAddress(centroid.y, centroid.x, resolution), cell);
        }
        // The unwrapped centroid lies west of 180° here; one east of it is brought back into -180..180.
        Polygon eastHeavy =
                (Polygon) new WKTReader(GEOMETRIES).read("POLYGON ((179.5 10, -178 10, -178 11, 179.5 11, 179.5 10))");
        Coordinate east = H3Keyer.keyingCentroid(eastHeavy);
        assertEquals(-179.25, east.x, 1e-9);
        assertEquals(10.5, east.y, 1e-9);
    }

    @Test
    void wideFeaturesThatFitNeitherWayAreNotCrossings() throws Exception {
        WKTReader wkt = new WKTReader(GEOMETRIES);
        // A band around the globe and a polygon wider than half the globe both ways.
        for (String text : List.of(
                "POLYGON ((-180 -90, 180 -90, 180 -60, -180 -60, -180 -90))",
                "POLYGON ((-180 -90, 0 -90, 180 -90, 180 -60, 0 -60, -180 -60, -180 -90))",
                "LINESTRING (-170 0, -10 0, 10 1, 170 1)",
                "MULTIPOINT ((-179 0), (-60 0), (60 0), (179 0))")) {
            Geometry geometry = wkt.read(text);
            assertFalse(H3Keyer.crossesAntimeridian(geometry), text);
            assertEquals(plainCentroidCell(geometry, 2), new H3Keyer(2).cellOf(geometry, SourceCrs.CRS84), text);
        }
        // Narrow when unwrapped: a crossing, whatever kind of geometry.
        for (String text : List.of("LINESTRING (179 0, -179 0)", "MULTIPOINT ((179.5 1), (-179.5 1))")) {
            Geometry geometry = wkt.read(text);
            assertTrue(H3Keyer.crossesAntimeridian(geometry), text);
            assertEquals(180, Math.abs(H3Keyer.keyingCentroid(geometry).x), 1e-9, text);
        }
    }

    /** A point, line or polygon no more than 180° wide, anywhere on the globe, often near the antimeridian. */
    private static Geometry randomFeature(Random random) {
        double width = random.nextInt(4) == 0 ? random.nextDouble() * 180 : random.nextDouble() * 0.5;
        double height = random.nextDouble() * Math.min(width + 0.01, 60);
        double west = random.nextInt(3) == 0
                ? 180 - width - random.nextDouble() * 2
                : -180 + random.nextDouble() * (360 - width);
        if (random.nextBoolean() && random.nextInt(3) == 0) {
            west = -180 + random.nextDouble() * 2; // hugging -180 from the east
        }
        double south = -90 + random.nextDouble() * (180 - height);
        double east = Math.min(180, west + width);
        double north = south + height;
        return switch (random.nextInt(3)) {
            case 0 -> GEOMETRIES.createPoint(new Coordinate(west, south));
            case 1 ->
                GEOMETRIES.createLineString(
                        new Coordinate[] {new Coordinate(west, south), new Coordinate(east, north)});
            default ->
                GEOMETRIES.createPolygon(new Coordinate[] {
                    new Coordinate(west, south),
                    new Coordinate(east, south),
                    new Coordinate(east, north),
                    new Coordinate((west + east) / 2, (south + north) / 2),
                    new Coordinate(west, north),
                    new Coordinate(west, south)
                });
        };
    }

    private static boolean onTheGlobe(Geometry geometry) {
        for (Coordinate c : geometry.getCoordinates()) {
            if (!Double.isFinite(c.x) || !Double.isFinite(c.y) || Math.abs(c.x) > 180 || Math.abs(c.y) > 90) {
                return false;
            }
        }
        return true;
    }

    private static String name(Group row) {
        return row.getType().containsField("name") && row.getFieldRepetitionCount("name") > 0
                ? row.getString("name", 0)
                : "";
    }
}
