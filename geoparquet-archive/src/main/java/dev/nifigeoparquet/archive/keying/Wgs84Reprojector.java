package dev.nifigeoparquet.archive.keying;

import dev.nifigeoparquet.archive.keying.KeyingException.Reason;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.CoordinateSequenceFilter;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.proj4j.CRSFactory;
import org.locationtech.proj4j.CoordinateTransform;
import org.locationtech.proj4j.CoordinateTransformFactory;
import org.locationtech.proj4j.Proj4jException;
import org.locationtech.proj4j.ProjCoordinate;

import java.util.HashMap;
import java.util.Map;

/**
 * Reprojects JTS geometries to EPSG:4326 longitude/latitude. Safe for concurrent callers: proj4j
 * transforms hold mutable state, so each thread builds and caches its own, one per source CRS.
 */
final class Wgs84Reprojector {

    private static final String WGS84 = "EPSG:4326";

    private final ThreadLocal<Map<SourceCrs, CoordinateTransform>> transforms = ThreadLocal.withInitial(HashMap::new);

    /** A reprojected copy of {@code geometry}, or {@code geometry} itself when it is already lon/lat. */
    Geometry toWgs84(Geometry geometry, SourceCrs crs) {
        if (crs.isWgs84LonLat()) {
            return geometry;
        }
        CoordinateTransform transform = transforms.get().computeIfAbsent(crs, Wgs84Reprojector::newTransform);
        Geometry reprojected = geometry.copy();
        try {
            reprojected.apply(new TransformFilter(transform, crs));
        } catch (Proj4jException e) {
            throw new KeyingException(Reason.REPROJECTION_FAILED,
                    "cannot reproject from " + crs + " to " + WGS84 + ": " + e.getMessage(), e);
        }
        return reprojected;
    }

    private static CoordinateTransform newTransform(SourceCrs crs) {
        return new CoordinateTransformFactory().createTransform(crs.newProj4jCrs(), new CRSFactory().createFromName(WGS84));
    }

    /** Rewrites x/y of every coordinate in place; z and m are not needed for keying and stay as they are. */
    private static final class TransformFilter implements CoordinateSequenceFilter {
        private final CoordinateTransform transform;
        private final SourceCrs crs;
        private final ProjCoordinate in = new ProjCoordinate();
        private final ProjCoordinate out = new ProjCoordinate();

        TransformFilter(CoordinateTransform transform, SourceCrs crs) {
            this.transform = transform;
            this.crs = crs;
        }

        @Override
        public void filter(CoordinateSequence sequence, int i) {
            in.setValue(sequence.getX(i), sequence.getY(i));
            transform.transform(in, out);
            if (!Double.isFinite(out.x) || !Double.isFinite(out.y)) {
                // proj4j returns NaN or infinity rather than failing for points outside a projection's domain.
                throw new KeyingException(Reason.REPROJECTION_FAILED, "(" + in.x + ", " + in.y + ") in " + crs
                        + " has no position in " + WGS84);
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
