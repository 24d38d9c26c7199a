package dev.nifigeoparquet.archive.parquet;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.HexFormat;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Deterministic views of row values: a typed, length-prefixed byte encoding of any row (the canonical form
 * that delta ids hash), and a readable text of one primitive value (feature keys, messages).
 */
public final class RowValues {

    private RowValues() {}

    /** The canonical encoding of a row: every field in schema order, each value tagged by its physical type. */
    public static byte[] canonicalBytes(Group row) {
        return canonicalBytes(row, null);
    }

    /**
     * The canonical encoding of the row as if only the top-level fields in {@code kept} had values: every other field
     * is encoded as absent. Null keeps every field.
     */
    public static byte[] canonicalBytes(Group row, BitSet kept) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writeGroup(row, row.getType(), kept, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void writeGroup(Group group, GroupType type, BitSet kept, DataOutputStream out) throws IOException {
        for (int field = 0; field < type.getFieldCount(); field++) {
            Type fieldType = type.getType(field);
            int count = kept == null || kept.get(field) ? group.getFieldRepetitionCount(field) : 0;
            out.writeInt(count);
            for (int index = 0; index < count; index++) {
                if (fieldType.isPrimitive()) {
                    writePrimitive(group, field, index, fieldType.asPrimitiveType(), out);
                } else {
                    writeGroup(group.getGroup(field, index), fieldType.asGroupType(), null, out);
                }
            }
        }
    }

    private static void writePrimitive(Group group, int field, int index, PrimitiveType type, DataOutputStream out)
            throws IOException {
        switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> out.writeBoolean(group.getBoolean(field, index));
            case INT32 -> out.writeInt(group.getInteger(field, index));
            case INT64 -> out.writeLong(group.getLong(field, index));
            case FLOAT -> out.writeInt(Float.floatToRawIntBits(group.getFloat(field, index)));
            case DOUBLE -> out.writeLong(Double.doubleToRawLongBits(group.getDouble(field, index)));
            case INT96, BINARY, FIXED_LEN_BYTE_ARRAY -> {
                byte[] value = group.getBinary(field, index).getBytesUnsafe();
                out.writeInt(value.length);
                out.write(value);
            }
        }
    }

    /** A readable text of a primitive value: strings as text, other binaries as hex, numbers as numbers. */
    public static String text(Group row, int field, int index) {
        PrimitiveType type = row.getType().getType(field).asPrimitiveType();
        return switch (type.getPrimitiveTypeName()) {
            case BOOLEAN -> Boolean.toString(row.getBoolean(field, index));
            case INT32 -> Integer.toString(row.getInteger(field, index));
            case INT64 -> Long.toString(row.getLong(field, index));
            case FLOAT -> Float.toString(row.getFloat(field, index));
            case DOUBLE -> Double.toString(row.getDouble(field, index));
            case INT96, BINARY, FIXED_LEN_BYTE_ARRAY -> {
                Binary binary = row.getBinary(field, index);
                yield isText(type)
                        ? binary.toStringUsingUTF8()
                        : "0x" + HexFormat.of().formatHex(binary.getBytesUnsafe());
            }
        };
    }

    public static boolean isText(PrimitiveType type) {
        LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
        return annotation instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.EnumLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.JsonLogicalTypeAnnotation;
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
