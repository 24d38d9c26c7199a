package dev.nifigeoparquet.archive.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.uber.h3core.H3Core;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.KeyingException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKTReader;

class H3KeyerTest {

    /** Web Mercator's sphere radius, for converting fixtures independently of proj4j. */
    private static final double R = 6378137;

    private static final SourceCrs WEB_MERCATOR = SourceCrs.declared("EPSG:3857");
    private static final GeometryFactory GEOMETRIES = new GeometryFactory();

    private final H3Core h3 = H3CellsTest.newH3();

    // --- the same feature in EPSG:4326 and EPSG:3857 --------------------------------------------------------

    @ParameterizedTest
    @ValueSource(ints = {0, 4, 8, 11, 13})
    void pointsGetTheSameCellInLonLatAndWebMercator(int resolution) {
        H3Keyer keyer = new H3Keyer(resolution);
        double[][] places = {
            {2.3522, 48.8566}, {-122.4194, 37.7749}, {151.2093, -33.8688}, {-0.0005, 0.0005}, {179.9, 70.1}
        };
        for (double[] p : places) {
            Geometry lonLat = point(p[0], p[1]);
            String expected = h3.latLngToCellAddress(p[1], p[0], resolution);
            assertEquals(expected, keyer.cellOf(lonLat, SourceCrs.CRS84));
            assertEquals(expected, keyer.cellOf(lonLat, SourceCrs.declared("EPSG:4326")));
            assertEquals(expected, keyer.cellOf(toMercator(lonLat), WEB_MERCATOR));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 9, 12})
    void polygonsAndMultipolygonsGetTheSameCellInLonLatAndWebMercator(int resolution) {
        H3Keyer keyer = new H3Keyer(resolution);
        List<Geometry> features = List.of(
                wkt("POLYGON ((5.1 52.0, 5.3 52.0, 5.35 52.2, 5.1 52.15, 5.1 52.0))"),
                wkt("POLYGON ((-74.05 40.6, -73.9 40.6, -73.9 40.8, -74.05 40.8, -74.05 40.6), "
                        + "(-74.0 40.65, -73.95 40.65, -73.95 40.7, -74.0 40.65))"),
                wkt(
                        "MULTIPOLYGON (((10 10, 10.4 10, 10.4 10.3, 10 10.3, 10 10)), ((11 11, 11.2 11, 11.2 11.2, 11 11)))"),
                wkt("MULTIPOINT ((-3.7 40.4), (-3.6 40.5), (-3.65 40.45))"));
        for (Geometry lonLat : features) {
            double[] c = centroidOf(lonLat);
            String expected = h3.latLngToCellAddress(c[1], c[0], resolution);
            assertEquals(expected, keyer.cellOf(lonLat, SourceCrs.CRS84), lonLat::toText);
            assertEquals(expected, keyer.cellOf(toMercator(lonLat), WEB_MERCATOR), lonLat::toText);
        }
    }

    // --- reproject first, then take the centroid ----------------------------------------------------------

    @Test
    void reprojectsBeforeTakingTheCentroid() {
        int resolution = 7;
        double[][] lonLatRing = {{-10, 0}, {60, 0}, {60, 75}, {-10, 75}, {-10, 0}};
        double[][] mercatorRing = map(lonLatRing, H3KeyerTest::toMercator);
        Polygon inMercator = polygon(mercatorRing);

        double[] reprojectThenCentroid = shoelaceCentroid(map(mercatorRing, H3KeyerTest::fromMercator));
        double[] centroidThenReproject = fromMercator(shoelaceCentroid(mercatorRing));
        String reprojectFirst = h3.latLngToCellAddress(reprojectThenCentroid[1], reprojectThenCentroid[0], resolution);
        String centroidFirst = h3.latLngToCellAddress(centroidThenReproject[1], centroidThenReproject[0], resolution);
        assertNotEquals(reprojectFirst, centroidFirst, "fixture: the two orders must disagree");

        assertEquals(reprojectFirst, new H3Keyer(resolution).cellOf(inMercator, WEB_MERCATOR));
    }

    // --- concave features -------------------------------------------------------------------------------

