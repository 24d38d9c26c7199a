package dev.nifigeoparquet.archive.geo;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.EnumSet;
import java.util.function.Predicate;
import org.locationtech.jts.geom.CoordinateSequence;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.ByteOrderValues;
import org.locationtech.jts.io.Ordinate;
import org.locationtech.jts.io.OutStream;
import org.locationtech.jts.io.WKBWriter;

/**
 * Writes little-endian ISO WKB with the geometry's own ordinates (XY, XYZ, XYM, XYZM), as GeoParquet requires.
 *
 * <p>JTS writes Z and M as the EWKB flag bits (0x80000000, 0x40000000) instead of ISO's +1000/+2000 type codes.
 * The coordinates are laid out the same in both, so the JTS output is kept and only each geometry header's
 * type code is translated as it is written: a header is the 4-byte write that follows the 1-byte byte-order mark.
 */
public final class Wkb {

    private static final int EWKB_Z = 0x80000000;
    private static final int EWKB_M = 0x40000000;
    private static final int EWKB_SRID = 0x20000000;

    private Wkb() {}

    public static byte[] write(Geometry geometry) {
        boolean hasZ = hasZ(geometry);
        boolean hasM = hasM(geometry);
        EnumSet<Ordinate> ordinates = EnumSet.of(Ordinate.X, Ordinate.Y);
        if (hasZ) {
            ordinates.add(Ordinate.Z);
        }
        if (hasM) {
            ordinates.add(Ordinate.M);
        }
        WKBWriter writer = new WKBWriter(ordinates.size(), ByteOrderValues.LITTLE_ENDIAN);
        writer.setOutputOrdinates(ordinates);
        IsoTypeCodes out = new IsoTypeCodes();
        try {
            writer.write(geometry, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // in-memory stream: cannot happen
        }
        return out.bytes.toByteArray();
    }

    static boolean hasZ(Geometry geometry) {
        return anySequence(geometry, sequence -> {
            if (!sequence.hasZ()) {
                return false;
            }
            for (int i = 0; i < sequence.size(); i++) {
                if (!Double.isNaN(sequence.getZ(i))) {
                    return true;
                }
            }
            return false;
        });
    }

    static boolean hasM(Geometry geometry) {
        return anySequence(geometry, CoordinateSequence::hasM);
    }

    private static boolean anySequence(Geometry geometry, Predicate<CoordinateSequence> test) {
        if (geometry instanceof Point point) {
            return test.test(point.getCoordinateSequence());
        }
        if (geometry instanceof LineString line) {
            return test.test(line.getCoordinateSequence());
        }
        if (geometry instanceof Polygon polygon) {
            if (test.test(polygon.getExteriorRing().getCoordinateSequence())) {
                return true;
            }
            for (int i = 0; i < polygon.getNumInteriorRing(); i++) {
                if (test.test(polygon.getInteriorRingN(i).getCoordinateSequence())) {
                    return true;
                }
            }
            return false;
        }
        if (geometry instanceof GeometryCollection collection) {
            for (int i = 0; i < collection.getNumGeometries(); i++) {
                if (anySequence(collection.getGeometryN(i), test)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Rewrites the type code after each byte-order mark from EWKB flags to ISO numbering. */
    private static final class IsoTypeCodes implements OutStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private boolean afterByteOrderMark;

        @Override
        public void write(byte[] buffer, int length) {
            if (afterByteOrderMark && length == 4) {
                ByteBuffer code = ByteBuffer.wrap(buffer, 0, 4).order(ByteOrder.LITTLE_ENDIAN);
                int ewkb = code.getInt(0);
                int iso = (ewkb & ~(EWKB_Z | EWKB_M | EWKB_SRID))
                        + ((ewkb & EWKB_Z) != 0 ? 1000 : 0)
                        + ((ewkb & EWKB_M) != 0 ? 2000 : 0);
                byte[] translated = ByteBuffer.allocate(4)
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .putInt(iso)
                        .array();
                bytes.write(translated, 0, 4);
            } else {
                bytes.write(buffer, 0, length);
            }
            afterByteOrderMark = length == 1;
        }
    }
}
