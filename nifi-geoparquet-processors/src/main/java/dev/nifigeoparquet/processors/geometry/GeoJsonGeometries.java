package dev.nifigeoparquet.processors.geometry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.nifi.serialization.record.Record;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;

/**
 * Reads GeoJSON geometries (RFC 7946, section 3.1) into JTS, from a JSON string or from the nested record or map
 * a record reader makes of one. JTS's own GeoJSON reader lives outside jts-core; the format's seven geometry types
 * are small enough to read here without another dependency.
 */
final class GeoJsonGeometries {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final GeometryFactory factory;

    GeoJsonGeometries(GeometryFactory factory) {
        this.factory = factory;
    }

    /** A geometry from a JSON string, a nested {@link Record}, or a {@link Map}. */
    Geometry read(Object value) {
        JsonNode node;
        if (value instanceof String text) {
            try {
                node = JSON.readTree(text);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
            }
        } else {
            node = toJson(value);
        }
        return geometry(node);
    }

    private Geometry geometry(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("a GeoJSON geometry must be an object, not " + (node == null ? "null" : node.getNodeType()));
        }
        String type = node.path("type").asText("");
        if (type.equals("Feature")) {
            return geometry(node.get("geometry"));
        }
        if (type.equals("GeometryCollection")) {
            JsonNode members = node.path("geometries");
            Geometry[] geometries = new Geometry[members.size()];
            for (int i = 0; i < geometries.length; i++) {
                geometries[i] = geometry(members.get(i));
            }
            return factory.createGeometryCollection(geometries);
        }
        JsonNode coordinates = node.get("coordinates");
        if (coordinates == null || !coordinates.isArray()) {
            throw new IllegalArgumentException("GeoJSON " + (type.isEmpty() ? "object" : type) + " has no 'coordinates' array");
        }
        return switch (type) {
            case "Point" -> point(coordinates);
            case "LineString" -> lineString(coordinates);
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
                    lines[i] = lineString(coordinates.get(i));
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
            default -> throw new IllegalArgumentException("'" + type + "' is not a GeoJSON geometry type");
        };
    }

    private Point point(JsonNode position) {
        return position.isEmpty() ? factory.createPoint() : factory.createPoint(coordinate(position));
    }

    private LineString lineString(JsonNode positions) {
        return factory.createLineString(coordinates(positions));
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
            return factory.createLinearRing(coordinates(positions));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid polygon ring: " + e.getMessage());
        }
    }

    private Coordinate[] coordinates(JsonNode positions) {
        if (!positions.isArray()) {
            throw new IllegalArgumentException("expected an array of positions, found " + positions.getNodeType());
        }
        Coordinate[] coordinates = new Coordinate[positions.size()];
        for (int i = 0; i < coordinates.length; i++) {
            coordinates[i] = coordinate(positions.get(i));
        }
        return coordinates;
    }

    private static Coordinate coordinate(JsonNode position) {
        if (!position.isArray() || position.size() < 2) {
            throw new IllegalArgumentException("a position must be an array of two or three numbers, found " + position);
        }
        double x = number(position.get(0));
        double y = number(position.get(1));
        return position.size() > 2 ? new Coordinate(x, y, number(position.get(2))) : new Coordinate(x, y);
    }

    private static double number(JsonNode value) {
        if (value.isNumber()) {
            return value.doubleValue();
        }
        if (value.isTextual()) {
            // Record readers may hand numbers on as text; NaN and Infinity arrive this way too.
            try {
                return Double.parseDouble(value.textValue());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + value.textValue() + "' is not a number");
            }
        }
        throw new IllegalArgumentException("a coordinate must be a number, found " + value.getNodeType());
    }

    /** A JSON tree of what a record reader makes of a nested object: records, maps, arrays and scalars. */
    private static JsonNode toJson(Object value) {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        if (value == null) {
            return nodes.nullNode();
        }
        if (value instanceof Record record) {
            ObjectNode object = nodes.objectNode();
            for (String name : record.getRawFieldNames()) {
                object.set(name, toJson(record.getValue(name)));
            }
            return object;
        }
        if (value instanceof Map<?, ?> map) {
            ObjectNode object = nodes.objectNode();
            map.forEach((key, member) -> object.set(String.valueOf(key), toJson(member)));
            return object;
        }
        if (value instanceof Object[] array) {
            ArrayNode list = nodes.arrayNode();
            for (Object member : array) {
                list.add(toJson(member));
            }
            return list;
        }
        if (value instanceof Collection<?> collection) {
            ArrayNode list = nodes.arrayNode();
            collection.forEach(member -> list.add(toJson(member)));
            return list;
        }
        if (value instanceof BigDecimal decimal) {
            return nodes.numberNode(decimal);
        }
        if (value instanceof BigInteger integer) {
            return nodes.numberNode(integer);
        }
        if (value instanceof Number number) {
            return nodes.numberNode(number.doubleValue());
        }
        return nodes.textNode(String.valueOf(value));
    }
}
