package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.SchemaHandling;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetRecordReader;
import dev.nifigeoparquet.processors.geoparquet.GeometryColumns;
import dev.nifigeoparquet.processors.record.RecordConversionOptions;
import dev.nifigeoparquet.processors.record.RecordToGroupConverter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.nifi.serialization.RecordReader;
import org.apache.nifi.serialization.record.Record;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * Turns the NiFi records of one delta FlowFile into engine delta rows in the archive's exact schema. Values are
 * converted exactly by {@link RecordToGroupConverter} (a value the column cannot hold fails, naming the record and
 * field); geometry columns accept WKB bytes, hexadecimal WKB or WKT and are stored in the column's own encoding. A
 * record marked for deletion, and every record in Delete mode, needs only the key columns; its version column is kept
 * when it has one, since a deletion with a delta sequence is ordered by it (docs/archive-format.md, section 6.4). Not
 * thread-safe: one instance per task.
 */
final class DeltaRecords {

    private final GeoParquetArchive archive;
    private final WriteMode mode;
    private final String deleteMarker;
    private final MessageType archiveSchema;
    private final RecordToGroupConverter rows;
    private final RecordToGroupConverter keys;
    /** What a deletion keeps: the key columns, and the version column when the archive has one. */
    private final List<String> deletionColumns;

    DeltaRecords(GeoParquetArchive archive, WriteMode mode, String deleteMarker, SchemaHandling handling) {
        this.archive = archive;
        this.mode = mode;
        this.deleteMarker = deleteMarker;
        this.archiveSchema = archive.schema();
        List<String> keyColumns = archive.descriptor().keyColumns();
        List<String> deletion = new ArrayList<>(keyColumns);
        String version = archive.descriptor().versionColumn();
        if (version != null && !deletion.contains(version)) {
            deletion.add(version);
        }
        this.deletionColumns = List.copyOf(deletion);
        this.rows = new RecordToGroupConverter(
                archiveSchema,
                new RecordConversionOptions(handling, false),
                GeometryColumns.writers(archiveSchema, archive.geo().orElse(null)));
        if (keyColumns.isEmpty()) {
            this.keys = null;
        } else {
            List<Type> keyTypes =
                    deletionColumns.stream().map(archiveSchema::getType).toList();
            this.keys = new RecordToGroupConverter(
                    new MessageType(archiveSchema.getName(), keyTypes),
                    new RecordConversionOptions(SchemaHandling.FILL_MISSING_NULLABLE, true));
        }
    }

    /**
     * Refuses a Parquet delta that declares another CRS for the geometry column than the archive's (in its {@code geo}
     * metadata or its GEOMETRY/GEOGRAPHY logical type); other readers carry no CRS and pass.
     *
     * @throws DeltaRejectedException naming the delta and both CRSs, and how the flow reprojects a delta
     */
    void requireArchiveCrs(RecordReader reader, String source) {
        if (reader instanceof GeoParquetRecordReader geoParquet) {
            try {
                archive.requireDeltaCrs(
                        geoParquet.parquetSchema(), geoParquet.canonicalFooter().asMap(), source);
            } catch (DeltaRejectedException otherCrs) {
                throw new DeltaRejectedException(
                        otherCrs.getMessage(), "RouteByH3Cell with the delta's CRS as its Source CRS does so");
            }
        }
    }

    /**
     * One record as a delta row.
     *
     * @throws dev.nifigeoparquet.processors.record.RecordConversionException when a value cannot be represented
     * @throws IllegalArgumentException when the delete marker is not a boolean
     */
    DeltaRow toRow(Record record, long index) {
        Map<String, Object> values = valuesOf(record);
        boolean delete = mode == WriteMode.DELETE;
        if (deleteMarker != null && values.containsKey(deleteMarker)) {
            delete |= isMarked(values.remove(deleteMarker), index);
        }
        if (delete && keys != null) {
            return DeltaRow.deletion(keyRow(keys.convertFields(values)));
        }
        return new DeltaRow(rows.convertFields(values), delete);
    }

    /** The record's fields by name, present ones only (a field the reader did not see stays missing, not null). */
    private static Map<String, Object> valuesOf(Record record) {
        Set<String> names = new LinkedHashSet<>(record.getSchema().getFieldNames());
        names.addAll(record.getRawFieldNames());
        Map<String, Object> values = new LinkedHashMap<>();
        for (String name : names) {
            values.put(name, record.getValue(name));
        }
        return values;
    }

    private boolean isMarked(Object marker, long index) {
        return switch (marker) {
            case null -> false;
            case Boolean flag -> flag;
            case CharSequence text when "true".equalsIgnoreCase(text.toString().strip()) -> true;
            case CharSequence text when "false".equalsIgnoreCase(text.toString().strip()) -> false;
            default ->
                throw new IllegalArgumentException("record " + index + ": delete-marker field '" + deleteMarker
                        + "' is " + marker + ", not true or false");
        };
    }

    /** The deletion's columns copied into a row of the archive's schema; other columns stay null. */
    private Group keyRow(Group keyGroup) {
        Group row = new SimpleGroup(archiveSchema);
        for (int i = 0; i < deletionColumns.size(); i++) {
            int target = archiveSchema.getFieldIndex(deletionColumns.get(i));
            for (int r = 0; r < keyGroup.getFieldRepetitionCount(i); r++) {
                Type type = archiveSchema.getType(target);
                if (!type.isPrimitive()) {
                    row.add(target, keyGroup.getGroup(i, r));
                    continue;
                }
                switch (type.asPrimitiveType().getPrimitiveTypeName()) {
                    case BOOLEAN -> row.add(target, keyGroup.getBoolean(i, r));
                    case INT32 -> row.add(target, keyGroup.getInteger(i, r));
                    case INT64 -> row.add(target, keyGroup.getLong(i, r));
                    case FLOAT -> row.add(target, keyGroup.getFloat(i, r));
                    case DOUBLE -> row.add(target, keyGroup.getDouble(i, r));
                    case INT96, BINARY, FIXED_LEN_BYTE_ARRAY -> row.add(target, keyGroup.getBinary(i, r));
                }
            }
        }
        return row;
    }
}
