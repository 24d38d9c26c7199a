package dev.nifigeoparquet.archive.cells;

import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.KeyingException.Reason;
import java.util.Objects;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryComponentFilter;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Point;

/**
 * The one place that computes a feature's partition: the H3 cell, at the archive's pinned
 * resolution, of the feature's centroid in EPSG:4326.
 *
 * <p>The order is fixed: every coordinate is reprojected to EPSG:4326 first, then the JTS centroid
 * is taken in longitude/latitude, matching GeoPandas' {@code to_crs(4326).centroid}. For projected
 * CRSs the opposite order lands large features in different cells.
 *
 * <p>The centroid is planar in longitude/latitude degrees, so a concave feature whose centroid lies outside it (a
 * U shape) is keyed by that centroid. A feature that crosses the antimeridian ({@link #crossesAntimeridian}: its
 * longitudes span more than 180° as stored but less than 180° once the negative ones are shifted by 360°, such as
 * islands from 172°E to 179°W stored as one MultiPolygon) is keyed by the centroid of the geometry with its
 * longitudes unwrapped that way, brought back into -180..180; the planar centroid of its coordinates as stored
 * would lie on the other side of the globe. For every other geometry the centroid is exactly the planar one
 * (docs/archive-format.md, section 6.1).
 *
 * <p>Geometries whose edges are great-circle arcs (a Parquet {@code GEOGRAPHY} column, a GeoParquet column with
 * non-planar {@code edges}) are keyed by their {@linkplain SphericalCentroid spherical centroid} instead
 * ({@link Edges#SPHERICAL}); a planar centroid of such a geometry is not a point of it at all when it is large.
 *
 * <p>Thread-safe: one instance can serve all of a processor's concurrent tasks.
 */
public final class H3Keyer {

    /** How the edges between a geometry's vertices run, which decides the centroid it is keyed by. */
    public enum Edges {
        /** Straight lines in the coordinates: the planar centroid (of the unwrapped geometry across the antimeridian). */
        PLANAR,
        /** Great-circle arcs: the spherical centroid. */
        SPHERICAL
    }

    private static final double MAX_LATITUDE = 90;
    private static final double MAX_LONGITUDE = 180;
    private static final double HALF_TURN = 180;

    private final int resolution;
    private final Edges edges;
    private final CrsReprojector reprojector = new CrsReprojector();

    /**
     * A keyer of planar geometries.
     *
     * @param resolution the archive's pinned H3 resolution, 0..15
     */
    public H3Keyer(int resolution) {
        this(resolution, Edges.PLANAR);
    }

    /** @param resolution the archive's pinned H3 resolution, 0..15 */
    public H3Keyer(int resolution, Edges edges) {
        this.resolution = H3Cells.requireResolution(resolution);
        this.edges = Objects.requireNonNull(edges, "edges");
    }

    public int resolution() {
        return resolution;
    }

    public Edges edges() {
        return edges;
    }

    /**
     * The canonical (lower-case hex) H3 cell of {@code geometry}, whose x/y are in {@code crs}.
     *
     * @throws KeyingException with the reason the feature cannot be keyed
     */
    public String cellOf(Geometry geometry, SourceCrs crs) {
        requirePresent(geometry);
        Vertices stored = Vertices.of(geometry);
        stored.requireFinite(geometry);
        Geometry lonLat = reprojector.reproject(geometry, crs, SourceCrs.CRS84);
        (CrsReprojector.isIdentity(crs, SourceCrs.CRS84) ? stored : Vertices.of(lonLat)).requireOnTheGlobe();
        Coordinate centroid = edges == Edges.SPHERICAL ? SphericalCentroid.of(lonLat) : keyingCentroid(lonLat);
        return H3Cells.h3().latLngToCellAddress(centroid.getY(), centroid.getX(), resolution);
    }

    /**
     * The point a geometry in longitude/latitude is keyed by: its planar centroid, or for a geometry that
     * {@linkplain #crossesAntimeridian crosses the antimeridian} the planar centroid of its unwrapped copy, with the
     * longitude brought back into -180..180.
     */
    public static Coordinate keyingCentroid(Geometry lonLat) {
        if (!crossesAntimeridian(lonLat)) {
            return lonLat.getCentroid().getCoordinate();
        }
        Geometry unwrapped = lonLat.copy();
        unwrapped.apply(new ShiftNegativeLongitudes());
        unwrapped.geometryChanged();
        Coordinate centroid = unwrapped.getCentroid().getCoordinate();
        double longitude = centroid.getX() > MAX_LONGITUDE ? centroid.getX() - 360 : centroid.getX();
        return new Coordinate(longitude, centroid.getY());
    }

