package dev.nifigeoparquet.archive.geo;

import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Polygon;

/**
 * Computes the GeoParquet 1.1 covering bbox of one geometry.
 *
 * <p>With planar edges that is the envelope of the vertices. With spherical edges a great-circle arc between
 * two vertices can reach further north or south than either of them (at high latitudes, a long east-west
 * edge bulges poleward), so ymin/ymax are widened to each arc's extreme latitude. Longitudes are not widened:
 * a minor arc never leaves its endpoints' longitude span except across the antimeridian or a pole, which
 * GeoParquet encodes with xmin &gt; xmax and which this class does not produce.
 */
public final class CoveringBbox {

    private CoveringBbox() {}

    /** The bbox, or {@code null} for a null or empty geometry, which has no extent. */
    public static Bbox of(Geometry geometry, boolean sphericalEdges) {
        if (geometry == null || geometry.isEmpty()) {
            return null;
        }
        Envelope envelope = geometry.getEnvelopeInternal();
        double[] y = {envelope.getMinY(), envelope.getMaxY()};
        if (sphericalEdges) {
            widenForArcs(geometry, y);
        }
        double[] z = zRange(geometry);
        return new Bbox(envelope.getMinX(), y[0], envelope.getMaxX(), y[1], z[0], z[1]);
    }

    /** The range of the vertices' z, NaN for none; read in place, since most geometries have no z at all. */
    private static double[] zRange(Geometry geometry) {
        ZRange range = new ZRange();
        geometry.apply(range);
        return new double[] {range.min, range.max};
    }

    private static final class ZRange implements CoordinateSequenceFilter {
        private double min = Double.NaN;
        private double max = Double.NaN;

        @Override
        public void filter(CoordinateSequence sequence, int i) {
            if (!sequence.hasZ()) {
                return;
            }
            double z = sequence.getZ(i);
            if (!Double.isNaN(z)) {
                min = Double.isNaN(min) ? z : Math.min(min, z);
                max = Double.isNaN(max) ? z : Math.max(max, z);
            }
        }

        @Override
        public boolean isDone() {
            return false;
        }

        @Override
        public boolean isGeometryChanged() {
            return false;
        }
    }

    private static void widenForArcs(Geometry geometry, double[] yRange) {
        if (geometry instanceof GeometryCollection collection) {
            for (int i = 0; i < collection.getNumGeometries(); i++) {
                widenForArcs(collection.getGeometryN(i), yRange);
            }
        } else if (geometry instanceof LineString line) {
            widenForArcs(line.getCoordinateSequence(), yRange);
        } else if (geometry instanceof Polygon polygon) {
            widenForArcs(polygon.getExteriorRing().getCoordinateSequence(), yRange);
            for (int h = 0; h < polygon.getNumInteriorRing(); h++) {
                widenForArcs(polygon.getInteriorRingN(h).getCoordinateSequence(), yRange);
            }
        }
    }

    private static void widenForArcs(CoordinateSequence seq, double[] yRange) {
        for (int i = 1; i < seq.size(); i++) {
            double[] extremes = arcLatitudeExtremes(seq.getX(i - 1), seq.getY(i - 1), seq.getX(i), seq.getY(i));
            yRange[0] = Math.min(yRange[0], extremes[0]);
            yRange[1] = Math.max(yRange[1], extremes[1]);
        }
    }

    /**
     * The lowest and highest latitude (degrees) on the minor great-circle arc between two lon/lat points.
     * The arc's extreme points are where the great circle is closest to a pole: the projection of the pole
     * onto the circle's plane. They count only if they fall inside the arc.
     */
    static double[] arcLatitudeExtremes(double lon1, double lat1, double lon2, double lat2) {
        double[] a = unitVector(lon1, lat1);
        double[] b = unitVector(lon2, lat2);
        double low = Math.min(lat1, lat2);
        double high = Math.max(lat1, lat2);
        double[] normal = cross(a, b);
        double normalLength = Math.sqrt(dot(normal, normal));
        if (normalLength < 1e-15) {
            return new double[] {low, high}; // same or antipodal points: no unique arc
        }
        // Highest point of the circle: the north pole projected onto the plane, i.e. normal x (pole x normal).
        double[] top = cross(cross(normal, new double[] {0, 0, 1}), normal);
        double topLength = Math.sqrt(dot(top, top));
        if (topLength < 1e-15) {
            return new double[] {low, high}; // the equator: flat
        }
        for (int sign = -1; sign <= 1; sign += 2) {
            double[] p = {sign * top[0] / topLength, sign * top[1] / topLength, sign * top[2] / topLength};
            if (dot(cross(a, p), normal) >= 0 && dot(cross(p, b), normal) >= 0) {
                double latitude = Math.toDegrees(Math.asin(Math.max(-1, Math.min(1, p[2]))));
                low = Math.min(low, latitude);
                high = Math.max(high, latitude);
            }
        }
        return new double[] {low, high};
    }

    private static double[] unitVector(double lonDegrees, double latDegrees) {
        double lon = Math.toRadians(lonDegrees);
        double lat = Math.toRadians(latDegrees);
        return new double[] {Math.cos(lat) * Math.cos(lon), Math.cos(lat) * Math.sin(lon), Math.sin(lat)};
    }

    private static double[] cross(double[] u, double[] v) {
        return new double[] {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    }

    private static double dot(double[] u, double[] v) {
        return u[0] * v[0] + u[1] * v[1] + u[2] * v[2];
    }
}
