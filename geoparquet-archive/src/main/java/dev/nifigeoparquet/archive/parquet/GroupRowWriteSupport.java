package dev.nifigeoparquet.archive.parquet;

import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.locationtech.jts.geom.Geometry;

/**
 * Sends a {@link Group} row to Parquet's record consumer, field by field as parquet-java's own GroupWriter does,
 * except that covering bbox structs are computed from the geometry instead of copied.
 */
final class GroupRowWriteSupport {

    private final MessageType schema;
    private final Map<Integer, CoveringColumn> coveringByField;
    /** The covering of the primary geometry column, which may be computed from a geometry the caller decoded; or null. */
    private final CoveringColumn primaryCovering;

    private RecordConsumer consumer;
    /** The last row schema found equal to the file's: other rows of the same schema object need no comparison. */
    private GroupType checkedType;

    /** {@code primaryColumn}: the {@code geo} block's primary geometry column, or null without one. */
    GroupRowWriteSupport(MessageType schema, Map<Integer, CoveringColumn> coveringByField, String primaryColumn) {
        this.schema = schema;
        this.coveringByField = Map.copyOf(coveringByField);
        this.primaryCovering = coveringByField.values().stream()
                .filter(covering -> covering.geometryColumn().equals(primaryColumn))
                .findFirst()
                .orElse(null);
    }

    void prepareForWrite(RecordConsumer recordConsumer) {
        this.consumer = recordConsumer;
    }

    /**
     * Writes one row. {@code primaryGeometry}, when not null, is the row's primary geometry already decoded: the primary
     * column's covering bbox is computed from it instead of decoding the value again.
     */
    void write(Group row, long rowIndex, Geometry primaryGeometry) {
        GroupType type = row.getType();
        @SuppressWarnings("ReferenceEquality") // the same schema object is known equal without comparing it
        boolean known = type == schema || type == checkedType;
        if (!known) {
            if (!type.equals(schema)) {
                throw new IllegalArgumentException(
                        "Row " + rowIndex + " has schema " + type + ", the file has " + schema);
            }
            // Rows built elsewhere share one schema object: comparing it field by field for every row was a
            // twentieth of writing a row.
            checkedType = type;
        }
        consumer.startMessage();
        for (int field = 0; field < schema.getFieldCount(); field++) {
            CoveringColumn covering = coveringByField.get(field);
            if (covering != null) {
                covering.write(row, rowIndex, covering == primaryCovering ? primaryGeometry : null, consumer);
            } else {
                writeField(row, schema, field);
            }
        }
        consumer.endMessage();
    }

    private void writeFields(Group group, GroupType type) {
        for (int field = 0; field < type.getFieldCount(); field++) {
            writeField(group, type, field);
        }
    }

    private void writeField(Group group, GroupType type, int field) {
        int repetitions = group.getFieldRepetitionCount(field);
        if (repetitions == 0) {
            return;
        }
        Type fieldType = type.getType(field);
        consumer.startField(fieldType.getName(), field);
        for (int index = 0; index < repetitions; index++) {
            if (fieldType.isPrimitive()) {
                group.writeValue(field, index, consumer);
            } else {
                consumer.startGroup();
                writeFields(group.getGroup(field, index), fieldType.asGroupType());
                consumer.endGroup();
            }
        }
        consumer.endField(fieldType.getName(), field);
    }
}
