package dev.nifigeoparquet.archive.format;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import dev.nifigeoparquet.archive.error.UnsupportedFormatVersionException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The fields of one JSON object of a metadata file, read by name. Every failure names the file and the field's path
 * inside it ({@code files[2].rows}), so an operator can find what is wrong (docs/archive-format.md, section 13).
 * Fields the caller does not ask for are ignored: readers ignore fields they do not know.
 */
final class JsonFields {

    private static final ObjectReader RECORD_READER =
            ArchiveJson.mapper().reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    private final String file;
    private final String path;
    private final JsonNode node;

    private JsonFields(String file, String path, JsonNode node) {
        this.file = file;
        this.path = path;
        this.node = node;
    }

    /** The top-level object of a metadata file. */
    static JsonFields parse(byte[] json, String what, String file) throws ArchiveFormatException {
        JsonNode root;
        try {
            // A record is one JSON object alone in its file (section 13.1): anything after it is refused.
            root = RECORD_READER.readTree(json);
        } catch (IOException e) {
            String reason =
                    e instanceof JsonProcessingException malformed ? malformed.getOriginalMessage() : e.getMessage();
            throw new ArchiveFormatException(file, what + " is not JSON: " + reason, e);
        }
        if (root == null || !root.isObject()) {
            throw new ArchiveFormatException(file, what + " must be a JSON object, found " + describe(root));
        }
        return new JsonFields(file, "", root);
    }

    String file() {
        return file;
    }

    /** The raw value of a field, null when absent or JSON null. */
    JsonNode raw(String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value;
    }

    boolean has(String field) {
        return raw(field) != null;
    }

    int requiredInt(String field) throws ArchiveFormatException {
        JsonNode value = required(field);
        if (!value.isIntegralNumber() || !value.canConvertToInt()) {
            throw wrongType(field, "a 32-bit integer", value);
        }
        return value.intValue();
    }

    /** The value, or {@code fallback} when the field is absent or null. */
    int optionalInt(String field, int fallback) throws ArchiveFormatException {
        return has(field) ? requiredInt(field) : fallback;
    }

