package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Copies delta rows of another (compatible) schema into the archive's schema, field by field by name, after
 * checking the schemas once. Schema evolution is refused: a delta may not add fields or change a field's type.
 * What the tools operators script with write differently but losslessly is accepted: fields in any order, an optional
 * field into a required one (a null there refuses the delta, naming the row), a signed integer annotation or a
 * narrower signed integer where the archive has a plain integer of the physical width, and anything, or nothing, in a
 * column the archive's writer computes from the geometry (a covering bbox). A delete-marker field, when configured, is
 * read and dropped, and so is an {@code h3_cell} partition column.
 */
public final class SchemaConformer {

    private final MessageType archive;
    private final int[] sourceField; // per archive field: the delta field index, or -1 when missing
    private final int deleteMarkerField;
    private final boolean everyRowDeletes;

    private SchemaConformer(MessageType archive, int[] sourceField, int deleteMarkerField, boolean everyRowDeletes) {
        this.archive = archive;
        this.sourceField = sourceField;
        this.deleteMarkerField = deleteMarkerField;
        this.everyRowDeletes = everyRowDeletes;
    }

    /**
     * For a delta in Delete mode: only the key columns are read (a delete needs no geometry); other fields are
     * ignored.
     */
    public static SchemaConformer forDeletes(
            MessageType archive, GroupType delta, List<String> keyColumns, String source) {
        List<String> problems = new ArrayList<>();
        int[] sourceField = new int[archive.getFieldCount()];
        Arrays.fill(sourceField, -1);
        for (String key : keyColumns) {
            if (!delta.containsField(key)) {
                problems.add("key field '" + key + "' is missing");
                continue;
            }
            Type target = archive.getType(key);
            Type given = delta.getType(key);
            if (!sameTypeIgnoringTopRepetition(target, given)) {
                problems.add(
                        "key field '" + key + "' is " + describe(given) + " but the archive has " + describe(target));
            }
            sourceField[archive.getFieldIndex(key)] = delta.getFieldIndex(key);
        }
        if (!problems.isEmpty()) {
            throw new DeltaRejectedException(
                    "Delete delta " + source + " cannot be matched to the archive's keys", problems);
        }
        return new SchemaConformer(archive, sourceField, -1, true);
    }

    /**
     * Checks a delta schema against the archive's.
     *
     * @param deleteMarker name of a boolean delta field whose true value marks a delete; null when none. A delta
     *                     without that field is refused: the name is wrong, and no row would be deleted
     * @throws DeltaRejectedException naming every missing, extra or differently typed field
     */
    public static SchemaConformer of(
            MessageType archive, GroupType delta, SchemaHandling handling, String deleteMarker, String source) {
        return of(archive, delta, handling, deleteMarker, Set.of(), source);
    }

    /**
     * Like {@link #of(MessageType, GroupType, SchemaHandling, String, String)}, for an archive whose writer computes
     * the fields {@code computed} from each row's geometry (the covering bbox structs of its {@code geo} metadata):
     * whatever a delta carries there, or lacks, is not read.
     */
    public static SchemaConformer of(
            MessageType archive,
            GroupType delta,
            SchemaHandling handling,
            String deleteMarker,
            Set<String> computed,
            String source) {
        List<String> problems = new ArrayList<>();
        int[] sourceField = new int[archive.getFieldCount()];
        for (int field = 0; field < archive.getFieldCount(); field++) {
            Type target = archive.getType(field);
            if (computed.contains(target.getName())) {
                sourceField[field] = -1;
                continue;
            }
            if (!delta.containsField(target.getName())) {
                sourceField[field] = -1;
                if (target.isRepetition(Type.Repetition.REQUIRED) || handling == SchemaHandling.STRICT) {
                    problems.add("field '" + target.getName() + "' is missing"
                            + (target.isRepetition(Type.Repetition.REQUIRED)
                                    ? " and the archive requires it (non-nullable)"
                                    : " (strict schema handling)"));
                }
                continue;
            }
            int index = delta.getFieldIndex(target.getName());
            Type given = delta.getType(index);
            if (!sameTypeIgnoringTopRepetition(target, given)) {
                problems.add("field '" + target.getName() + "' is " + describe(given) + " but the archive has "
                        + describe(target));
            } else if (target.isRepetition(Type.Repetition.REPEATED) != given.isRepetition(Type.Repetition.REPEATED)) {
                problems.add("field '" + target.getName() + "' repetition " + given.getRepetition()
                        + " differs from the archive's " + target.getRepetition());
            }
            sourceField[field] = index;
        }
        int markerIndex = -1;
        if (deleteMarker != null && !delta.containsField(deleteMarker)) {
            problems.add("delete-marker field '" + deleteMarker + "' is not a field of the delta (its fields are "
                    + delta.getFields().stream().map(Type::getName).toList() + "), so no row could be deleted");
        }
        if (deleteMarker != null && delta.containsField(deleteMarker) && !archive.containsField(deleteMarker)) {
            markerIndex = delta.getFieldIndex(deleteMarker);
            Type marker = delta.getType(markerIndex);
            if (!marker.isPrimitive()
                    || marker.asPrimitiveType().getPrimitiveTypeName() != PrimitiveType.PrimitiveTypeName.BOOLEAN) {
                problems.add("delete-marker field '" + deleteMarker + "' must be boolean, is " + describe(marker));
            }
        }
        for (Type given : delta.getFields()) {
            if (!archive.containsField(given.getName())
                    && !given.getName().equals(deleteMarker)
                    && !isPartitionColumn(given)) {
                problems.add("field '" + given.getName()
                        + "' is not in the archive schema (schema evolution is not supported)");
            }
        }
        if (!problems.isEmpty()) {
            throw new DeltaRejectedException("Delta " + source + " does not match the archive schema", problems);
        }
        return new SchemaConformer(archive, sourceField, markerIndex, false);
    }

