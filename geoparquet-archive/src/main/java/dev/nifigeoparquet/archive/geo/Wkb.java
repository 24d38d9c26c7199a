package dev.nifigeoparquet.archive.geo;

import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ByteOrderValues;
import org.locationtech.jts.io.WKBWriter;

/** Writes little-endian WKB with the geometry's own dimensions (XY, XYZ), as GeoParquet asks. */
public final class Wkb {

    private Wkb() {
    }

    public static byte[] write(Geometry geometry) {
        return new WKBWriter(hasZ(geometry) ? 3 : 2, ByteOrderValues.LITTLE_ENDIAN).write(geometry);
    }

    static boolean hasZ(Geometry geometry) {
        for (Coordinate coordinate : geometry.getCoordinates()) {
            if (!Double.isNaN(coordinate.getZ())) {
                return true;
            }
        }
        return false;
    }
}
