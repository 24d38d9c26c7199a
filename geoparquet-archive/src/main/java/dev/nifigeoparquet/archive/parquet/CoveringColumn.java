package dev.nifigeoparquet.archive.parquet;

import dev.nifigeoparquet.archive.geo.Bbox;
import dev.nifigeoparquet.archive.geo.CoveringBbox;
import dev.nifigeoparquet.archive.geo.GeoColumn;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.locationtech.jts.geom.Geometry;

/**
 * A top-level bbox struct that GeoParquet 1.1 {@code covering} declares for a geometry column. The writer fills
 * it from each row's geometry and ignores whatever the input row held, so it can never be stale or missing.
 * A null or empty geometry has no extent: an optional struct is then left null, a required one gets NaN.
 */
final class CoveringColumn {

    private final int fieldIndex;
    private final String geometryColumn;
    private final GroupType structType;
    private final List<String> keysInFieldOrder;
    private final GeometryCodec codec;
    private final boolean spherical;

    private CoveringColumn(
            int fieldIndex,
            String geometryColumn,
            GroupType structType,
            List<String> keysInFieldOrder,
            GeometryCodec codec,
            boolean spherical) {
        this.fieldIndex = fieldIndex;
        this.geometryColumn = geometryColumn;
        this.structType = structType;
        this.keysInFieldOrder = keysInFieldOrder;
        this.codec = codec;
        this.spherical = spherical;
    }

    /** Checks the declared paths against the schema: one top-level struct whose every field is a bbox key. */
    static CoveringColumn of(
            MessageType schema, String geometryColumn, GeoColumn geo, Map<String, List<String>> paths) {
        String struct = null;
        for (Map.Entry<String, List<String>> path : paths.entrySet()) {
            List<String> parts = path.getValue();
            if (parts.size() != 2 || (struct != null && !struct.equals(parts.get(0)))) {
                throw new IllegalArgumentException("covering bbox of '" + geometryColumn
                        + "' must name fields of one top-level struct, got " + paths);
            }
            struct = parts.get(0);
        }
        if (struct == null
                || !schema.containsField(struct)
                || schema.getType(struct).isPrimitive()) {
            throw new IllegalArgumentException(
                    "covering bbox struct '" + struct + "' of '" + geometryColumn + "' is not a group in the schema");
        }
        GroupType structType = schema.getType(struct).asGroupType();
        List<String> keys = new ArrayList<>();
        for (Type field : structType.getFields()) {
            String key = paths.entrySet().stream()
                    .filter(entry -> entry.getValue().get(1).equals(field.getName()))
                    .map(Map.Entry::getKey)
                    .findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("field '" + field.getName()
                            + "' of covering struct '" + structType.getName() + "' is not in the covering " + paths));
            if (!field.isPrimitive() || !isFloatingPoint(field.asPrimitiveType().getPrimitiveTypeName())) {
                throw new IllegalArgumentException("covering field " + structType.getName() + "." + field.getName()
                        + " must be a double or float, is " + field);
            }
            keys.add(key);
        }
        return new CoveringColumn(
                schema.getFieldIndex(struct),
                geometryColumn,
                structType,
                List.copyOf(keys),
                GeometryCodec.forColumn(schema, geometryColumn, geo),
                geo.spherical());
    }

    private static boolean isFloatingPoint(PrimitiveTypeName type) {
        return type == PrimitiveTypeName.DOUBLE || type == PrimitiveTypeName.FLOAT;
    }

    int fieldIndex() {
        return fieldIndex;
    }

    /** The geometry column whose bbox this struct holds. */
    String geometryColumn() {
        return geometryColumn;
    }

    /**
     * Writes the struct computed from the row's geometry: {@code decoded} when the caller has it already (it must be
     * the geometry the row's value encodes), else the value decoded here.
     */
    void write(Group row, long rowIndex, Geometry decoded, RecordConsumer consumer) {
        Bbox bbox = CoveringBbox.of(decoded != null ? decoded : codec.decode(row, rowIndex), spherical);
        if (bbox == null && structType.isRepetition(Type.Repetition.OPTIONAL)) {
            return;
        }
        consumer.startField(structType.getName(), fieldIndex);
        consumer.startGroup();
        for (int i = 0; i < keysInFieldOrder.size(); i++) {
            String key = keysInFieldOrder.get(i);
            double value = bbox == null ? Double.NaN : bbox.get(key);
            Type field = structType.getType(i);
            consumer.startField(field.getName(), i);
            if (field.asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.FLOAT) {
                consumer.addFloat(outwardFloat(value, key.endsWith("min")));
            } else {
                consumer.addDouble(value);
            }
            consumer.endField(field.getName(), i);
        }
        consumer.endGroup();
        consumer.endField(structType.getName(), fieldIndex);
    }

    /** Rounds a bound to float so that the box still covers the geometry (GeoParquet allows float bboxes). */
    private static float outwardFloat(double value, boolean isMin) {
        float rounded = (float) value;
        if (isMin && rounded > value) {
            return Math.nextDown(rounded);
        }
        if (!isMin && rounded < value) {
            return Math.nextUp(rounded);
        }
        return rounded;
    }
}
