package dev.nifigeoparquet.archive.parquet;

import dev.nifigeoparquet.archive.error.ParquetFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.ColumnReader;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.impl.ColumnReadStoreImpl;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * A row group read column by column, whose rows are copied value by value into a writer of the same schema: no row
 * is assembled into an object and taken apart again, which is most of the cost of rewriting rows unchanged
 * (compaction). Values, nulls and repetition are copied exactly; encoding and compression are the writer's.
 */
public final class ColumnarRowGroup {

    private final String source;
    private final MessageType schema;
    private final long rowCount;
    private final ColumnDescriptor[] columns;
    private final ColumnReader[] readers;
    private final long[] valuesLeft;
    private final ColumnWriter[] writers;
    private ColumnWriteStore writersOf;
    /** Column index of each top-level primitive field, for {@link #peek}, which runs once per row. */
    private final Map<String, Integer> topLevelColumns = new HashMap<>();
    /** The fields {@link #peekSchema} was last asked for, and their schema. */
    private List<String> peekedFields;

    private MessageType peekSchema;

    private long rowsLeft;

    ColumnarRowGroup(String source, PageReadStore pages, MessageType schema, String createdBy) {
        this.source = source;
        this.schema = schema;
        this.rowCount = pages.getRowCount();
        this.rowsLeft = rowCount;
        ColumnReadStoreImpl store = new ColumnReadStoreImpl(pages, new IgnoringConverter(schema), schema, createdBy);
        List<ColumnDescriptor> descriptors = schema.getColumns();
        this.columns = descriptors.toArray(ColumnDescriptor[]::new);
        this.readers = new ColumnReader[columns.length];
        this.valuesLeft = new long[columns.length];
        this.writers = new ColumnWriter[columns.length];
        for (int i = 0; i < columns.length; i++) {
            readers[i] = store.getColumnReader(columns[i]);
            // The reader's own count is deprecated; it is a copy of its page reader's.
            valuesLeft[i] = pages.getPageReader(columns[i]).getTotalValueCount();
            if (columns[i].getPath().length == 1) {
                topLevelColumns.put(columns[i].getPath()[0], i);
            }
        }
    }

    public MessageType schema() {
        return schema;
    }

    public long rowCount() {
        return rowCount;
    }

    public boolean hasNext() {
        return rowsLeft > 0;
    }

    /**
     * Writes the next row's values into {@code store}, which must be a store of the same schema; the caller ends the
     * record.
     */
    void copyNextRowTo(ColumnWriteStore store) throws ParquetFileException {
        if (store != writersOf) {
            for (int i = 0; i < columns.length; i++) {
                writers[i] = store.getColumnWriter(columns[i]);
            }
            writersOf = store;
        }
        passNextRow(true);
    }

    /** Passes over the next row without writing it anywhere. */
    public void skipNextRow() throws ParquetFileException {
        passNextRow(false);
    }

    /** Every value of the next row, column by column, written to {@link #writers} or skipped. */
    private void passNextRow(boolean write) throws ParquetFileException {
        try {
            for (int i = 0; i < columns.length; i++) {
                ColumnReader reader = readers[i];
                int maxDefinition = columns[i].getMaxDefinitionLevel();
                do {
                    int repetition = reader.getCurrentRepetitionLevel();
                    int definition = reader.getCurrentDefinitionLevel();
                    if (!write) {
                        if (definition == maxDefinition) {
                            reader.skip(); // only a defined value occupies the column's data
                        }
                    } else if (definition == maxDefinition) {
                        writeValue(reader, writers[i], columns[i], repetition, definition);
                    } else {
                        writers[i].writeNull(repetition, definition);
                    }
                    reader.consume();
                    valuesLeft[i]--;
                } while (valuesLeft[i] > 0 && reader.getCurrentRepetitionLevel() != 0);
            }
        } catch (RuntimeException e) {
            throw new ParquetFileException(
                    source, "cannot decode row " + (rowCount - rowsLeft) + " of a row group: " + e.getMessage(), e);
        }
        rowsLeft--;
    }

    private static void writeValue(
            ColumnReader reader, ColumnWriter writer, ColumnDescriptor column, int repetition, int definition) {
        switch (column.getPrimitiveType().getPrimitiveTypeName()) {
            case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 -> writer.write(reader.getBinary(), repetition, definition);
            case DOUBLE -> writer.write(reader.getDouble(), repetition, definition);
            case FLOAT -> writer.write(reader.getFloat(), repetition, definition);
            case INT64 -> writer.write(reader.getLong(), repetition, definition);
            case INT32 -> writer.write(reader.getInteger(), repetition, definition);
            case BOOLEAN -> writer.write(reader.getBoolean(), repetition, definition);
        }
    }

    /**
     * The next row's values of some top-level primitive fields, as a row of {@link #peekSchema} of those fields (a null
     * value leaves its field empty); the row itself stays next. Enough to read a key or a version without assembling
     * the row, or even allocating its other fields: this runs once per row rewritten.
     */
    public Group peek(List<String> topLevelFields) {
        Group row = new SimpleGroup(peekSchema(topLevelFields));
        for (int index = 0; index < topLevelFields.size(); index++) {
            int column = topLevelColumn(topLevelFields.get(index));
            ColumnReader reader = readers[column];
            if (reader.getCurrentDefinitionLevel() < columns[column].getMaxDefinitionLevel()) {
                continue;
            }
            switch (columns[column].getPrimitiveType().getPrimitiveTypeName()) {
                case BINARY, FIXED_LEN_BYTE_ARRAY, INT96 ->
                    row.add(
                            index,
                            Binary.fromConstantByteArray(reader.getBinary().getBytes()));
                case DOUBLE -> row.add(index, reader.getDouble());
                case FLOAT -> row.add(index, reader.getFloat());
                case INT64 -> row.add(index, reader.getLong());
                case INT32 -> row.add(index, reader.getInteger());
                case BOOLEAN -> row.add(index, reader.getBoolean());
            }
        }
        return row;
    }

    /** The schema of {@link #peek}'s rows: these top-level fields of this schema, as declared there, in this order. */
    public MessageType peekSchema(List<String> topLevelFields) {
        if (!topLevelFields.equals(peekedFields)) {
            List<Type> fields = new ArrayList<>();
            for (String field : topLevelFields) {
                topLevelColumn(field);
                fields.add(schema.getType(field));
            }
            peekedFields = List.copyOf(topLevelFields);
            peekSchema = new MessageType(schema.getName(), fields);
        }
        return peekSchema;
    }

    private int topLevelColumn(String field) {
        Integer column = topLevelColumns.get(field);
        if (column == null) {
            throw new IllegalArgumentException(source + " has no top-level primitive column " + field);
        }
        return column;
    }

    /**
     * Copies are exact, so the readers need no converter; parquet-java requires a converter tree shaped like the
     * schema all the same.
     */
    private static final class IgnoringConverter extends GroupConverter {
        private static final PrimitiveConverter PRIMITIVE = new PrimitiveConverter() {
            @Override
            public void addBinary(Binary value) {}
        };
        private final Converter[] fields;

        IgnoringConverter(GroupType type) {
            fields = new Converter[type.getFieldCount()];
            for (int i = 0; i < fields.length; i++) {
                Type field = type.getType(i);
                fields[i] = field.isPrimitive() ? PRIMITIVE : new IgnoringConverter(field.asGroupType());
            }
        }

        @Override
        public Converter getConverter(int fieldIndex) {
            return fields[fieldIndex];
        }

        @Override
        public void start() {}

        @Override
        public void end() {}
    }
}