    long requiredLong(String field) throws ArchiveFormatException {
        JsonNode value = required(field);
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            throw wrongType(field, "a 64-bit integer", value);
        }
        return value.longValue();
    }

    /** The value, or null when the field is absent or null. */
    Long optionalLong(String field) throws ArchiveFormatException {
        return has(field) ? requiredLong(field) : null;
    }

    double requiredDouble(String field) throws ArchiveFormatException {
        JsonNode value = required(field);
        if (!value.isNumber()) {
            throw wrongType(field, "a number", value);
        }
        return value.doubleValue();
    }

    boolean requiredBoolean(String field) throws ArchiveFormatException {
        JsonNode value = required(field);
        if (!value.isBoolean()) {
            throw wrongType(field, "true or false", value);
        }
        return value.booleanValue();
    }

    String requiredString(String field) throws ArchiveFormatException {
        JsonNode value = required(field);
        if (!value.isTextual()) {
            throw wrongType(field, "a string", value);
        }
        return value.textValue();
    }

    /** The value, or null when the field is absent or null. */
    String optionalString(String field) throws ArchiveFormatException {
        return has(field) ? requiredString(field) : null;
    }

    Instant requiredInstant(String field) throws ArchiveFormatException {
        String text = requiredString(field);
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw new ArchiveFormatException(
                    file,
                    "field '" + path + field + "' must be an RFC 3339 instant such as"
                            + " 2026-12-01T09:00:00Z, found \"" + text + "\"");
        }
    }

    <E extends Enum<E>> E requiredEnum(String field, Class<E> type) throws ArchiveFormatException {
        String text = requiredString(field);
        for (E constant : type.getEnumConstants()) {
            if (constant.name().equals(text)) {
                return constant;
            }
        }
        throw new ArchiveFormatException(
                file,
                "field '" + path + field + "' must be one of " + Arrays.toString(type.getEnumConstants()) + ", found \""
                        + text + "\"");
    }

    List<String> requiredStrings(String field) throws ArchiveFormatException {
        JsonNode array = requiredArray(field);
        List<String> values = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonNode value = array.get(i);
            if (!value.isTextual()) {
                throw wrongType(field + "[" + i + "]", "a string", value);
            }
            values.add(value.textValue());
        }
        return values;
    }

    /** An array of integers and nulls, or null when the field is absent or null. */
    List<Long> optionalNullableLongs(String field) throws ArchiveFormatException {
        if (!has(field)) {
            return null;
        }
        JsonNode array = requiredArray(field);
        List<Long> values = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonNode value = array.get(i);
            if (value.isNull()) {
                values.add(null);
            } else if (value.isIntegralNumber() && value.canConvertToLong()) {
                values.add(value.longValue());
            } else {
                throw wrongType(field + "[" + i + "]", "a 64-bit integer or null", value);
            }
        }
        return values;
    }

    /** A nested object that must be present. */
    JsonFields requiredObject(String field) throws ArchiveFormatException {
        JsonNode value = required(field);
        if (!value.isObject()) {
            throw wrongType(field, "an object", value);
        }
        return new JsonFields(file, path + field + ".", value);
    }

    /** A nested object, or null when the field is absent or null. */
    JsonFields optionalObject(String field) throws ArchiveFormatException {
        return has(field) ? requiredObject(field) : null;
    }

    /** The objects of an array field that must be present (it may be empty). */
    List<JsonFields> requiredObjects(String field) throws ArchiveFormatException {
        JsonNode array = requiredArray(field);
        List<JsonFields> objects = new ArrayList<>(array.size());
        for (int i = 0; i < array.size(); i++) {
            JsonNode value = array.get(i);
            if (!value.isObject()) {
                throw wrongType(field + "[" + i + "]", "an object", value);
            }
            objects.add(new JsonFields(file, path + field + "[" + i + "].", value));
        }
        return objects;
    }

    /** Like {@link #requiredObjects}, empty when the field is absent or null. */
    List<JsonFields> optionalObjects(String field) throws ArchiveFormatException {
        return has(field) ? requiredObjects(field) : List.of();
    }

    /**
     * Reads the {@code formatVersion} before anything else, so a file of a newer version is refused with that reason
     * rather than for a field whose meaning changed.
     *
     * @param fallback the version of a file without the field; 0 when the field is required
     */
    int formatVersion(String field, String what, int fallback, int supported) throws ArchiveFormatException {
        int version = fallback > 0 ? optionalInt(field, fallback) : requiredInt(field);
        if (version < 1) {
            throw new ArchiveFormatException(file, "field '" + path + field + "' must be at least 1, found " + version);
        }
        if (version > supported) {
            throw new UnsupportedFormatVersionException(file, what, version, supported);
        }
        return version;
    }

    /** A value the record itself refuses (a constructor's check), reported against this file. */
    ArchiveFormatException invalid(String what, IllegalArgumentException cause) {
        return new ArchiveFormatException(file, what + " is invalid: " + cause.getMessage(), cause);
    }

    private JsonNode requiredArray(String field) throws ArchiveFormatException {
        JsonNode value = required(field);
        if (!value.isArray()) {
            throw wrongType(field, "an array", value);
        }
        return value;
    }

    private JsonNode required(String field) throws ArchiveFormatException {
        JsonNode value = node.get(field);
        if (value == null) {
            throw new ArchiveFormatException(file, "required field '" + path + field + "' is missing");
        }
        if (value.isNull()) {
            throw new ArchiveFormatException(file, "required field '" + path + field + "' is null");
        }
        return value;
    }

    private ArchiveFormatException wrongType(String field, String expected, JsonNode found) {
        return new ArchiveFormatException(
                file, "field '" + path + field + "' must be " + expected + ", found " + describe(found));
    }

    private static String describe(JsonNode value) {
        if (value == null || value.isMissingNode()) {
            return "nothing";
        }
        String text = value.toString();
        return value.getNodeType().name().toLowerCase(Locale.ROOT) + " "
                + (text.length() > 60 ? text.substring(0, 57) + "..." : text);
    }

    /** Writes one metadata file: what {@code body} generates, pretty-printed as every metadata file is. */
    static byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(1024);
        try (JsonGenerator generator =
                ArchiveJson.mapper().writerWithDefaultPrettyPrinter().createGenerator(bytes)) {
            body.write(generator);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write JSON to memory", e);
        }
        return bytes.toByteArray();
    }

    /** Writes a list of strings as an array field. */
    static void writeStrings(JsonGenerator generator, String field, List<String> values) throws IOException {
        generator.writeArrayFieldStart(field);
        for (String value : values) {
            generator.writeString(value);
        }
        generator.writeEndArray();
    }

    /** Writes a list of integers, each may be null, as an array field. */
    static void writeNullableLongs(JsonGenerator generator, String field, List<Long> values) throws IOException {
        generator.writeArrayFieldStart(field);
        for (Long value : values) {
            if (value == null) {
                generator.writeNull();
            } else {
                generator.writeNumber(value);
            }
        }
        generator.writeEndArray();
    }

    /** Writes a string field, JSON null when the value is null. */
    static void writeNullableString(JsonGenerator generator, String field, String value) throws IOException {
        if (value == null) {
            generator.writeNullField(field);
        } else {
            generator.writeStringField(field, value);
        }
    }

    @FunctionalInterface
    interface Body {
        void write(JsonGenerator generator) throws IOException;
    }
}
