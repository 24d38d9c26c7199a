package dev.nifigeoparquet.processors.geometry;

import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.nifi.record.path.FieldValue;
import org.apache.nifi.record.path.RecordPath;
import org.apache.nifi.record.path.exception.RecordPathException;
import org.apache.nifi.serialization.record.Record;

/**
 * The record field a geometry (or a coordinate) is read from: a RecordPath such as {@code /geometry},
 * {@code /location/wkt} or {@code /features[0]/geometry}, or a plain field name, which means {@code /name}.
 */
public final class FieldPath {

    private static final Pattern TOP_LEVEL = Pattern.compile("/([A-Za-z_][A-Za-z0-9_]*)");

    private final String text;
    private final RecordPath path;

    private FieldPath(String text, RecordPath path) {
        this.text = text;
        this.path = path;
    }

    /** Compiles a RecordPath, or a field name as {@code /name}; fails with RecordPath's explanation otherwise. */
    public static FieldPath parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("a field name or a RecordPath such as /parent/child is required");
        }
        String trimmed = text.strip();
        String pathText = trimmed.startsWith("/") ? trimmed : "/" + trimmed;
        try {
            return new FieldPath(pathText, RecordPath.compile(pathText));
        } catch (RecordPathException e) {
            throw new IllegalArgumentException("'" + trimmed + "' is not a valid RecordPath: " + e.getMessage(), e);
        }
    }

    /** The value of the first field the path selects, or empty when it selects none or a null value. */
    public Optional<Object> valueOf(Record record) {
        return path.evaluate(record).getSelectedFields().findFirst().map(FieldValue::getValue);
    }

    /** The field's name when the path names one top-level field, which the processor can replace in place. */
    public Optional<String> topLevelName() {
        var matcher = TOP_LEVEL.matcher(text);
        return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    @Override
    public String toString() {
        return text;
    }
}