    @Test
    void aUShapeIsKeyedByItsCentroidEvenThoughItLiesOutside() {
        int resolution = 6;
        double[][] ring = {{0, 0}, {30, 0}, {30, 30}, {20, 30}, {20, 10}, {10, 10}, {10, 30}, {0, 30}, {0, 0}};
        Polygon u = polygon(ring);
        double[] centroid = shoelaceCentroid(ring);
        assertFalse(
                u.contains(GEOMETRIES.createPoint(new Coordinate(centroid[0], centroid[1]))),
                "fixture: the centroid must lie outside the U");

        H3Keyer keyer = new H3Keyer(resolution);
        String expected = h3.latLngToCellAddress(centroid[1], centroid[0], resolution);
        for (int i = 0; i < 5; i++) {
            assertEquals(expected, keyer.cellOf(u, SourceCrs.CRS84));
        }
        assertEquals(expected, new H3Keyer(resolution).cellOf(u.copy(), SourceCrs.CRS84));
    }

    @Test
    void anAntimeridianCrossingFeatureIsKeyedByTheCentroidOfItsUnwrappedLongitudes() {
        int resolution = 3;
        double[][] ring = {{179, 10}, {-179, 10}, {-179, 12}, {179, 12}, {179, 10}};
        double[] asStored = shoelaceCentroid(ring);
        assertEquals(0, asStored[0], 1e-9, "as stored, the planar centroid lies on the other side of the globe");
        double[] unwrapped = shoelaceCentroid(map(ring, p -> new double[] {p[0] < 0 ? p[0] + 360 : p[0], p[1]}));
        assertEquals(180, unwrapped[0], 1e-9);
        assertEquals(
                h3.latLngToCellAddress(unwrapped[1], unwrapped[0], resolution),
                new H3Keyer(resolution).cellOf(polygon(ring), SourceCrs.CRS84));
    }

    @Test
    void theGeoParquetAxisOrderIsLonLatEvenForEpsg4326() {
        ObjectMapper json = new ObjectMapper();
        SourceCrs epsg4326 = GeoParquetCrs.resolve(json.createObjectNode()
                .set("id", json.createObjectNode().put("authority", "EPSG").put("code", 4326)));
        assertEquals(h3.latLngToCellAddress(40, -100, 9), new H3Keyer(9).cellOf(point(-100, 40), epsg4326));
    }

    // --- typed errors -----------------------------------------------------------------------------------

    @Test
    void nullGeometry() {
        assertReason(Reason.NULL_GEOMETRY, null, SourceCrs.CRS84);
    }

    @ParameterizedTest
    @ValueSource(strings = {"POINT EMPTY", "POLYGON EMPTY", "MULTIPOLYGON EMPTY", "GEOMETRYCOLLECTION (POINT EMPTY)"})
    void emptyGeometries(String text) {
        assertReason(Reason.EMPTY_GEOMETRY, wkt(text), SourceCrs.CRS84);
        assertReason(Reason.EMPTY_GEOMETRY, wkt(text), WEB_MERCATOR);
    }

    @Test
    void nonFiniteCoordinates() {
        assertReason(Reason.NON_FINITE_COORDINATE, point(Double.NaN, 10), SourceCrs.CRS84);
        assertReason(Reason.NON_FINITE_COORDINATE, point(10, Double.NaN), WEB_MERCATOR);
        assertReason(
                Reason.NON_FINITE_COORDINATE,
                GEOMETRIES.createLineString(
                        new Coordinate[] {new Coordinate(0, 0), new Coordinate(Double.POSITIVE_INFINITY, 1)}),
                SourceCrs.CRS84);
        assertReason(Reason.NON_FINITE_COORDINATE, point(0, Double.NEGATIVE_INFINITY), WEB_MERCATOR);
    }

    @Test
    void coordinatesOffTheGlobe() {
        assertReason(Reason.LATITUDE_OUT_OF_RANGE, point(10, 91), SourceCrs.declared("EPSG:4326"));
        assertReason(Reason.LATITUDE_OUT_OF_RANGE, point(10, -90.5), SourceCrs.CRS84);
        assertReason(Reason.LONGITUDE_OUT_OF_RANGE, point(181, 10), SourceCrs.CRS84);
        // A vertex off the globe spoils the feature even if its centroid would be on it.
        assertReason(Reason.LATITUDE_OUT_OF_RANGE, wkt("LINESTRING (0 0, 0 95, 0 -80)"), SourceCrs.CRS84);
        // Geographic CRSs other than WGS 84 pass through proj4j unchecked, so the range check still applies.
        assertReason(Reason.LATITUDE_OUT_OF_RANGE, point(-100, 91), SourceCrs.declared("EPSG:4269"));
    }