    /**
     * Whether a geometry in longitude/latitude crosses the antimeridian: its longitudes span more than 180° as
     * stored, and more than 0° but less than 180° once every negative longitude is shifted by +360° (into 0..360).
     * A geometry that is wide either way (Antarctica, a band around the globe) does not cross, and neither does one
     * whose longitudes are all ±180 (a band drawn from -180 to 180 and nothing between): for those the stored
     * coordinates are all there is to go by.
     */
    public static boolean crossesAntimeridian(Geometry lonLat) {
        Envelope stored = lonLat.getEnvelopeInternal();
        if (stored.isNull() || stored.getWidth() <= HALF_TURN) {
            return false;
        }
        ShiftedExtent shifted = new ShiftedExtent();
        lonLat.apply(shifted);
        double width = shifted.max - shifted.min;
        return width > 0 && width < HALF_TURN;
    }

    /** Longitude extent of the coordinates with negative longitudes shifted into 180..360. */
    private static final class ShiftedExtent implements CoordinateSequenceFilter {
        private double min = Double.POSITIVE_INFINITY;
        private double max = Double.NEGATIVE_INFINITY;

        @Override
        public void filter(CoordinateSequence sequence, int i) {
            double x = sequence.getX(i);
            double shifted = x < 0 ? x + 360 : x;
            min = Math.min(min, shifted);
            max = Math.max(max, shifted);
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

    /** Makes longitudes continuous across the antimeridian: negative ones move by +360°. */
    private static final class ShiftNegativeLongitudes implements CoordinateSequenceFilter {
        @Override
        public void filter(CoordinateSequence sequence, int i) {
            double x = sequence.getX(i);
            if (x < 0) {
                sequence.setOrdinate(i, CoordinateSequence.X, x + 360);
            }
        }

        @Override
        public boolean isDone() {
            return false;
        }

        @Override
        public boolean isGeometryChanged() {
            return true;
        }
    }

    private static void requirePresent(Geometry geometry) {
        if (geometry == null) {
            throw new KeyingException(Reason.NULL_GEOMETRY, "the feature has no geometry");
        }
        if (geometry.isEmpty()) {
            throw new KeyingException(
                    Reason.EMPTY_GEOMETRY, "the feature's " + geometry.getGeometryType() + " is empty");
        }
    }

    /**
     * A geometry's first non-finite vertex and its first vertex off the globe (as longitude/latitude), in the
     * geometry's order, found in one pass over its coordinates, read in place; coordinates already in longitude/latitude
     * are not read twice. The pass loops over each line's and point's coordinates itself, where JTS's per-vertex filter
     * takes two calls through an interface for every vertex: the two checks took about a fifth of the keying thread's
     * time in a profile of routing.
     */
    private static final class Vertices implements GeometryComponentFilter {
        private Coordinate nonFinite;
        private Coordinate offTheGlobe;

        static Vertices of(Geometry geometry) {
            Vertices vertices = new Vertices();
            geometry.apply(vertices);
            return vertices;
        }

        @Override
        public void filter(Geometry component) {
            if (component instanceof LineString line) {
                scan(line.getCoordinateSequence());
            } else if (component instanceof Point point) {
                scan(point.getCoordinateSequence());
            }
        }

        private void scan(CoordinateSequence sequence) {
            for (int i = 0, n = sequence.size(); i < n && nonFinite == null; i++) {
                double x = sequence.getX(i);
                double y = sequence.getY(i);
                if (!Double.isFinite(x) || !Double.isFinite(y)) {
                    nonFinite = new Coordinate(x, y);
                } else if (offTheGlobe == null && (Math.abs(y) > MAX_LATITUDE || Math.abs(x) > MAX_LONGITUDE)) {
                    offTheGlobe = new Coordinate(x, y);
                }
            }
        }

        void requireFinite(Geometry geometry) {
            if (nonFinite != null) {
                throw new KeyingException(
                        Reason.NON_FINITE_COORDINATE,
                        "the feature's " + geometry.getGeometryType() + " has the coordinate (" + nonFinite.getX()
                                + ", " + nonFinite.getY() + ")");
            }
        }

        /** For longitude/latitude whose vertices are finite: the stored ones checked, or a reprojection's. */
        void requireOnTheGlobe() {
            Coordinate outside = offTheGlobe;
            if (outside == null) {
                return;
            }
            if (Math.abs(outside.getY()) > MAX_LATITUDE) {
                throw new KeyingException(
                        Reason.LATITUDE_OUT_OF_RANGE,
                        "latitude " + outside.getY() + " in EPSG:4326 is outside -90..90");
            }
            throw new KeyingException(
                    Reason.LONGITUDE_OUT_OF_RANGE,
                    "longitude " + outside.getX() + " in EPSG:4326 is outside -180..180");
        }
    }
}
