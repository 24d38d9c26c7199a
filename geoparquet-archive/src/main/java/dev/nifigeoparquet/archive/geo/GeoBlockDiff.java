package dev.nifigeoparquet.archive.geo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A readable, JSON-level comparison of two {@code geo} blocks, for reports: which values differ at which path
 * ({@code columns.geometry.bbox}, {@code columns.geometry.crs}, ...), and whether only the key order differs.
 */
public final class GeoBlockDiff {

    /** One difference: the path, and the value on each side (a missing node when absent). */
    public record Difference(String path, JsonNode expected, JsonNode actual) {
        public JsonNode toJson() {
            ObjectNode node = JsonNodeFactory.instance.objectNode();
            node.put("path", path);
            node.set("expected", expected.isMissingNode() ? JsonNodeFactory.instance.textNode("(absent)") : expected);
            node.set("actual", actual.isMissingNode() ? JsonNodeFactory.instance.textNode("(absent)") : actual);
            return node;
        }
    }

    private GeoBlockDiff() {}

    /** Value differences between two blocks; empty when they are equal as JSON (key order ignored). */
    public static List<Difference> differences(JsonNode expected, JsonNode actual) {
        List<Difference> differences = new ArrayList<>();
        compare("", expected, actual, differences);
        return differences;
    }

    /** Whether two blocks hold the same values with their object keys in a different order. */
    public static boolean onlyKeyOrderDiffers(JsonNode expected, JsonNode actual) {
        return expected.equals(actual) && !expected.toString().equals(actual.toString());
    }

    public static ArrayNode toJson(List<Difference> differences) {
        ArrayNode array = JsonNodeFactory.instance.arrayNode();
        differences.forEach(difference -> array.add(difference.toJson()));
        return array;
    }

    private static void compare(String path, JsonNode expected, JsonNode actual, List<Difference> out) {
        if (expected.isObject() && actual.isObject()) {
            List<String> keys = new ArrayList<>();
            expected.fieldNames().forEachRemaining(keys::add);
            for (Iterator<String> names = actual.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                if (!keys.contains(name)) {
                    keys.add(name);
                }
            }
            for (String key : keys) {
                compare(path.isEmpty() ? key : path + "." + key, expected.path(key), actual.path(key), out);
            }
        } else if (!expected.equals(actual)) {
            out.add(new Difference(path, expected, actual));
        }
    }
}
