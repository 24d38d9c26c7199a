package dev.nifigeoparquet.archive.geojson;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateXYZM;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;

/**
 * Reads a GeoJSON geometry object (RFC 7946, section 3.1) into JTS. JTS's own GeoJSON reader lives outside
 * jts-core, and the seven geometry types are small enough to read here. A third position element becomes z; a
 * fourth is kept as m.
 */
public final class GeoJsonGeometry {

    private final GeometryFactory factory;
    private final boolean fromRecords;

    /** Strict RFC 7946 geometries, as a GeoJSON file holds them. */
    public GeoJsonGeometry(GeometryFactory factory) {
        this(factory, false);
    }

    private GeoJsonGeometry(GeometryFactory factory, boolean fromRecords) {
        this.factory = factory;
        this.fromRecords = fromRecords;
    }

    /**
     * Geometries as a NiFi record reader hands them over: numbers may arrive as text (NaN and Infinity always do), a
     * whole Feature stands for its geometry, and a position's x, y and z are read (further elements ignored).
     */
    public static GeoJsonGeometry forRecords(GeometryFactory factory) {
        return new GeoJsonGeometry(factory, true);
    }

    /** The geometry; {@code null} for a JSON null (a feature without geometry). */
    public Geometry read(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            throw new RejectedInputException("a GeoJSON geometry must be an object, not " + node.getNodeType());
        }
        String type = node.path("type").asText("");
        if (fromRecords && type.equals("Feature")) {
            JsonNode geometry = node.get("geometry");
            if (geometry == null || !geometry.isObject()) {
                throw new RejectedInputException("a GeoJSON geometry must be an object, not "
                        + (geometry == null ? "null" : geometry.getNodeType()));
            }
            return read(geometry);
        }
        if (type.equals("GeometryCollection")) {
            JsonNode members = node.path("geometries");
            Geometry[] geometries = new Geometry[members.size()];
            for (int i = 0; i < geometries.length; i++) {
                geometries[i] = read(members.get(i));
            }
            return factory.createGeometryCollection(geometries);
        }
        JsonNode coordinates = node.get("coordinates");
        if (coordinates == null || !coordinates.isArray()) {
            throw new RejectedInputException(
                    "GeoJSON " + (type.isEmpty() ? "object" : type) + " has no 'coordinates' array");
        }
        return switch (type) {
            case "Point" -> point(coordinates);
            case "LineString" -> factory.createLineString(positions(coordinates));
            case "Polygon" -> polygon(coordinates);
            case "MultiPoint" -> {
                Point[] points = new Point[coordinates.size()];
                for (int i = 0; i < points.length; i++) {
                    points[i] = point(coordinates.get(i));
                }
                yield factory.createMultiPoint(points);
            }
            case "MultiLineString" -> {
                LineString[] lines = new LineString[coordinates.size()];
                for (int i = 0; i < lines.length; i++) {
                    lines[i] = factory.createLineString(positions(coordinates.get(i)));
                }
                yield factory.createMultiLineString(lines);
            }
            case "MultiPolygon" -> {
                Polygon[] polygons = new Polygon[coordinates.size()];
                for (int i = 0; i < polygons.length; i++) {
                    polygons[i] = polygon(coordinates.get(i));
                }
                yield factory.createMultiPolygon(polygons);
            }
            default -> throw new RejectedInputException("'" + type + "' is not a GeoJSON geometry type");
        };
    }

    private Point point(JsonNode position) {
        return position.isEmpty() ? factory.createPoint() : factory.createPoint(position(position));
    }

    private Polygon polygon(JsonNode rings) {
        if (rings.isEmpty()) {
            return factory.createPolygon();
        }
        LinearRing shell = ring(rings.get(0));
        LinearRing[] holes = new LinearRing[rings.size() - 1];
        for (int i = 1; i < rings.size(); i++) {
            holes[i - 1] = ring(rings.get(i));
        }
        return factory.createPolygon(shell, holes);
    }

    private LinearRing ring(JsonNode positions) {
        try {
            return factory.createLinearRing(positions(positions));
        } catch (IllegalArgumentException e) {
            throw new RejectedInputException("invalid polygon ring: " + e.getMessage(), e);
        }
    }

    private Coordinate[] positions(JsonNode positions) {
        if (!positions.isArray()) {
            throw new RejectedInputException("expected an array of positions, found " + positions.getNodeType());
        }
        Coordinate[] coordinates = new Coordinate[positions.size()];
        for (int i = 0; i < coordinates.length; i++) {
            coordinates[i] = position(positions.get(i));
        }
        return coordinates;
    }

    private Coordinate position(JsonNode position) {
        if (fromRecords) {
            if (!position.isArray() || position.size() < 2) {
                throw new RejectedInputException(
                        "a position must be an array of two or three numbers, found " + position);
            }
            double x = number(position.get(0));
            double y = number(position.get(1));
            return position.size() > 2 ? new Coordinate(x, y, number(position.get(2))) : new Coordinate(x, y);
        }
        if (!position.isArray() || position.size() < 2) {
            throw new RejectedInputException("a position needs at least two numbers, found " + position);
        }
        for (JsonNode value : position) {
            if (!value.isNumber()) {
                throw new RejectedInputException("a position holds numbers only, found " + position);
            }
        }
        double x = position.get(0).doubleValue();
        double y = position.get(1).doubleValue();
        return switch (position.size()) {
            case 2 -> new Coordinate(x, y);
            case 3 -> new Coordinate(x, y, position.get(2).doubleValue());
            default ->
                new CoordinateXYZM(
                        x, y, position.get(2).doubleValue(), position.get(3).doubleValue());
        };
    }

    /** A coordinate of a record's geometry: a number, or text holding one. */
    private static double number(JsonNode value) {
        if (value.isNumber()) {
            return value.doubleValue();
        }
        if (value.isTextual()) {
            try {
                return Double.parseDouble(value.textValue());
            } catch (NumberFormatException e) {
                throw new RejectedInputException("'" + value.textValue() + "' is not a number");
            }
        }
        throw new RejectedInputException("a coordinate must be a number, found " + value.getNodeType());
    }
}