    @Test
    void aNonFiniteVertexAnywhereIsReportedBeforeAVertexOffTheGlobe() {
        Geometry offFirst = GEOMETRIES.createLineString(new Coordinate[] {
            new Coordinate(0, 95), new Coordinate(1, 1), new Coordinate(Double.NaN, 1), new Coordinate(200, 1)
        });
        assertReason(Reason.NON_FINITE_COORDINATE, offFirst, SourceCrs.CRS84);
        Geometry inALaterPart = GEOMETRIES.createGeometryCollection(
                new Geometry[] {point(0, 95), wkt("LINESTRING (0 0, 1 1)"), point(Double.POSITIVE_INFINITY, 0)});
        assertReason(Reason.NON_FINITE_COORDINATE, inALaterPart, SourceCrs.CRS84);
    }

    @Test
    void theFirstVertexOffTheGlobeInTheGeometrysOrderIsReported() {
        assertMessage("latitude 95.0 in EPSG:4326 is outside -90..90", wkt("LINESTRING (0 0, 0 95, 200 0)"));
        assertMessage("longitude 200.0 in EPSG:4326 is outside -180..180", wkt("LINESTRING (0 0, 200 0, 0 95)"));
        // A hole's vertices are checked after the shell's, a later part's after an earlier one's.
        assertMessage(
                "latitude 95.0 in EPSG:4326 is outside -90..90",
                wkt("POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0), (2 2, 2 95, 3 3, 2 2))"));
        assertMessage(
                "longitude -190.0 in EPSG:4326 is outside -180..180",
                wkt("GEOMETRYCOLLECTION (POINT (1 1), MULTIPOINT ((2 2), (-190 3)), POINT (0 -95))"));
    }

    @Test
    void unknownCrss() {
        assertEquals(
                Reason.UNKNOWN_CRS,
                assertThrows(KeyingException.class, () -> GeoParquetCrs.resolve(NullNode.getInstance()))
                        .reason());
        assertEquals(
                Reason.UNKNOWN_CRS,
                assertThrows(
                                KeyingException.class,
                                () -> GeoParquetCrs.resolve(new ObjectMapper()
                                        .readTree("{\"type\": \"ProjectedCRS\", \"name\": \"No id here\"}")))
                        .reason());
    }

    @Test
    void pointsOutsideAProjectionsDomain() {
        assertReason(Reason.REPROJECTION_FAILED, point(1e12, 1e12), SourceCrs.declared("EPSG:3035"));
    }

    @Test
    void resolutionIsValidated() {
        assertThrows(IllegalArgumentException.class, () -> new H3Keyer(-1));
        assertThrows(IllegalArgumentException.class, () -> new H3Keyer(16));
        assertEquals(15, new H3Keyer(15).resolution());
    }

    // --- concurrency ------------------------------------------------------------------------------------

