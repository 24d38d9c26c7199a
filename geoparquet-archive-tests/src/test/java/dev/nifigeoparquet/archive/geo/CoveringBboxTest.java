package dev.nifigeoparquet.archive.geo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.WKTReader;

class CoveringBboxTest {

    private final WKTReader wkt = new WKTReader();

    @Test
    void planarBboxIsTheEnvelope() throws Exception {
        Geometry polygon =
                wkt.read("MULTIPOLYGON (((30 20, 45 40, 10 40, 30 20)), ((15 5, 40 10, 10 20, 5 10, 15 5)))");
        Bbox bbox = CoveringBbox.of(polygon, false);
        Envelope envelope = polygon.getEnvelopeInternal();
        assertEquals(
                new Bbox(
                        envelope.getMinX(),
                        envelope.getMinY(),
                        envelope.getMaxX(),
                        envelope.getMaxY(),
                        Double.NaN,
                        Double.NaN),
                bbox);
    }

    @Test
    void zRangeComesFromTheCoordinates() throws Exception {
        Bbox bbox = CoveringBbox.of(wkt.read("LINESTRING Z (30 10 40, 10 30 -4, 40 40 80)"), false);
        assertEquals(-4, bbox.zmin());
        assertEquals(80, bbox.zmax());
    }

    @Test
    void nullAndEmptyGeometriesHaveNoBbox() throws Exception {
        assertNull(CoveringBbox.of(null, false));
        assertNull(CoveringBbox.of(wkt.read("POLYGON EMPTY"), true));
    }

    @Test
    void sphericalEdgeAtHighLatitudeBulgesPoleward() throws Exception {
        // 120 degrees of longitude at 70N: the great circle between the ends passes much closer to the pole.
        Geometry line = wkt.read("LINESTRING (-60 70, 60 70)");
        Bbox planar = CoveringBbox.of(line, false);
        Bbox spherical = CoveringBbox.of(line, true);

        assertEquals(70, planar.ymax());
        double sampledMax = sampledMaxLatitude(-60, 70, 60, 70);
        assertTrue(sampledMax > 79, "sampling shows the bulge: " + sampledMax);
        assertEquals(sampledMax, spherical.ymax(), 1e-6);
        assertEquals(70, spherical.ymin(), 0.0);
        assertEquals(planar.xmin(), spherical.xmin(), 0.0);
        assertEquals(planar.xmax(), spherical.xmax(), 0.0);
    }

    @Test
    void sphericalEdgeInTheSouthBulgesSouthwardAndPolygonRingsCount() throws Exception {
        Geometry polygon = wkt.read("POLYGON ((-50 -60, 50 -60, 50 -50, -50 -50, -50 -60))");
        Bbox bbox = CoveringBbox.of(polygon, true);
        assertEquals(sampledMinLatitude(-50, -60, 50, -60), bbox.ymin(), 1e-6);
        assertTrue(bbox.ymin() < -60);
        // The northern edge bulges toward the south pole's opposite: its max stays at -50 (it dips south).
        assertEquals(-50, bbox.ymax(), 0.0);
    }

    @Test
    void meridianAndEquatorEdgesDoNotWiden() throws Exception {
        Bbox meridian = CoveringBbox.of(wkt.read("LINESTRING (10 -40, 10 60)"), true);
        assertEquals(-40, meridian.ymin(), 1e-9);
        assertEquals(60, meridian.ymax(), 1e-9);
        Bbox equator = CoveringBbox.of(wkt.read("LINESTRING (-80 0, 80 0)"), true);
        assertEquals(0, equator.ymin(), 1e-9);
        assertEquals(0, equator.ymax(), 1e-9);
    }

    /** Independent check: walk the great circle by spherical linear interpolation and record the latitudes. */
    private static double sampledMaxLatitude(double lon1, double lat1, double lon2, double lat2) {
        return sampleLatitudes(lon1, lat1, lon2, lat2)[1];
    }

    private static double sampledMinLatitude(double lon1, double lat1, double lon2, double lat2) {
        return sampleLatitudes(lon1, lat1, lon2, lat2)[0];
    }

    private static double[] sampleLatitudes(double lon1, double lat1, double lon2, double lat2) {
        double[] a = vector(lon1, lat1);
        double[] b = vector(lon2, lat2);
        double omega = Math.acos(a[0] * b[0] + a[1] * b[1] + a[2] * b[2]);
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        int steps = 1_000_000;
        for (int i = 0; i <= steps; i++) {
            double t = (double) i / steps;
            double wa = Math.sin((1 - t) * omega) / Math.sin(omega);
            double wb = Math.sin(t * omega) / Math.sin(omega);
            double z = wa * a[2] + wb * b[2];
            double latitude = Math.toDegrees(Math.asin(z));
            min = Math.min(min, latitude);
            max = Math.max(max, latitude);
        }
        return new double[] {min, max};
    }

    private static double[] vector(double lon, double lat) {
        double phi = Math.toRadians(lat);
        double lambda = Math.toRadians(lon);
        return new double[] {Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)};
    }
}
