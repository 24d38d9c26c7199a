package dev.nifigeoparquet.archive.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nifigeoparquet.archive.error.KeyingException;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

class CrsReprojectorTest {

    private static final GeometryFactory FACTORY = new GeometryFactory();
    private final CrsReprojector reprojector = new CrsReprojector();

    @Test
    void webMercatorToLonLatAndBack() {
        SourceCrs mercator = SourceCrs.declared("EPSG:3857");
        Geometry lonLat = FACTORY.createPoint(new Coordinate(13.4, 52.5));
        Geometry projected = reprojector.reproject(lonLat, SourceCrs.CRS84, mercator);
        assertEquals(1_491_681.0, projected.getCoordinate().x, 1.0);
        assertEquals(6_891_041.0, projected.getCoordinate().y, 1.0);
        Geometry back = reprojector.reproject(projected, mercator, SourceCrs.CRS84);
        assertEquals(13.4, back.getCoordinate().x, 1e-9);
        assertEquals(52.5, back.getCoordinate().y, 1e-9);
        assertEquals(13.4, lonLat.getCoordinate().x, 0.0, "the input is not modified");
    }

    @Test
    void lonLatCrssShareCoordinates() {
        Geometry point = FACTORY.createPoint(new Coordinate(1, 2));
        assertSame(point, reprojector.reproject(point, SourceCrs.CRS84, SourceCrs.declared("EPSG:4326")));
    }

    @Test
    void coordinateWithoutAPositionFails() {
        Geometry broken = FACTORY.createPoint(new Coordinate(Double.NaN, 0));
        KeyingException e = assertThrows(
                KeyingException.class,
                () -> reprojector.reproject(broken, SourceCrs.declared("EPSG:3857"), SourceCrs.CRS84));
        assertEquals(KeyingException.Reason.REPROJECTION_FAILED, e.reason());
    }
}
