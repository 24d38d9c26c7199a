package dev.nifigeoparquet.archive.cells;

import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.KeyingException.Reason;
import java.util.HashMap;
import java.util.Map;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.proj4j.CRSFactory;
import org.locationtech.proj4j.CoordinateReferenceSystem;
import org.locationtech.proj4j.CoordinateTransform;
import org.locationtech.proj4j.CoordinateTransformFactory;
import org.locationtech.proj4j.Proj4jException;
import org.locationtech.proj4j.ProjCoordinate;

/**
 * Reprojects JTS geometries between two {@link SourceCrs}s: {@link H3Keyer} to reach longitude/latitude, and
 * callers that must hand geometries on in an archive's own CRS (a delta declared in EPSG:3857 bound for an
 * archive in OGC:CRS84, for example).
 *
 * <p>x/y are read and written as GeoParquet stores them (x = easting or longitude); z and m are kept.
 * All WGS 84 longitude/latitude CRSs ({@link SourceCrs#isWgs84LonLat()}) count as one, so converting between
 * them returns the geometry unchanged.
 *
 * <p>Safe for concurrent callers: proj4j transforms hold mutable state, so each thread builds and caches its own.
 */
public final class CrsReprojector {

    private static final String WGS84 = "EPSG:4326";

    private record Pair(SourceCrs from, SourceCrs to) {}

    private final ThreadLocal<Map<Pair, CoordinateTransform>> transforms = ThreadLocal.withInitial(HashMap::new);

    /** Whether converting between the two CRSs changes coordinates at all. */
    public static boolean isIdentity(SourceCrs from, SourceCrs to) {
        return from.equals(to) || (from.isWgs84LonLat() && to.isWgs84LonLat());
    }

    /**
     * {@code geometry} (x/y in {@code from}) with its x/y in {@code to}: a reprojected copy, or the geometry itself
     * when the two CRSs share coordinates.
     *
     * @throws KeyingException with {@link Reason#REPROJECTION_FAILED} when a coordinate has no position in {@code to}
     */
    public Geometry reproject(Geometry geometry, SourceCrs from, SourceCrs to) {
        if (geometry == null || isIdentity(from, to)) {
            return geometry;
        }
        CoordinateTransform transform =
                transforms.get().computeIfAbsent(new Pair(from, to), CrsReprojector::newTransform);
        Geometry reprojected = geometry.copy();
        try {
            reprojected.apply(new TransformFilter(transform, from, to));
        } catch (Proj4jException e) {
            throw new KeyingException(
                    Reason.REPROJECTION_FAILED,
                    "cannot reproject from " + from + " to " + to + ": " + e.getMessage(),
                    e);
        }
        reprojected.geometryChanged();
        return reprojected;
    }

    private static CoordinateTransform newTransform(Pair pair) {
        return new CoordinateTransformFactory().createTransform(proj4j(pair.from()), proj4j(pair.to()));
    }

    /** proj4j knows WGS 84 longitude/latitude as EPSG:4326 (x = longitude), not by its OGC names. */
    private static CoordinateReferenceSystem proj4j(SourceCrs crs) {
        return crs.isWgs84LonLat() ? new CRSFactory().createFromName(WGS84) : crs.newProj4jCrs();
    }

    private static final class TransformFilter implements CoordinateSequenceFilter {
        private final CoordinateTransform transform;
        private final SourceCrs from;
        private final SourceCrs to;
        private final ProjCoordinate in = new ProjCoordinate();
        private final ProjCoordinate out = new ProjCoordinate();

        TransformFilter(CoordinateTransform transform, SourceCrs from, SourceCrs to) {
            this.transform = transform;
            this.from = from;
            this.to = to;
        }

        @Override
        public void filter(CoordinateSequence sequence, int i) {
            in.setValue(sequence.getX(i), sequence.getY(i));
            transform.transform(in, out);
            if (!Double.isFinite(out.x) || !Double.isFinite(out.y)) {
                throw new KeyingException(
                        Reason.REPROJECTION_FAILED,
                        "(" + in.x + ", " + in.y + ") in " + from + " has no position in " + to);
            }
            sequence.setOrdinate(i, CoordinateSequence.X, out.x);
            sequence.setOrdinate(i, CoordinateSequence.Y, out.y);
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
}
