package dev.nifigeoparquet.archive.cells;

import java.util.ArrayList;
import java.util.List;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;

/**
 * The centroid on the sphere of a geometry whose edges are great-circle arcs (a Parquet {@code GEOGRAPHY}, or a
 * GeoParquet column with {@code "edges": "spherical"}), as docs/archive-format.md, section 6.1, defines it: the direction
 * of the geometry's first moment on the unit sphere, taken over its parts of the highest dimension, as JTS takes a
 * planar centroid.
 * <ul>
 *   <li>Points: the sum of their unit vectors.</li>
 *   <li>Lines: each arc from a to b contributes its length times its mid-direction, (a + b)/|a + b| |b − a|: the integral
 *       of the position along the arc.</li>
 *   <li>Polygons: each ring contributes the integral of the position over the region it bounds, half the sum over its
 *       arcs of the arc's angle times its unit normal a × b/|a × b| (Stokes' theorem on the sphere); a ring bounds the
 *       smaller of the two regions it separates, whichever way it is wound, and holes are subtracted.</li>
 * </ul>
 * The centroid is that vector's direction, as longitude and latitude. Where the moment vanishes (two antipodal points,
 * a symmetric band around the globe) the direction of the vertices' sum is used, and failing that the first vertex.
 * The sphere has the geometry's longitude and latitude as its spherical coordinates; WGS 84's flattening is not applied.
 */
public final class SphericalCentroid {

    private static final double DEGENERATE = 1e-15;

    private SphericalCentroid() {}

    /** The spherical centroid of a non-empty geometry in longitude/latitude degrees, as (longitude, latitude). */
    public static Coordinate of(Geometry lonLat) {
        List<Geometry> parts = new ArrayList<>();
        int dimension = lonLat.getDimension();
        collect(lonLat, dimension, parts);
        double[] moment = new double[3];
        for (Geometry part : parts) {
            switch (part) {
                case Point point -> add(moment, vector(point.getCoordinate()), 1);
                case LineString line -> lineMoment(line.getCoordinates(), moment);
                case Polygon polygon -> polygonMoment(polygon, moment);
                default -> throw new IllegalStateException("unexpected part " + part.getGeometryType());
            }
        }
        if (norm(moment) < DEGENERATE) {
            moment = new double[3];
            for (Coordinate c : lonLat.getCoordinates()) {
                add(moment, vector(c), 1);
            }
            if (norm(moment) < DEGENERATE) {
                return new Coordinate(lonLat.getCoordinate().x, lonLat.getCoordinate().y);
            }
        }
        return lonLat(moment);
    }

    /** The non-empty points, lines and polygons of the highest dimension, collections flattened. */
    private static void collect(Geometry geometry, int dimension, List<Geometry> parts) {
        if (geometry instanceof GeometryCollection collection) {
            for (int i = 0; i < collection.getNumGeometries(); i++) {
                collect(collection.getGeometryN(i), dimension, parts);
            }
        } else if (!geometry.isEmpty() && geometry.getDimension() == dimension) {
            parts.add(geometry);
        }
    }