    @Test
    void concurrentCallersGetTheSameCellsAsAnIndependentComputation() throws Exception {
        int resolution = 9;
        Random random = new Random(20240601);
        List<double[]> places = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            places.add(new double[] {random.nextDouble(-179, 179), random.nextDouble(-80, 80)});
        }
        H3Keyer keyer = new H3Keyer(resolution);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<String>> cells = new ArrayList<>();
            for (double[] p : places) {
                cells.add(pool.submit(() -> keyer.cellOf(toMercator(point(p[0], p[1])), WEB_MERCATOR)));
            }
            for (int i = 0; i < places.size(); i++) {
                double[] p = places.get(i);
                assertEquals(
                        h3.latLngToCellAddress(p[1], p[0], resolution),
                        cells.get(i).get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // --- independent helpers ----------------------------------------------------------------------------

    private static void assertReason(Reason expected, Geometry geometry, SourceCrs crs) {
        KeyingException e = assertThrows(KeyingException.class, () -> new H3Keyer(8).cellOf(geometry, crs));
        assertEquals(expected, e.reason(), e.getMessage());
        assertTrue(e.getMessage().startsWith(expected + ": "), e.getMessage());
    }

    private static void assertMessage(String expected, Geometry lonLat) {
        KeyingException e = assertThrows(KeyingException.class, () -> new H3Keyer(8).cellOf(lonLat, SourceCrs.CRS84));
        assertTrue(e.getMessage().endsWith(": " + expected), e.getMessage());
    }

    /** Spherical Web Mercator, written out rather than taken from proj4j. */
    static double[] toMercator(double[] lonLat) {
        double lambda = Math.toRadians(lonLat[0]);
        double phi = Math.toRadians(lonLat[1]);
        return new double[] {R * lambda, R * Math.log(Math.tan(Math.PI / 4 + phi / 2))};
    }

    static double[] fromMercator(double[] xy) {
        return new double[] {Math.toDegrees(xy[0] / R), Math.toDegrees(2 * Math.atan(Math.exp(xy[1] / R)) - Math.PI / 2)
        };
    }

    private static Geometry toMercator(Geometry lonLat) {
        Geometry copy = lonLat.copy();
        for (Coordinate c : copy.getCoordinates()) {
            double[] xy = toMercator(new double[] {c.x, c.y});
            c.x = xy[0];
            c.y = xy[1];
        }
        copy.geometryChanged();
        return copy;
    }

    /** Area-weighted centroid of a closed ring by the shoelace formula. */
    static double[] shoelaceCentroid(double[][] ring) {
        double twiceArea = 0;
        double cx = 0;
        double cy = 0;
        for (int i = 0; i < ring.length - 1; i++) {
            double cross = ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
            twiceArea += cross;
            cx += (ring[i][0] + ring[i + 1][0]) * cross;
            cy += (ring[i][1] + ring[i + 1][1]) * cross;
        }
        return new double[] {cx / (3 * twiceArea), cy / (3 * twiceArea)};
    }

    /**
     * Centroid of the fixtures above computed without JTS: area-weighted over polygon shells minus
     * holes, or the mean of points.
     */
    private static double[] centroidOf(Geometry lonLat) {
        if (lonLat.getDimension() == 0) {
            double x = 0;
            double y = 0;
            for (Coordinate c : lonLat.getCoordinates()) {
                x += c.x;
                y += c.y;
            }
            return new double[] {x / lonLat.getNumPoints(), y / lonLat.getNumPoints()};
        }
        double area = 0;
        double x = 0;
        double y = 0;
        for (int g = 0; g < lonLat.getNumGeometries(); g++) {
            Polygon polygon = (Polygon) lonLat.getGeometryN(g);
            for (int r = -1; r < polygon.getNumInteriorRing(); r++) {
                double[][] ring = ring(
                        r < 0
                                ? polygon.getExteriorRing().getCoordinates()
                                : polygon.getInteriorRingN(r).getCoordinates());
                double a = Math.abs(signedArea(ring)) * (r < 0 ? 1 : -1);
                double[] c = shoelaceCentroid(ring);
                area += a;
                x += a * c[0];
                y += a * c[1];
            }
        }
        return new double[] {x / area, y / area};
    }

    private static double signedArea(double[][] ring) {
        double twiceArea = 0;
        for (int i = 0; i < ring.length - 1; i++) {
            twiceArea += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1];
        }
        return twiceArea / 2;
    }

    private static double[][] ring(Coordinate[] coordinates) {
        double[][] ring = new double[coordinates.length][];
        for (int i = 0; i < coordinates.length; i++) {
            ring[i] = new double[] {coordinates[i].x, coordinates[i].y};
        }
        return ring;
    }

    private static double[][] map(double[][] points, UnaryOperator<double[]> f) {
        double[][] mapped = new double[points.length][];
        for (int i = 0; i < points.length; i++) {
            mapped[i] = f.apply(points[i]);
        }
        return mapped;
    }

    private static Polygon polygon(double[][] ring) {
        Coordinate[] coordinates = new Coordinate[ring.length];
        for (int i = 0; i < ring.length; i++) {
            coordinates[i] = new Coordinate(ring[i][0], ring[i][1]);
        }
        return GEOMETRIES.createPolygon(coordinates);
    }

    private static Geometry point(double x, double y) {
        return GEOMETRIES.createPoint(new Coordinate(x, y));
    }

    private static Geometry wkt(String text) {
        try {
            return new WKTReader(GEOMETRIES).read(text);
        } catch (ParseException e) {
            throw new AssertionError(e);
        }
    }
}
