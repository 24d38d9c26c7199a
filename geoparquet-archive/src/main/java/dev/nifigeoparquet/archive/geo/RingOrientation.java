package dev.nifigeoparquet.archive.geo;

import org.locationtech.jts.algorithm.Orientation;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryCollection;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.MultiPolygon;
import org.locationtech.jts.geom.Polygon;

/**
 * Puts polygon rings in the order GeoParquet's {@code orientation: "counterclockwise"} demands: exterior rings
 * counterclockwise, holes clockwise. (JTS's own {@code normalize()} does the opposite, so it cannot be used.)
 */
public final class RingOrientation {

    private RingOrientation() {}

    public static Geometry counterclockwise(Geometry geometry) {
        if (geometry == null || geometry.isEmpty()) {
            return geometry;
        }
        GeometryFactory factory = geometry.getFactory();
        if (geometry instanceof Polygon polygon) {
            return orient(polygon);
        }
        if (geometry instanceof MultiPolygon multi) {
            Polygon[] parts = new Polygon[multi.getNumGeometries()];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = orient((Polygon) multi.getGeometryN(i));
            }
            return factory.createMultiPolygon(parts);
        }
        if (geometry instanceof GeometryCollection collection && collection.getClass() == GeometryCollection.class) {
            Geometry[] parts = new Geometry[collection.getNumGeometries()];
            for (int i = 0; i < parts.length; i++) {
                parts[i] = counterclockwise(collection.getGeometryN(i));
            }
            return factory.createGeometryCollection(parts);
        }
        return geometry;
    }

    private static Polygon orient(Polygon polygon) {
        if (polygon.isEmpty()) {
            return polygon;
        }
        LinearRing shell = oriented(polygon.getExteriorRing(), true);
        LinearRing[] holes = new LinearRing[polygon.getNumInteriorRing()];
        for (int i = 0; i < holes.length; i++) {
            holes[i] = oriented(polygon.getInteriorRingN(i), false);
        }
        return polygon.getFactory().createPolygon(shell, holes);
    }

    private static LinearRing oriented(LinearRing ring, boolean counterclockwise) {
        boolean isCcw = Orientation.isCCW(ring.getCoordinateSequence());
        return isCcw == counterclockwise ? ring : ring.reverse();
    }
}
