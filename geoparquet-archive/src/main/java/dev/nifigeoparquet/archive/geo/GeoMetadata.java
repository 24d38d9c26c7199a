package dev.nifigeoparquet.archive.geo;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An immutable, parsed view over the raw bytes of a file's {@code geo} footer entry. The bytes themselves are
 * kept unchanged ({@link #rawBytes()}): the archive copies them into new files, it never re-serialises them.
 */
public final class GeoMetadata {

    static final ObjectMapper JSON = new ObjectMapper();

    private final byte[] raw;
    private final String version;
    private final String primaryColumn;
    private final Map<String, GeoColumn> columns;

    private GeoMetadata(byte[] raw, String version, String primaryColumn, Map<String, GeoColumn> columns) {
        this.raw = raw;
        this.version = version;
        this.primaryColumn = primaryColumn;
        this.columns = Collections.unmodifiableMap(columns);
    }

    /** Parses the footer value as written in the file (UTF-8 JSON). */
    public static GeoMetadata parse(String footerValue) {
        return parse(footerValue.getBytes(StandardCharsets.UTF_8));
    }

    public static GeoMetadata parse(byte[] raw) {
        JsonNode root;
        try {
            root = JSON.readTree(raw);
        } catch (IOException e) {
            throw new IllegalArgumentException("geo metadata is not valid JSON: " + e.getMessage(), e);
        }
        if (root == null || !root.isObject()) {
            throw new IllegalArgumentException("geo metadata must be a JSON object");
        }
        String version = requiredText(root, "version", "geo metadata");
        String primary = requiredText(root, "primary_column", "geo metadata");
        JsonNode columnsNode = root.get("columns");
        if (columnsNode == null || !columnsNode.isObject()) {
            throw new IllegalArgumentException("geo metadata has no 'columns' object");
        }
        Map<String, GeoColumn> columns = new LinkedHashMap<>();
        columnsNode
                .properties()
                .forEach(entry -> columns.put(entry.getKey(), column(entry.getKey(), entry.getValue())));
        if (!columns.containsKey(primary)) {
            throw new IllegalArgumentException(
                    "geo primary_column '" + primary + "' is not among its columns " + columns.keySet());
        }
        return new GeoMetadata(raw.clone(), version, primary, columns);
    }

    private static GeoColumn column(String name, JsonNode node) {
        String where = "geo column '" + name + "'";
        GeometryEncoding encoding = GeometryEncoding.fromJson(requiredText(node, "encoding", where));
        List<String> types = new ArrayList<>();
        node.path("geometry_types").forEach(type -> types.add(type.asText()));
        Optional<String> orientation =
                Optional.ofNullable(node.get("orientation")).map(JsonNode::asText);
        String edges = node.path("edges").asText(GeoColumn.PLANAR);
        Optional<List<Double>> bbox = Optional.ofNullable(node.get("bbox")).map(GeoMetadata::doubles);
        Optional<Map<String, List<String>>> covering =
                Optional.ofNullable(node.path("covering").get("bbox")).map(GeoMetadata::coveringPaths);
        return new GeoColumn(encoding, types, Crs.fromField(node), orientation, edges, bbox, covering);
    }

    private static List<Double> doubles(JsonNode array) {
        List<Double> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asDouble()));
        return values;
    }

    private static Map<String, List<String>> coveringPaths(JsonNode bbox) {
        Map<String, List<String>> paths = new LinkedHashMap<>();
        bbox.properties().forEach(entry -> {
            List<String> path = new ArrayList<>();
            entry.getValue().forEach(part -> path.add(part.asText()));
            paths.put(entry.getKey(), List.copyOf(path));
        });
        return paths;
    }

    private static String requiredText(JsonNode node, String field, String where) {
        JsonNode value = node.get(field);
        if (value == null || !value.isTextual()) {
            throw new IllegalArgumentException(where + " has no text field '" + field + "'");
        }
        return value.asText();
    }

    /** The exact bytes this view was parsed from. */
    public byte[] rawBytes() {
        return raw.clone();
    }

    /** The exact footer value this view was parsed from. */
    public String rawString() {
        return new String(raw, StandardCharsets.UTF_8);
    }

    public String version() {
        return version;
    }

    public String primaryColumn() {
        return primaryColumn;
    }

    /** Geometry columns in the order the metadata lists them. */
    public Map<String, GeoColumn> columns() {
        return columns;
    }

    public GeoColumn column(String name) {
        GeoColumn column = columns.get(name);
        if (column == null) {
            throw new IllegalArgumentException(
                    "'" + name + "' is not a geometry column; geo lists " + columns.keySet());
        }
        return column;
    }

    public GeoColumn primary() {
        return columns.get(primaryColumn);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Creates the GeoParquet 1.1.0 block of an archive made from settings: WKB, PROJJSON CRS or CRS84. */
    public static final class Builder {
        public static final String VERSION = "1.1.0";

        private final Map<String, Map<String, Object>> columns = new LinkedHashMap<>();
        private String primaryColumn;

        private Builder() {}

        /**
         * Adds a WKB column.
         *
         * @param crsProjjson PROJJSON of the CRS, or {@code null} to leave {@code crs} out (meaning OGC:CRS84)
         * @param coveringColumn name of the top-level bbox struct column, or {@code null} for no covering
         */
        public Builder wkbColumn(String name, List<String> geometryTypes, JsonNode crsProjjson, String coveringColumn) {
            Map<String, Object> column = new LinkedHashMap<>();
            column.put("encoding", GeometryEncoding.WKB.jsonName());
            column.put("geometry_types", List.copyOf(geometryTypes));
            if (crsProjjson != null) {
                column.put("crs", crsProjjson);
            }
            if (coveringColumn != null) {
                Map<String, List<String>> bbox = new LinkedHashMap<>();
                for (String key : List.of("xmin", "ymin", "xmax", "ymax")) {
                    bbox.put(key, List.of(coveringColumn, key));
                }
                column.put("covering", Map.of("bbox", bbox));
            }
            columns.put(name, column);
            if (primaryColumn == null) {
                primaryColumn = name;
            }
            return this;
        }

        public Builder primaryColumn(String name) {
            this.primaryColumn = name;
            return this;
        }

        /** Sets a further field of a column already added, e.g. {@code edges} or {@code orientation}. */
        public Builder columnField(String column, String field, Object value) {
            Map<String, Object> entry = columns.get(column);
            if (entry == null) {
                throw new IllegalArgumentException("No column '" + column + "' added yet");
            }
            entry.put(field, value);
            return this;
        }

        public GeoMetadata build() {
            if (primaryColumn == null) {
                throw new IllegalStateException("geo metadata needs at least one column");
            }
            Map<String, Object> root = new LinkedHashMap<>();
            root.put("version", VERSION);
            root.put("primary_column", primaryColumn);
            root.put("columns", columns);
            try {
                return parse(JSON.writeValueAsBytes(root));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException("Cannot serialise geo metadata", e);
            }
        }
    }
}
