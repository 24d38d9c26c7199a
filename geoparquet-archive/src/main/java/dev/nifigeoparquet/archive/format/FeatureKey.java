package dev.nifigeoparquet.archive.format;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.nifigeoparquet.archive.parquet.RowValues;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;

/**
 * A feature's stable key: the values of the archive's key columns in one row, compared by value.
 * A row with a null key column has no key.
 */
public record FeatureKey(List<String> values) {

    public FeatureKey {
        values = List.copyOf(values);
    }

    /** Extracts keys of rows of one schema; built once per schema. */
    public static Extractor extractor(GroupType schema, List<String> keyColumns) {
        int[] fields = new int[keyColumns.size()];
        for (int i = 0; i < fields.length; i++) {
            String column = keyColumns.get(i);
            if (!schema.containsField(column)) {
                throw new IllegalArgumentException("Key column '" + column + "' is not in the schema");
            }
            fields[i] = schema.getFieldIndex(column);
        }
        return new Extractor(List.copyOf(keyColumns), fields);
    }

    /** One string per key, unambiguous for several key columns (a JSON array), as the key index stores it. */
    public String indexText() {
        if (values.size() == 1) {
            return values.get(0);
        }
        try {
            return ArchiveJson.mapper()
                    .writer()
                    .without(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The inverse of {@link #indexText()} for a key of {@code columns} columns. */
    public static FeatureKey fromIndexText(String text, int columns) {
        if (columns == 1) {
            return new FeatureKey(List.of(text));
        }
        try {
            return new FeatureKey(List.of(ArchiveJson.mapper().readValue(text, String[].class)));
        } catch (IOException e) {
            throw new IllegalArgumentException("Not a key of " + columns + " columns: " + text, e);
        }
    }

    @Override
    public String toString() {
        return values.size() == 1 ? values.get(0) : values.toString();
    }

    /** Reads the key of a row. */
    public static final class Extractor {
        private final List<String> columns;
        private final int[] fields;

        private Extractor(List<String> columns, int[] fields) {
            this.columns = columns;
            this.fields = fields;
        }

        public List<String> columns() {
            return columns;
        }

        /** The row's key, or null when any key column is null. */
        public FeatureKey keyOf(Group row) {
            List<String> values = new ArrayList<>(fields.length);
            for (int field : fields) {
                if (row.getFieldRepetitionCount(field) == 0) {
                    return null;
                }
                values.add(RowValues.text(row, field, 0));
            }
            return new FeatureKey(values);
        }
    }
}
