package dev.nifigeoparquet.processors.record;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.nifi.serialization.SimpleRecordSchema;
import org.apache.nifi.serialization.record.DataType;
import org.apache.nifi.serialization.record.MapRecord;
import org.apache.nifi.serialization.record.Record;
import org.apache.nifi.serialization.record.RecordField;
import org.apache.nifi.serialization.record.RecordSchema;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Converts Parquet rows of one schema into NiFi records whose schema is
 * {@link ParquetRecordSchemas#toRecordSchema(MessageType)}. The per-column readers are built once, so a
 * converter is meant to be reused for every row of a file. Instances are immutable and thread-safe.
 */
public final class GroupToRecordConverter {

    /** Reads the value at {@code (field, index)} of {@code parent}. */
    @FunctionalInterface
    private interface ValueReader {
        Object read(Group parent, int field, int index);
    }

    /**
     * Reads one top-level column in place of the exact mapping, e.g. a geometry column decoded to WKB or WKT.
     * {@link #read} gets the whole row and is only called when the column holds a value.
     */
    public interface ColumnOverride {
        /** The NiFi type of the values {@link #read} returns. */
        DataType dataType();

        Object read(Group row, int fieldIndex);
    }

    private final MessageType parquetSchema;
    private final StructReader root;

    public GroupToRecordConverter(MessageType parquetSchema) {
        this(parquetSchema, Map.of());
    }

    /** @param overrides top-level column name to the reader used for it instead of the exact mapping */
    public GroupToRecordConverter(MessageType parquetSchema, Map<String, ColumnOverride> overrides) {
        for (String column : overrides.keySet()) {
            if (!parquetSchema.containsField(column)) {
                throw new IllegalArgumentException(
                        "no top-level column '" + column + "' to override in " + parquetSchema.getName());
            }
        }
        this.parquetSchema = parquetSchema;
        this.root = new StructReader(parquetSchema, "", overrides);
    }

    public MessageType parquetSchema() {
        return parquetSchema;
    }

    public RecordSchema recordSchema() {
        return root.schema;
    }

    /**
     * The row as a NiFi record of the converter's record schema.
     *
     * @throws RecordConversionException if a stored value has no exact NiFi form (e.g. invalid UTF-8 in a STRING).
     */
    public Record convert(Group row) {
        return root.toRecord(row);
    }

    private static ValueReader readerOf(Type type, String path) {
        return switch (ParquetShape.of(type, path)) {
            case ParquetShape.Scalar scalar -> ScalarReader.of(ParquetScalar.of(scalar.type()), path)::read;
            case ParquetShape.Struct struct -> {
                StructReader reader = new StructReader(struct.type(), path, Map.of());
                yield (parent, field, index) -> reader.toRecord(parent.getGroup(field, index));
            }
            case ParquetShape.ListOf list -> listReader(list, path);
            case ParquetShape.MapOf map -> mapReader(map, path);
        };
    }

    private static ValueReader listReader(ParquetShape.ListOf list, String path) {
        ValueReader element = readerOf(list.element(), FieldPaths.child(path, "element"));
        boolean elementIsRepeated = list.elementIsRepeated();
        return (parent, field, index) -> {
            Group listGroup = parent.getGroup(field, index);
            Object[] elements = new Object[listGroup.getFieldRepetitionCount(0)];
            for (int i = 0; i < elements.length; i++) {
                if (elementIsRepeated) {
                    elements[i] = element.read(listGroup, 0, i);
                } else {
                    Group wrapper = listGroup.getGroup(0, i);
                    elements[i] = wrapper.getFieldRepetitionCount(0) == 0 ? null : element.read(wrapper, 0, 0);
                }
            }
            return elements;
        };
    }

    private static ValueReader mapReader(ParquetShape.MapOf map, String path) {
        MapKeys.requireSupported(map.key(), path);
        ScalarReader key = ScalarReader.of(ParquetScalar.of(map.key()), FieldPaths.child(path, "key"));
        ValueReader value = readerOf(map.value(), FieldPaths.child(path, "value"));
        return (parent, field, index) -> {
            Group mapGroup = parent.getGroup(field, index);
            int size = mapGroup.getFieldRepetitionCount(0);
            Map<String, Object> entries = new LinkedHashMap<>();
            for (int i = 0; i < size; i++) {
                Group entry = mapGroup.getGroup(0, i);
                String entryKey = String.valueOf(key.read(entry, 0, 0));
                entries.put(entryKey, entry.getFieldRepetitionCount(1) == 0 ? null : value.read(entry, 1, 0));
            }
            return entries;
        };
    }

    /** A group's fields, read into a {@link MapRecord}. */
    private static final class StructReader {
        private final RecordSchema schema;
        private final String[] names;
        private final boolean[] repeated;
        private final ValueReader[] readers;

        StructReader(GroupType type, String path, Map<String, ColumnOverride> overrides) {
            int count = type.getFieldCount();
            this.names = new String[count];
            this.repeated = new boolean[count];
            this.readers = new ValueReader[count];
            List<RecordField> fields = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                Type field = type.getType(i);
                String fieldPath = FieldPaths.child(path, field.getName());
                ColumnOverride override = overrides.get(field.getName());
                names[i] = field.getName();
                if (override == null) {
                    repeated[i] = field.isRepetition(Type.Repetition.REPEATED);
                    readers[i] = readerOf(field, fieldPath);
                    fields.add(new RecordField(
                            field.getName(),
                            ParquetRecordSchemas.fieldTypeOf(field, fieldPath),
                            field.isRepetition(Type.Repetition.OPTIONAL)));
                } else {
                    readers[i] = (parent, fieldIndex, index) -> override.read(parent, fieldIndex);
                    fields.add(new RecordField(
                            field.getName(), override.dataType(), !field.isRepetition(Type.Repetition.REQUIRED)));
                }
            }
            this.schema = new SimpleRecordSchema(fields);
        }

        Record toRecord(Group group) {
            Map<String, Object> values = new LinkedHashMap<>(names.length * 2);
            for (int i = 0; i < names.length; i++) {
                int count = group.getFieldRepetitionCount(i);
                if (repeated[i]) {
                    Object[] elements = new Object[count];
                    for (int k = 0; k < count; k++) {
                        elements[k] = readers[i].read(group, i, k);
                    }
                    values.put(names[i], elements);
                } else {
                    values.put(names[i], count == 0 ? null : readers[i].read(group, i, 0));
                }
            }
            return new MapRecord(schema, values);
        }
    }
}
