package dev.nifigeoparquet.archive.geojson;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.CrsReprojector;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.WriteMode;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * Reads a GeoJSON FeatureCollection (RFC 7946) as delta rows in an archive's exact schema: each feature's
 * {@code properties} fill the columns of the same name, its {@code geometry} fills the geometry column (reprojected
 * from GeoJSON's OGC:CRS84 into the archive's CRS and encoded as the archive encodes it), and its {@code id} fills a
 * single key column that the properties leave out. Features are streamed; only the rows are kept.
 *
 * <p>Values are converted exactly or refused: an integer column takes integral numbers that fit, a timestamp column
 * takes an ISO-8601 instant (or a local date-time for a column that is not UTC-adjusted) or a number in the column's
 * unit, a date column takes an ISO date. A property that is not a column is refused (schema evolution is not
 * supported), except the delete-marker property, whose {@code true} makes the feature a deletion of its key.
 */
public final class GeoJsonFeatureReader {

    private static final int PROBLEM_LIMIT = 100;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final MessageType schema;
    private final String geometryColumn;
    private final List<String> keyColumns;
    private final GeometryCodec codec;
    private final SourceCrs archiveCrs;
    private final WriteMode mode;
    private final String deleteMarker;
    private final GeoJsonGeometry geometries = new GeoJsonGeometry(new GeometryFactory());
    private final CrsReprojector reprojector = new CrsReprojector();
    private long featuresWithDeleteMarker;

    /**
     * @param mode         in {@link WriteMode#DELETE} every feature deletes its key and only the key is read
     * @param deleteMarker a boolean property whose {@code true} marks a deletion; null when none
     */
    public GeoJsonFeatureReader(GeoParquetArchive archive, WriteMode mode, String deleteMarker) {
        this.schema = archive.schema();
        this.geometryColumn = archive.descriptor().geometryColumn();
        this.keyColumns = archive.descriptor().keyColumns();
        this.codec = archive.geometryCodec();
        this.archiveCrs = archive.sourceCrs();
        this.mode = mode;
        this.deleteMarker = deleteMarker;
    }

    /**
     * Every feature of the collection as a delta row, in file order.
     *
     * @throws DeltaRejectedException when the input is not a JSON FeatureCollection, or naming each feature that cannot
     *                                be converted; nothing is returned then
     * @throws IOException            when the input cannot be read
     */
    public List<DeltaRow> read(InputStream in, String source) throws IOException {
        List<DeltaRow> rows = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String type = null;
        boolean sawFeatures = false;
        try (JsonParser parser = JSON.createParser(in)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new DeltaRejectedException(
                        "GeoJSON delta rejected, nothing was written",
                        source + " is not a GeoJSON FeatureCollection: it does not start with a JSON object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String field = parser.currentName();
                JsonToken value = parser.nextToken();
                if (field.equals("type") && value == JsonToken.VALUE_STRING) {
                    type = parser.getText();
                } else if (field.equals("features") && value == JsonToken.START_ARRAY) {
                    sawFeatures = true;
                    long index = 0;
                    while (parser.nextToken() != JsonToken.END_ARRAY) {
                        JsonNode feature = parser.readValueAsTree();
                        long featureIndex = index++;
                        try {
                            rows.add(toRow(feature));
                        } catch (IllegalArgumentException e) {
                            if (problems.size() < PROBLEM_LIMIT) {
                                problems.add("feature " + featureIndex + ": " + e.getMessage());
                            }
                        }
                    }
                } else {
                    parser.skipChildren();
                }
            }
        } catch (JsonProcessingException e) {
            throw new DeltaRejectedException(
                    "GeoJSON delta rejected, nothing was written",
                    source + " is not valid JSON" + where(e) + ": " + whatIsWrong(e));
        }
        if (!"FeatureCollection".equals(type) || !sawFeatures) {
            throw new DeltaRejectedException(
                    "GeoJSON delta rejected, nothing was written",
                    source + " is not a GeoJSON FeatureCollection (type "
                            + (type == null ? "missing" : "'" + type + "'")
                            + (sawFeatures ? "" : ", no 'features' array") + ")");
        }
        if (!problems.isEmpty()) {
            throw new DeltaRejectedException("GeoJSON delta " + source + " rejected, nothing was written", problems);
        }
        return rows;
    }

