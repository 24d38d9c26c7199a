package dev.nifigeoparquet.archive.geo;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * A column's {@code crs} as GeoParquet defines it: absent means OGC:CRS84, an explicit JSON {@code null} means
 * the CRS is unknown, anything else is PROJJSON (kept as the parsed node).
 */
public record Crs(Kind kind, JsonNode projjson) {

    public enum Kind {
        DEFAULT_CRS84,
        UNKNOWN,
        PROJJSON
    }

    public static final Crs DEFAULT = new Crs(Kind.DEFAULT_CRS84, null);
    public static final Crs UNKNOWN = new Crs(Kind.UNKNOWN, null);

    public static Crs projjson(JsonNode node) {
        return new Crs(Kind.PROJJSON, node);
    }

    static Crs fromField(JsonNode column) {
        if (!column.has("crs")) {
            return DEFAULT;
        }
        JsonNode node = column.get("crs");
        return node.isNull() ? UNKNOWN : projjson(node);
    }

    public Optional<JsonNode> projjsonNode() {
        return Optional.ofNullable(projjson);
    }
}
