package dev.nifigeoparquet.processors.geometry;

import org.apache.nifi.serialization.record.Record;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * A field of a record, named by its name ({@code geometry}) or by a path of nested record fields in RecordPath's
 * child-field form ({@code /geometry}, {@code /location/wkt}). Only plain child steps are supported, which is all a
 * geometry field needs; predicates, indexes and functions are refused when the property is validated.
 */
public final class FieldPath {

    private final String text;
    private final List<String> steps;

    private FieldPath(String text, List<String> steps) {
        this.text = text;
        this.steps = steps;
    }

    /** Parses a field name or a {@code /a/b} path; fails with an explanation otherwise. */
    public static FieldPath parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("a field name or a /parent/child path is required");
        }
        String trimmed = text.strip();
        String body = trimmed.startsWith("/") ? trimmed.substring(1) : trimmed;
        List<String> steps = Arrays.asList(body.split("/", -1));
        for (String step : steps) {
            if (step.isEmpty()) {
                throw new IllegalArgumentException("'" + trimmed + "' has an empty step; write a field name or /parent/child");
            }
            if (step.chars().anyMatch(c -> "[]()*'\"=<>!".indexOf(c) >= 0)) {
                throw new IllegalArgumentException("'" + trimmed + "' is not a plain field path: only child steps such as /parent/child"
                        + " are supported, no predicates, indexes or functions");
            }
        }
        return new FieldPath(trimmed, List.copyOf(steps));
    }

    /** The value at this path, or empty when a step is missing or null. */
    public Optional<Object> valueOf(Record record) {
        Record current = record;
        for (int i = 0; i < steps.size(); i++) {
            if (current == null) {
                return Optional.empty();
            }
            Object value = current.getValue(steps.get(i));
            if (i == steps.size() - 1) {
                return Optional.ofNullable(value);
            }
            current = value instanceof Record nested ? nested : null;
        }
        return Optional.empty();
    }

    /** The field's name when it is a top-level field, which the processor can replace in place. */
    public Optional<String> topLevelName() {
        return steps.size() == 1 ? Optional.of(steps.get(0)) : Optional.empty();
    }

    @Override
    public String toString() {
        return text;
    }
}