    /** How many features read so far carry the delete-marker property (true or false). */
    public long featuresWithDeleteMarker() {
        return featuresWithDeleteMarker;
    }

    private static String where(JsonProcessingException e) {
        var location = e.getLocation();
        return location == null || location.getLineNr() < 1
                ? ""
                : " at line " + location.getLineNr() + ", column " + location.getColumnNr();
    }

    /**
     * The parser's complaint in terms of the file. NaN and Infinity are the usual case: Python's json module writes
     * them for floating-point values it cannot represent, and JSON (RFC 8259) has no such numbers.
     */
    private static String whatIsWrong(JsonProcessingException e) {
        String original = e.getOriginalMessage();
        Matcher token = NON_NUMERIC.matcher(original == null ? "" : original);
        if (token.find()) {
            return token.group(1)
                    + " is not a JSON number (JSON has no NaN or Infinity); write null for a missing value, "
                    + "or a finite number";
        }
        return original;
    }

    private static final Pattern NON_NUMERIC = Pattern.compile("Non-standard token '(-?(?:NaN|Infinity|INF))'");

    private DeltaRow toRow(JsonNode feature) {
        if (!"Feature".equals(feature.path("type").asText())) {
            throw new RejectedInputException(
                    "not a GeoJSON Feature (type '" + feature.path("type").asText() + "')");
        }
        JsonNode properties = feature.path("properties");
        if (!properties.isObject() && !properties.isMissingNode() && !properties.isNull()) {
            throw new RejectedInputException("'properties' must be an object");
        }
        if (deleteMarker != null && properties.has(deleteMarker)) {
            featuresWithDeleteMarker++;
        }
        boolean delete = mode == WriteMode.DELETE || isMarked(properties.get(deleteMarker == null ? "" : deleteMarker));
        for (Map.Entry<String, JsonNode> field : properties.properties()) {
            String name = field.getKey();
            if (!schema.containsField(name) && !name.equals(deleteMarker) && !delete) {
                throw new RejectedInputException(
                        "property '" + name + "' is not a column of the archive (schema evolution is not supported)");
            }
            if (name.equals(geometryColumn)) {
                throw new RejectedInputException("property '" + name
                        + "' shadows the geometry column; the geometry comes from the feature's 'geometry'");
            }
        }
        Group row = new SimpleGroup(schema);
        Set<String> wanted = delete ? Set.copyOf(keyColumns) : null;
        for (int field = 0; field < schema.getFieldCount(); field++) {
            Type type = schema.getType(field);
            String name = type.getName();
            if (wanted != null && !wanted.contains(name)) {
                continue;
            }
            if (name.equals(geometryColumn)) {
                Geometry geometry = geometries.read(feature.get("geometry"));
                if (geometry != null) {
                    try {
                        codec.encode(reprojector.reproject(geometry, SourceCrs.CRS84, archiveCrs), row);
                    } catch (KeyingException e) {
                        throw new RejectedInputException(e.getMessage(), e);
                    }
                }
            } else {
                JsonNode value = properties.get(name);
                if ((value == null || value.isNull())
                        && keyColumns.size() == 1
                        && keyColumns.get(0).equals(name)) {
                    value = feature.get("id");
                }
                if (value != null && !value.isNull()) {
                    addValue(row, field, type, value);
                }
            }
            if (row.getFieldRepetitionCount(field) == 0 && type.isRepetition(Type.Repetition.REQUIRED)) {
                throw new RejectedInputException(
                        "column '" + name + "' is required (non-nullable) and the feature has no value for it");
            }
        }
        return new DeltaRow(row, delete);
    }

    private boolean isMarked(JsonNode marker) {
        if (marker == null || marker.isNull()) {
            return false;
        }
        if (marker.isBoolean()) {
            return marker.booleanValue();
        }
        throw new RejectedInputException(
                "delete-marker property '" + deleteMarker + "' is " + marker + ", not true or false");
    }

