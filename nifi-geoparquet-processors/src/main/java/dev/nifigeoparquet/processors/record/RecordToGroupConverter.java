package dev.nifigeoparquet.processors.record;

import dev.nifigeoparquet.archive.ops.SchemaHandling;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.nifi.serialization.record.Record;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Converts NiFi records into Parquet rows of a given target schema, matching fields by name. Each value is
 * converted exactly or the record is refused with a {@link RecordConversionException} naming the field,
 * the value and why; nothing is truncated, rounded away or silently dropped. The per-column writers are
 * built once; instances are immutable and thread-safe.
 */
public final class RecordToGroupConverter {

    /** Appends {@code value} (never null) as the next repetition of {@code field} in {@code parent}. */
    @FunctionalInterface
    private interface ValueWriter {
        void write(Group parent, int field, Object value, String path);
    }

    /**
     * Writes one top-level column in place of the exact mapping, e.g. a geometry given as WKB or WKT that the
     * column stores in a GeoArrow layout. The converter still checks that the field is present (per the options)
     * and not null when the column is required; {@link #write} is only called with a non-null value.
     */
    public interface ColumnOverride {
        /**
         * Appends {@code value} to {@code row}'s column {@code fieldIndex}.
         *
         * @throws RecordConversionException if the value does not fit the column
         */
        void write(Group row, int fieldIndex, Object value, String fieldPath);
    }

    private final MessageType parquetSchema;
    private final RecordConversionOptions options;
    private final StructWriter root;

    public RecordToGroupConverter(MessageType parquetSchema, RecordConversionOptions options) {
        this(parquetSchema, options, Map.of());
    }

    /** @param overrides top-level column name to the writer used for it instead of the exact mapping */
    public RecordToGroupConverter(
            MessageType parquetSchema, RecordConversionOptions options, Map<String, ColumnOverride> overrides) {
        this.parquetSchema = Objects.requireNonNull(parquetSchema, "parquetSchema");
        this.options = Objects.requireNonNull(options, "options");
        for (String column : overrides.keySet()) {
            if (!parquetSchema.containsField(column)
                    || parquetSchema.getType(column).isRepetition(Type.Repetition.REPEATED)) {
                throw new IllegalArgumentException(
                        "no non-repeated top-level column '" + column + "' to override in " + parquetSchema.getName());
            }
        }
        this.root = new StructWriter(parquetSchema, "", overrides);
    }

    public MessageType parquetSchema() {
        return parquetSchema;
    }

    /**
     * The record as a row of the target schema.
     *
     * @throws RecordConversionException if the record does not fit the target schema exactly.
     */
    public Group convert(Record record) {
        Group row = new SimpleGroup(parquetSchema);
        root.fill(row, record, "");
        return row;
    }

    /**
     * Converts a record given as its fields by name, for callers that drop or add a field first (a field absent
     * from the map is missing, a field mapped to null is null).
     *
     * @throws RecordConversionException if the fields do not fit the target schema exactly.
     */
    public Group convertFields(Map<String, ?> fields) {
        Group row = new SimpleGroup(parquetSchema);
        root.fill(row, fields, "");
        return row;
    }

    private ValueWriter writerOf(Type type, String path) {
        return switch (ParquetShape.of(type, path)) {
            case ParquetShape.Scalar scalar -> scalarWriter(ScalarWriter.of(ParquetScalar.of(scalar.type())));
            case ParquetShape.Struct struct -> {
                StructWriter writer = new StructWriter(struct.type(), path, Map.of());
                yield (parent, field, value, valuePath) -> writer.fill(parent.addGroup(field), value, valuePath);
            }
            case ParquetShape.ListOf list -> listWriter(list, path);
            case ParquetShape.MapOf map -> mapWriter(map, path);
        };
    }