    private static void lineMoment(Coordinate[] coordinates, double[] moment) {
        for (int i = 0; i + 1 < coordinates.length; i++) {
            double[] a = vector(coordinates[i]);
            double[] b = vector(coordinates[i + 1]);
            double[] sum = {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
            double length = norm(sum);
            if (length < DEGENERATE) {
                continue; // antipodal ends: no single arc joins them
            }
            double chord = norm(new double[] {b[0] - a[0], b[1] - a[1], b[2] - a[2]});
            add(moment, sum, chord / length);
        }
    }

    private static void polygonMoment(Polygon polygon, double[] moment) {
        add(moment, ringMoment(polygon.getExteriorRing().getCoordinates()), 1);
        for (int i = 0; i < polygon.getNumInteriorRing(); i++) {
            add(moment, ringMoment(polygon.getInteriorRingN(i).getCoordinates()), -1);
        }
    }

    /**
     * The first moment of the smaller region a closed ring bounds. The ring is fanned into triangles from a reference
     * point r near its vertices; a triangle (r, a, b) has the moment ½ (w_ra r×a + w_ab a×b + w_br b×r), where w = θ/sin θ
     * for each arc, which with a = r + u and b = r + v is ½ ((w_ra − w_ab) r×u + (w_ab − w_br) r×v + w_ab u×v). Written so,
     * the moment of a small ring comes from products of small vectors instead of the difference of nearly equal large
     * ones, and keeps its precision; the spokes of the fan cancel, leaving the ring's own arcs.
     */
    private static double[] ringMoment(Coordinate[] ring) {
        double[] reference = new double[3];
        for (Coordinate c : ring) {
            add(reference, vector(c), 1);
        }
        double[] r = norm(reference) < DEGENERATE ? vector(ring[0]) : scaled(reference, 1 / norm(reference));
        double[] moment = new double[3];
        double area = 0;
        for (int i = 0; i + 1 < ring.length; i++) {
            double[] a = vector(ring[i]);
            double[] b = vector(ring[i + 1]);
            double[] u = difference(a, r);
            double[] v = difference(b, r);
            double[] uv = cross(u, v);
            double wra = arcWeight(r, u);
            double wab = arcWeight(a, difference(v, u));
            double wbr = arcWeight(r, v);
            add(moment, cross(r, u), (wra - wab) / 2);
            add(moment, cross(r, v), (wab - wbr) / 2);
            add(moment, uv, wab / 2);
            // The signed area of the triangle (r, a, b); r·(a×b) = r·(u×v) exactly.
            area += 2 * Math.atan2(dot(r, uv), 1 + dot(r, a) + dot(a, b) + dot(b, r));
        }
        // The area to the left of the ring, modulo 4π; brought into (-2π, 2π], its sign says whether the left is the
        // smaller region. The moment of the right-hand region is the opposite: the whole sphere's moment is zero.
        area = Math.IEEEremainder(area, 4 * Math.PI);
        return area >= 0 ? moment : scaled(moment, -1);
    }

    /** θ/sin θ of the arc from x to x + d (1 for no arc), with sin θ = |x × d| computed from the small difference d. */
    private static double arcWeight(double[] x, double[] d) {
        double sine = norm(cross(x, d));
        if (sine < DEGENERATE) {
            return 1;
        }
        double[] y = {x[0] + d[0], x[1] + d[1], x[2] + d[2]};
        return Math.atan2(sine, dot(x, y)) / sine;
    }

    private static double[] difference(double[] a, double[] b) {
        return new double[] {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
    }

    private static double[] vector(Coordinate lonLat) {
        double lon = Math.toRadians(lonLat.x);
        double lat = Math.toRadians(lonLat.y);
        double cosLat = Math.cos(lat);
        return new double[] {cosLat * Math.cos(lon), cosLat * Math.sin(lon), Math.sin(lat)};
    }

    private static Coordinate lonLat(double[] v) {
        double lat = Math.toDegrees(Math.atan2(v[2], Math.hypot(v[0], v[1])));
        double lon = Math.hypot(v[0], v[1]) < DEGENERATE ? 0 : Math.toDegrees(Math.atan2(v[1], v[0]));
        return new Coordinate(lon, lat);
    }

    private static double[] cross(double[] a, double[] b) {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }

    private static double dot(double[] a, double[] b) {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static double norm(double[] v) {
        return Math.sqrt(dot(v, v));
    }

    private static double[] scaled(double[] v, double factor) {
        return new double[] {v[0] * factor, v[1] * factor, v[2] * factor};
    }

    private static void add(double[] sum, double[] v, double factor) {
        sum[0] += v[0] * factor;
        sum[1] += v[1] * factor;
        sum[2] += v[2] * factor;
    }
}
