package dev.nifigeoparquet.processors.geometry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.geojson.GeoJsonGeometry;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Collection;
import java.util.Map;
import org.apache.nifi.serialization.record.Record;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * Reads GeoJSON geometries (RFC 7946, section 3.1) into JTS, from a JSON string or from the nested record or map
 * a record reader makes of one. The parsing itself is the engine's ({@link GeoJsonGeometry#forRecords}); this
 * class turns what a record reader delivers into the JSON tree it reads.
 */
final class GeoJsonGeometries {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final GeoJsonGeometry reader;

    GeoJsonGeometries(GeometryFactory factory) {
        this.reader = GeoJsonGeometry.forRecords(factory);
    }

    /** A geometry from a JSON string, a nested {@link Record}, or a {@link Map}. */
    Geometry read(Object value) {
        JsonNode node;
        if (value instanceof String text) {
            try {
                node = JSON.readTree(text);
            } catch (JsonProcessingException e) {
                throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
            }
        } else {
            node = toJson(value);
        }
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException(
                    "a GeoJSON geometry must be an object, not " + (node == null ? "null" : node.getNodeType()));
        }
        return reader.read(node);
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