    private static ValueWriter scalarWriter(ScalarWriter writer) {
        return (parent, field, value, path) -> {
            try {
                writer.write(parent, field, value);
            } catch (ValueRefusal refusal) {
                throw refusal.at(path, value);
            } catch (ArithmeticException e) {
                throw RecordConversionException.forValue(
                        path,
                        value,
                        RecordConversionException.Reason.OUT_OF_RANGE,
                        "is outside the range of the column type");
            }
        };
    }

    private ValueWriter listWriter(ParquetShape.ListOf list, String path) {
        ValueWriter element = writerOf(list.element(), FieldPaths.child(path, "element"));
        boolean elementIsRepeated = list.elementIsRepeated();
        boolean elementsNullable = list.elementsNullable();
        return (parent, field, value, valuePath) -> {
            Object[] elements = elementsOf(value, valuePath);
            Group listGroup = parent.addGroup(field);
            for (int i = 0; i < elements.length; i++) {
                String elementPath = FieldPaths.element(valuePath, i);
                if (elements[i] == null && !elementsNullable) {
                    throw RecordConversionException.forField(
                            elementPath,
                            RecordConversionException.Reason.NULL_INTO_REQUIRED,
                            "list element {} is null but the list's elements are required");
                }
                if (elementIsRepeated) {
                    element.write(listGroup, 0, elements[i], elementPath);
                } else {
                    Group wrapper = listGroup.addGroup(0);
                    if (elements[i] != null) {
                        element.write(wrapper, 0, elements[i], elementPath);
                    }
                }
            }
        };
    }

    private ValueWriter mapWriter(ParquetShape.MapOf map, String path) {
        MapKeys.requireSupported(map.key(), path);
        ValueWriter key = scalarWriter(ScalarWriter.of(ParquetScalar.of(map.key())));
        ValueWriter value = writerOf(map.value(), FieldPaths.child(path, "value"));
        boolean valuesNullable = map.value().isRepetition(Type.Repetition.OPTIONAL);
        return (parent, field, mapValue, valuePath) -> {
            Map<?, ?> entries = switch (mapValue) {
                case Map<?, ?> javaMap -> javaMap;
                case Record record -> record.toMap();
                default ->
                    throw RecordConversionException.forValue(
                            valuePath, mapValue, RecordConversionException.Reason.WRONG_TYPE, "is not a map");
            };
            Group mapGroup = parent.addGroup(field);
            for (Map.Entry<?, ?> entry : entries.entrySet()) {
                String entryPath = FieldPaths.entry(valuePath, entry.getKey());
                if (entry.getKey() == null) {
                    throw RecordConversionException.forField(
                            valuePath, RecordConversionException.Reason.NULL_INTO_REQUIRED, "map {} has a null key");
                }
                if (entry.getValue() == null && !valuesNullable) {
                    throw RecordConversionException.forField(
                            entryPath,
                            RecordConversionException.Reason.NULL_INTO_REQUIRED,
                            "map value {} is null but the map's values are required");
                }
                Group keyValue = mapGroup.addGroup(0);
                key.write(keyValue, 0, entry.getKey(), entryPath);
                if (entry.getValue() != null) {
                    value.write(keyValue, 1, entry.getValue(), entryPath);
                }
            }
        };
    }

    private static Object[] elementsOf(Object value, String path) {
        return switch (value) {
            case Object[] array -> array;
            case Collection<?> collection -> collection.toArray();
            default ->
                throw RecordConversionException.forValue(
                        path, value, RecordConversionException.Reason.WRONG_TYPE, "is not an array or list");
        };
    }

    /** A group's fields, written from a NiFi {@link Record} or a {@code Map} of field name to value. */
    private final class StructWriter {
        private final GroupType type;
        private final ValueWriter[] writers;

        StructWriter(GroupType type, String path, Map<String, ColumnOverride> overrides) {
            this.type = type;
            this.writers = new ValueWriter[type.getFieldCount()];
            for (int i = 0; i < writers.length; i++) {
                ColumnOverride override = overrides.get(type.getType(i).getName());
                writers[i] = override != null
                        ? override::write
                        : writerOf(
                                type.getType(i),
                                FieldPaths.child(path, type.getType(i).getName()));
            }
        }