    private static void addValue(Group row, int field, Type type, JsonNode value) {
        String name = type.getName();
        if (!type.isPrimitive() || type.isRepetition(Type.Repetition.REPEATED)) {
            throw new RejectedInputException(
                    "column '" + name + "' is nested or repeated, which GeoJSON deltas cannot fill");
        }
        PrimitiveType primitive = type.asPrimitiveType();
        LogicalTypeAnnotation logical = primitive.getLogicalTypeAnnotation();
        try {
            switch (primitive.getPrimitiveTypeName()) {
                case BOOLEAN -> {
                    require(value.isBoolean(), name, value, "true or false");
                    row.add(field, value.booleanValue());
                }
                case INT32 -> {
                    if (logical instanceof LogicalTypeAnnotation.DateLogicalTypeAnnotation) {
                        require(value.isTextual(), name, value, "an ISO date such as 2026-01-31");
                        row.add(
                                field,
                                Math.toIntExact(
                                        LocalDate.parse(value.textValue()).toEpochDay()));
                    } else {
                        requireExactType(logical, name);
                        require(
                                value.canConvertToExactIntegral() && value.canConvertToInt(),
                                name,
                                value,
                                "an integer that fits 32 bits");
                        row.add(field, value.intValue());
                    }
                }
                case INT64 -> {
                    if (logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation timestamp
                            && value.isTextual()) {
                        row.add(field, timestamp(value.textValue(), timestamp));
                    } else {
                        if (!(logical instanceof LogicalTypeAnnotation.TimestampLogicalTypeAnnotation)) {
                            requireExactType(logical, name);
                        }
                        require(
                                value.canConvertToExactIntegral() && value.canConvertToLong(),
                                name,
                                value,
                                "an integer that fits 64 bits");
                        row.add(field, value.longValue());
                    }
                }
                case FLOAT -> {
                    require(value.isNumber(), name, value, "a number");
                    row.add(field, value.floatValue());
                }
                case DOUBLE -> {
                    require(value.isNumber(), name, value, "a number");
                    row.add(field, value.doubleValue());
                }
                case BINARY -> {
                    if (logical instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation) {
                        row.add(field, Binary.fromString(value.isTextual() ? value.textValue() : value.toString()));
                    } else if (logical == null
                            || logical instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                            || logical instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation) {
                        require(value.isTextual(), name, value, "a string");
                        row.add(field, Binary.fromString(value.textValue()));
                    } else {
                        throw new RejectedInputException(
                                "column '" + name + "' (" + logical + ") cannot be filled from GeoJSON");
                    }
                }
                default ->
                    throw new RejectedInputException("column '" + name + "' (" + primitive.getPrimitiveTypeName()
                            + ") cannot be filled from GeoJSON");
            }
        } catch (DateTimeParseException | ArithmeticException e) {
            throw new RejectedInputException(
                    "column '" + name + "': " + value + " is not a valid value: " + e.getMessage(), e);
        }
    }

    private static long timestamp(String text, LogicalTypeAnnotation.TimestampLogicalTypeAnnotation type) {
        Instant instant;
        if (type.isAdjustedToUTC()) {
            instant = Instant.parse(text);
        } else {
            instant = LocalDateTime.parse(text).toInstant(ZoneOffset.UTC);
        }
        return switch (type.getUnit()) {
            case MILLIS -> instant.toEpochMilli();
            case MICROS -> ChronoUnit.MICROS.between(Instant.EPOCH, instant);
            case NANOS -> ChronoUnit.NANOS.between(Instant.EPOCH, instant);
        };
    }

    /** Integer annotations other than plain signed ones (decimals, unsigned, time of day) are not guessed at. */
    private static void requireExactType(LogicalTypeAnnotation logical, String name) {
        if (logical != null
                && !(logical instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && integer.isSigned())) {
            throw new RejectedInputException("column '" + name + "' (" + logical + ") cannot be filled from GeoJSON");
        }
    }

    private static void require(boolean ok, String name, JsonNode value, String expected) {
        if (!ok) {
            throw new RejectedInputException("column '" + name + "' needs " + expected + ", found " + value);
        }
    }
}
