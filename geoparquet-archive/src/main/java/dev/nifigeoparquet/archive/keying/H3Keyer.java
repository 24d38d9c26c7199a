package dev.nifigeoparquet.archive.keying;

import dev.nifigeoparquet.archive.keying.KeyingException.Reason;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.Point;

/**
 * The one place that computes a feature's partition: the H3 cell, at the archive's pinned
 * resolution, of the feature's centroid in EPSG:4326.
 *
 * <p>The order is fixed: every coordinate is reprojected to EPSG:4326 first, then the JTS centroid
 * is taken in longitude/latitude, matching GeoPandas' {@code to_crs(4326).centroid}. For projected
 * CRSs the opposite order lands large features in different cells.
 *
 * <p>The centroid is planar in longitude/latitude degrees, so:
 * <ul>
 *   <li>a concave feature whose centroid lies outside it (a U shape) is keyed by that centroid;</li>
 *   <li>a feature crossing the antimeridian, stored with longitudes on both sides of ±180, is keyed by
 *       the planar average of those longitudes (near 0 rather than near 180). This is deterministic and
 *       matches GeoPandas; splitting such features is the writer's job, not the keyer's.</li>
 * </ul>
 *
 * <p>Thread-safe: one instance can serve all of a processor's concurrent tasks.
 */
public final class H3Keyer {

    private static final double MAX_LATITUDE = 90;
    private static final double MAX_LONGITUDE = 180;

    private final int resolution;
    private final CrsReprojector reprojector = new CrsReprojector();

    /** @param resolution the archive's pinned H3 resolution, 0..15 */
    public H3Keyer(int resolution) {
        this.resolution = H3Cells.requireResolution(resolution);
    }

    public int resolution() {
        return resolution;
    }

    /**
     * The canonical (lower-case hex) H3 cell of {@code geometry}, whose x/y are in {@code crs}.
     *
     * @throws KeyingException with the reason the feature cannot be keyed
     */
    public String cellOf(Geometry geometry, SourceCrs crs) {
        requireKeyable(geometry);
        Geometry lonLat = reprojector.reproject(geometry, crs, SourceCrs.CRS84);
        requireOnTheGlobe(lonLat);
        Point centroid = lonLat.getCentroid();
        return H3Cells.h3().latLngToCellAddress(centroid.getY(), centroid.getX(), resolution);
    }

    private static void requireKeyable(Geometry geometry) {
        if (geometry == null) {
            throw new KeyingException(Reason.NULL_GEOMETRY, "the feature has no geometry");
        }
        if (geometry.isEmpty()) {
            throw new KeyingException(Reason.EMPTY_GEOMETRY, "the feature's " + geometry.getGeometryType() + " is empty");
        }
        for (Coordinate c : geometry.getCoordinates()) {
            if (!Double.isFinite(c.getX()) || !Double.isFinite(c.getY())) {
                throw new KeyingException(Reason.NON_FINITE_COORDINATE,
                        "the feature's " + geometry.getGeometryType() + " has the coordinate (" + c.getX() + ", " + c.getY() + ")");
            }
        }
    }

    private static void requireOnTheGlobe(Geometry lonLat) {
        for (Coordinate c : lonLat.getCoordinates()) {
            if (Math.abs(c.getY()) > MAX_LATITUDE) {
                throw new KeyingException(Reason.LATITUDE_OUT_OF_RANGE,
                        "latitude " + c.getY() + " in EPSG:4326 is outside -90..90");
            }
            if (Math.abs(c.getX()) > MAX_LONGITUDE) {
                throw new KeyingException(Reason.LONGITUDE_OUT_OF_RANGE,
                        "longitude " + c.getX() + " in EPSG:4326 is outside -180..180");
            }
        }
    }
}