        void fill(Group target, Object value, String path) {
            FieldSource source = FieldSource.of(value, path);
            if (!options.ignoreExtraFields()) {
                for (String name : source.names()) {
                    if (!type.containsField(name)) {
                        throw RecordConversionException.forField(
                                FieldPaths.child(path, name),
                                RecordConversionException.Reason.EXTRA_FIELD,
                                "field {} is not in the target schema");
                    }
                }
            }
            for (int i = 0; i < writers.length; i++) {
                Type field = type.getType(i);
                String fieldPath = FieldPaths.child(path, field.getName());
                if (!source.has(field.getName())) {
                    requireMayBeMissing(field, fieldPath);
                    continue;
                }
                Object fieldValue = source.get(field.getName());
                if (fieldValue == null) {
                    requireMayBeNull(field, fieldPath);
                } else if (field.isRepetition(Type.Repetition.REPEATED)) {
                    Object[] elements = elementsOf(fieldValue, fieldPath);
                    for (int k = 0; k < elements.length; k++) {
                        if (elements[k] == null) {
                            throw RecordConversionException.forField(
                                    FieldPaths.element(fieldPath, k),
                                    RecordConversionException.Reason.NULL_INTO_REQUIRED,
                                    "element {} of a repeated field is null");
                        }
                        writers[i].write(target, i, elements[k], FieldPaths.element(fieldPath, k));
                    }
                } else {
                    writers[i].write(target, i, fieldValue, fieldPath);
                }
            }
        }

        private void requireMayBeMissing(Type field, String path) {
            if (!field.isRepetition(Type.Repetition.OPTIONAL)) {
                throw RecordConversionException.forField(
                        path,
                        RecordConversionException.Reason.MISSING_FIELD,
                        (field.isRepetition(Type.Repetition.REQUIRED) ? "required" : "repeated")
                                + " field {} is missing");
            }
            if (options.schemaHandling() == SchemaHandling.STRICT) {
                throw RecordConversionException.forField(
                        path,
                        RecordConversionException.Reason.MISSING_FIELD,
                        "optional field {} is missing (schema handling is strict; fill-missing-nullable would write null)");
            }
        }

        private static void requireMayBeNull(Type field, String path) {
            if (!field.isRepetition(Type.Repetition.OPTIONAL)) {
                throw RecordConversionException.forField(
                        path,
                        RecordConversionException.Reason.NULL_INTO_REQUIRED,
                        (field.isRepetition(Type.Repetition.REQUIRED)
                                ? "required field {} is null"
                                : "repeated field {} is null (use an empty array for no values)"));
            }
        }
    }

    /** Field names and values of a record-like value. */
    private record FieldSource(Set<String> names, Record record, Map<?, ?> map) {

        static FieldSource of(Object value, String path) {
            return switch (value) {
                case Record record -> {
                    Set<String> names = new LinkedHashSet<>(record.getSchema().getFieldNames());
                    names.addAll(record.getRawFieldNames());
                    yield new FieldSource(names, record, null);
                }
                case Map<?, ?> map -> {
                    Set<String> names = new LinkedHashSet<>();
                    map.keySet().forEach(key -> names.add(String.valueOf(key)));
                    yield new FieldSource(names, null, map);
                }
                default ->
                    throw RecordConversionException.forValue(
                            path.isEmpty() ? "<record>" : path,
                            value,
                            RecordConversionException.Reason.WRONG_TYPE,
                            "is not a record");
            };
        }

        boolean has(String name) {
            return names.contains(name)
                    || (record != null && record.getSchema().getField(name).isPresent());
        }

        Object get(String name) {
            return record != null ? record.getValue(name) : map.get(name);
        }
    }
}