    /**
     * A delta's {@code h3_cell} column, as DuckDB and pyarrow write a Hive partition column into a file, is not data:
     * the archive never stores it (it is the partition directory) and computes every row's cell itself.
     */
    private static boolean isPartitionColumn(Type field) {
        return field.getName().equals(ArchiveLayout.PARTITION_COLUMN);
    }

    /** The row in the archive's schema; fails naming the row when a null reaches a required field. */
    public DeltaRow conform(Group row, long rowIndex) {
        boolean delete = everyRowDeletes
                || (deleteMarkerField >= 0
                        && row.getFieldRepetitionCount(deleteMarkerField) > 0
                        && row.getBoolean(deleteMarkerField, 0));
        Group target = new SimpleGroup(archive);
        for (int field = 0; field < sourceField.length; field++) {
            int from = sourceField[field];
            int count = from < 0 ? 0 : row.getFieldRepetitionCount(from);
            if (count == 0 && from >= 0 && archive.getType(field).isRepetition(Type.Repetition.REQUIRED) && !delete) {
                throw new DeltaRejectedException(
                        "Delta row " + rowIndex,
                        "required field '" + archive.getType(field).getName() + "' is null");
            }
            for (int i = 0; i < count; i++) {
                copyValue(row, from, i, target, field);
            }
        }
        return new DeltaRow(target, delete);
    }

    private static void copyValue(Group from, int fromField, int index, Group to, int toField) {
        Type type = to.getType().getType(toField);
        if (!type.isPrimitive()) {
            to.add(toField, from.getGroup(fromField, index));
            return;
        }
        switch (type.asPrimitiveType().getPrimitiveTypeName()) {
            case BOOLEAN -> to.add(toField, from.getBoolean(fromField, index));
            case INT32 -> to.add(toField, from.getInteger(fromField, index));
            case INT64 -> to.add(toField, from.getLong(fromField, index));
            case FLOAT -> to.add(toField, from.getFloat(fromField, index));
            case DOUBLE -> to.add(toField, from.getDouble(fromField, index));
            case INT96, BINARY, FIXED_LEN_BYTE_ARRAY -> to.add(toField, from.getBinary(fromField, index));
        }
    }

    private static boolean sameTypeIgnoringTopRepetition(Type target, Type given) {
        if (target.isPrimitive() != given.isPrimitive()) {
            return false;
        }
        if (target.isPrimitive()) {
            var a = target.asPrimitiveType();
            var b = given.asPrimitiveType();
            return a.getPrimitiveTypeName() == b.getPrimitiveTypeName()
                    && a.getTypeLength() == b.getTypeLength()
                    && (Objects.equals(a.getLogicalTypeAnnotation(), b.getLogicalTypeAnnotation())
                            || sameWkb(a, b)
                            || signedIntegerFits(a, b));
        }
        return target.asGroupType().getFields().equals(given.asGroupType().getFields())
                && Objects.equals(target.getLogicalTypeAnnotation(), given.getLogicalTypeAnnotation());
    }

    /**
     * A signed integer annotation says what the physical type says already when it is as wide, and narrower signed
     * values fit a wider column: DuckDB writes {@code INTEGER} as {@code int32 (INTEGER(32,true))} where an archive
     * made with parquet-java may have a plain {@code int32}. Unsigned values, or a narrower archive column, may not
     * fit and stay refused.
     */
    private static boolean signedIntegerFits(PrimitiveType target, PrimitiveType given) {
        int width = switch (target.getPrimitiveTypeName()) {
            case INT32 -> 32;
            case INT64 -> 64;
            default -> 0;
        };
        if (width == 0) {
            return false;
        }
        int targetWidth = signedWidth(target.getLogicalTypeAnnotation(), width);
        int givenWidth = signedWidth(given.getLogicalTypeAnnotation(), width);
        return targetWidth == width && givenWidth > 0 && givenWidth <= width;
    }

    /** The width of a signed integer column: its annotation's, or the physical width when unannotated; 0 otherwise. */
    private static int signedWidth(LogicalTypeAnnotation annotation, int physicalWidth) {
        if (annotation == null) {
            return physicalWidth;
        }
        if (annotation instanceof LogicalTypeAnnotation.IntLogicalTypeAnnotation integer && integer.isSigned()) {
            return integer.getBitWidth();
        }
        return 0;
    }

    /**
     * WKB in a plain binary column and WKB in a GEOMETRY or GEOGRAPHY column are the same bytes: a GeoParquet 1.1 delta
     * fits an archive that also types its geometry column natively, and a native delta fits a GeoParquet archive. Their
     * CRSs are compared before ({@link dev.nifigeoparquet.archive.GeoParquetArchive#requireDeltaCrs}).
     */
    private static boolean sameWkb(PrimitiveType a, PrimitiveType b) {
        return a.getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BINARY
                && ((a.getLogicalTypeAnnotation() == null && GeometryCodec.isParquetGeospatial(b))
                        || (b.getLogicalTypeAnnotation() == null && GeometryCodec.isParquetGeospatial(a)));
    }

    private static String describe(Type type) {
        return type.toString().trim().replaceAll("\\s+", " ");
    }
}
