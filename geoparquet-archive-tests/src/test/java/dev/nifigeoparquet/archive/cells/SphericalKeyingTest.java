package dev.nifigeoparquet.archive.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import com.uber.h3core.H3Core;
import dev.nifigeoparquet.archive.cells.H3Keyer.Edges;
import java.io.IOException;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKTReader;

/**
 * GEOGRAPHY geometries (great-circle edges) are keyed by their spherical centroid. The expected centroids are worked out
 * by hand from the geometry's symmetry, not by the code under test.
 */
class SphericalKeyingTest {

    private static final int RESOLUTION = 7;
    private final H3Keyer spherical = new H3Keyer(RESOLUTION, Edges.SPHERICAL);
    private final H3Keyer planar = new H3Keyer(RESOLUTION, Edges.PLANAR);

    /**
     * The spherical triangle with corners (0°, 0°), (90°E, 0°) and the North Pole is an eighth of the sphere; its first
     * moment is (π/4, π/4, π/4), so its centroid is 45°E, asin(1/√3) = 35.26°N. The planar centroid of the same
     * coordinates is (30°, 30°), in another cell.
     */
    @Test
    void anOctantIsKeyedByItsSphericalCentroid() throws Exception {
        Geometry octant = wkt("POLYGON ((0 0, 90 0, 0 90, 0 0))");
        assertCentroid(45, Math.toDegrees(Math.asin(1 / Math.sqrt(3))), octant);
        assertEquals(cell(Math.toDegrees(Math.asin(1 / Math.sqrt(3))), 45), spherical.cellOf(octant, SourceCrs.CRS84));
        assertEquals(cell(30, 30), planar.cellOf(octant, SourceCrs.CRS84));
    }

    /** A ring can be wound either way: it bounds the smaller region it separates, and a hole is taken away. */
    @Test
    void windingDoesNotMatterAndHolesAreSubtracted() throws Exception {
        Geometry counterclockwise = wkt("POLYGON ((0 0, 90 0, 0 90, 0 0))");
        Geometry clockwise = wkt("POLYGON ((0 0, 0 90, 90 0, 0 0))");
        assertEquals(spherical.cellOf(counterclockwise, SourceCrs.CRS84), spherical.cellOf(clockwise, SourceCrs.CRS84));

        // A square symmetric about (10°E, 0°) with a hole in its eastern half moves the centroid west.
        Geometry withHole = wkt("POLYGON ((0 -10, 20 -10, 20 10, 0 10, 0 -10), (12 -5, 18 -5, 18 5, 12 5, 12 -5))");
        Coordinate centroid = SphericalCentroid.of(withHole);
        assertEquals(0, centroid.y, 1e-9, "symmetric about the equator");
        assertEquals(true, centroid.x < 10, "west of the square's centre: " + centroid);
    }

    /** A ring around the North Pole at 80°N bounds the polar cap; its centroid is the pole, however the ring is stored. */
    @Test
    void aPolarCapIsKeyedAtThePole() throws Exception {
        Geometry cap = wkt("POLYGON ((0 80, 90 80, 180 80, -90 80, 0 80))");
        assertEquals(90, SphericalCentroid.of(cap).y, 1e-9);
        assertEquals(cell(90, 0), spherical.cellOf(cap, SourceCrs.CRS84));
        Geometry reversed = cap.reverse();
        assertEquals(cell(90, 0), spherical.cellOf(reversed, SourceCrs.CRS84));
    }

    /** Great circles need no unwrapping at the antimeridian: two points at 179°E and 179°W average to 180°. */
    @Test
    void theAntimeridianNeedsNoSpecialCase() throws Exception {
        Geometry points = wkt("MULTIPOINT ((179 -17), (-179 -17))");
        Coordinate centroid = SphericalCentroid.of(points);
        assertEquals(180, Math.abs(centroid.x), 1e-9);
        assertEquals(cell(-17.0, 180), spherical.cellOf(points, SourceCrs.CRS84));

        Geometry islands = wkt(
                "MULTIPOLYGON (((177 -18, 179 -18, 179 -16, 177 -16, 177 -18)), ((-179 -18, -177 -18, -177 -16, -179 -16, -179 -18)))");
        assertEquals(180, Math.abs(SphericalCentroid.of(islands).x), 1e-9);
        assertNotEquals(cell(-17, 0), spherical.cellOf(islands, SourceCrs.CRS84), "not on the other side of the globe");
    }

    /** A line along the equator from 0° to 90°E has its centroid halfway along it; points are averaged as vectors. */
    @Test
    void linesAndPointsAreWeightedOnTheSphere() throws Exception {
        assertCentroid(45, 0, wkt("LINESTRING (0 0, 90 0)"));
        // The two halves of a line are weighted by their lengths on the sphere: 60° along the equator, 30° to the
        // north.
        Coordinate bent = SphericalCentroid.of(wkt("LINESTRING (0 0, 60 0, 60 30)"));
        assertEquals(true, bent.x > 30 && bent.y > 0, bent.toString());
        assertCentroid(0, 90, wkt("MULTIPOINT ((0 80), (120 80), (-120 80))"));
        // Points are 0-dimensional: in a collection with a polygon, only the polygon counts (as JTS does for planar
        // centroids).
        assertCentroid(
                45,
                Math.toDegrees(Math.asin(1 / Math.sqrt(3))),
                wkt("GEOMETRYCOLLECTION (POINT (-100 -80), POLYGON ((0 0, 90 0, 0 90, 0 0)))"));
    }

    /** Small features key exactly where the planar rule keys them: the two centroids differ by far less than a cell. */
    @Test
    void smallFeaturesKeyAsThePlanarRuleDoes() throws Exception {
        Geometry parcel = wkt("POLYGON ((4.835 45.76, 4.8358 45.76, 4.8358 45.7608, 4.835 45.7608, 4.835 45.76))");
        assertEquals(planar.cellOf(parcel, SourceCrs.CRS84), spherical.cellOf(parcel, SourceCrs.CRS84));
        Coordinate a = SphericalCentroid.of(parcel);
        Coordinate b = parcel.getCentroid().getCoordinate();
        assertEquals(b.x, a.x, 1e-7);
        assertEquals(b.y, a.y, 1e-7);
    }

    private static void assertCentroid(double lon, double lat, Geometry geometry) {
        Coordinate centroid = SphericalCentroid.of(geometry);
        assertEquals(lat, centroid.y, 1e-9, "latitude of " + geometry);
        if (Math.abs(lat) < 90) {
            assertEquals(lon, centroid.x, 1e-9, "longitude of " + geometry);
        }
    }

    private static String cell(double lat, double lon) throws IOException {
        return H3Core.newInstance().latLngToCellAddress(lat, lon, RESOLUTION);
    }

    private static Geometry wkt(String text) throws ParseException {
        return new WKTReader().read(text);
    }
}
