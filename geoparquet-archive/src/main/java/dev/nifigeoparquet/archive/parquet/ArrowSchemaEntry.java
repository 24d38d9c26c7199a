package dev.nifigeoparquet.archive.parquet;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code ARROW:schema} footer entry that pyarrow (and so GeoPandas) writes: the table's Arrow schema as a
 * base64-encoded Arrow IPC Schema message, a flatbuffer. pyarrow copies the table's metadata into it too, so the
 * {@code geo} block GeoPandas writes (with its per-file {@code bbox}) and the {@code pandas} block (with its
 * per-file RangeIndex) are in there a second time.
 *
 * <p>Read only as far as the archive needs: the schema-level metadata, a {@linkplain #describeSchema description}
 * of everything else for comparing two entries, and {@link #withMetadataValue}, which replaces one metadata value and
 * leaves every other byte of the message where it was (the new value is appended to the flatbuffer and the old one
 * zeroed). Readers take the Parquet footer's own {@code geo} and {@code pandas} entries, not these copies; the
 * copies are kept true so that no canonical entry carries one file's extent.
 */
public final class ArrowSchemaEntry {

    /** The footer key pyarrow writes. */
    public static final String KEY = "ARROW:schema";

    private static final int CONTINUATION = 0xFFFFFFFF;
    private static final int MESSAGE_HEADER_SCHEMA = 1;

    /** Field kinds of each Arrow type table, by type id (Schema.fbs): b bool, h short, i int, l long, s string, v [int]. */
    private static final String[] TYPE_NAMES = {
        "NONE",
        "Null",
        "Int",
        "FloatingPoint",
        "Binary",
        "Utf8",
        "Bool",
        "Decimal",
        "Date",
        "Time",
        "Timestamp",
        "Interval",
        "List",
        "Struct",
        "Union",
        "FixedSizeBinary",
        "FixedSizeList",
        "Map",
        "Duration",
        "LargeBinary",
        "LargeUtf8",
        "LargeList",
        "RunEndEncoded",
        "BinaryView",
        "Utf8View",
        "ListView",
        "LargeListView"
    };

    private static final String[] TYPE_FIELDS = {
        "", "", "ib", "h", "", "", "", "iii", "h", "hi", "hs", "h", "", "", "hv", "i", "i", "b", "h", "", "", "", "",
        "", "", "", ""
    };

    private final boolean continuation;
    private final byte[] flatbuffer;
    private final ByteBuffer fb;
    private final int schema;

    private ArrowSchemaEntry(boolean continuation, byte[] flatbuffer) {
        this.continuation = continuation;
        this.flatbuffer = flatbuffer;
        this.fb = ByteBuffer.wrap(flatbuffer).order(ByteOrder.LITTLE_ENDIAN);
        int message = fb.getInt(0);
        int headerType = field(message, 1) == 0 ? 0 : fb.get(field(message, 1)) & 0xff;
        if (headerType != MESSAGE_HEADER_SCHEMA || field(message, 2) == 0) {
            throw new IllegalArgumentException("the message is not an Arrow schema (header type " + headerType + ")");
        }
        this.schema = deref(field(message, 2));
    }

    /**
     * Parses an entry's value.
     *
     * @throws IllegalArgumentException when it is not a base64-encoded Arrow IPC Schema message
     */
    public static ArrowSchemaEntry parse(String value) {
        try {
            ByteBuffer bytes =
                    ByteBuffer.wrap(Base64.getDecoder().decode(value.strip())).order(ByteOrder.LITTLE_ENDIAN);
            boolean continuation = bytes.getInt(0) == CONTINUATION;
            int prefix = continuation ? 8 : 4;
            int length = bytes.getInt(prefix - 4);
            if (length <= 0 || prefix + length > bytes.capacity()) {
                throw new IllegalArgumentException("declares " + length + " bytes of metadata in " + bytes.capacity());
            }
            byte[] flatbuffer = Arrays.copyOfRange(bytes.array(), prefix, prefix + length);
            ArrowSchemaEntry entry = new ArrowSchemaEntry(continuation, flatbuffer);
            entry.describeSchema(); // reads every part once, so a damaged entry fails here and not later
            entry.metadata();
            return entry;
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new IllegalArgumentException(
                    "'" + KEY + "' is not a base64-encoded Arrow schema: " + e.getMessage(), e);
        }
    }

    /** The schema-level metadata (pyarrow: the table's metadata), in order. */
    public Map<String, String> metadata() {
        Map<String, String> entries = new LinkedHashMap<>();
        int vector = field(schema, 2);
        if (vector == 0) {
            return entries;
        }
        int start = deref(vector);
        for (int i = 0; i < fb.getInt(start); i++) {
            int keyValue = deref(start + 4 + 4 * i);
            entries.put(stringField(keyValue, 0), stringField(keyValue, 1));
        }
        return Collections.unmodifiableMap(entries);
    }

    /**
     * Everything in the schema but its schema-level metadata, as text: endianness, every field (name, nullability,
     * type with its parameters, dictionary encoding, children, field metadata) and features. Two entries describe
     * the same columns the same way exactly when their descriptions are equal.
     */
    public String describeSchema() {
        StringBuilder out = new StringBuilder("schema(endianness=")
                .append(shortField(schema, 0, 0))
                .append(", fields=");
        describeFields(field(schema, 1), out);
        out.append(", features=").append(longVector(field(schema, 3))).append(')');
        return out.toString();
    }

    /**
     * This entry with the schema-level metadata value of {@code key} replaced (the key must be present), as the
     * base64 text of a footer entry. The new value is appended to the flatbuffer and the old value's bytes are
     * zeroed; no other byte of the message changes but the length before it.
     */
    public String withMetadataValue(String key, String value) {
        int vector = field(schema, 2);
        int valueSlot = -1;
        if (vector != 0) {
            int start = deref(vector);
            for (int i = 0; i < fb.getInt(start) && valueSlot < 0; i++) {
                int keyValue = deref(start + 4 + 4 * i);
                if (key.equals(stringField(keyValue, 0))) {
                    valueSlot = field(keyValue, 1);
                }
            }
        }
        if (valueSlot <= 0) {
            throw new IllegalArgumentException("'" + KEY + "' has no metadata entry '" + key + "' to replace");
        }
        byte[] encoded = value.getBytes(StandardCharsets.UTF_8);
        int at = align(flatbuffer.length, 4);
        int end = align(at + 4 + encoded.length + 1, 8);
        ByteBuffer grown = ByteBuffer.wrap(Arrays.copyOf(flatbuffer, end)).order(ByteOrder.LITTLE_ENDIAN);
        grown.putInt(at, encoded.length);
        grown.put(at + 4, encoded);
        int old = deref(valueSlot);
        int oldLength = fb.getInt(old);
        Arrays.fill(grown.array(), old + 4, old + 4 + oldLength, (byte) 0);
        grown.putInt(valueSlot, at - valueSlot);

        int prefix = continuation ? 8 : 4;
        ByteBuffer message = ByteBuffer.allocate(prefix + end).order(ByteOrder.LITTLE_ENDIAN);
        if (continuation) {
            message.putInt(CONTINUATION);
        }
        message.putInt(end);
        message.put(grown.array());
        String result = Base64.getEncoder().encodeToString(message.array());
        ArrowSchemaEntry check = parse(result);
        Map<String, String> expected = new LinkedHashMap<>(metadata());
        expected.put(key, value);
        if (!check.describeSchema().equals(describeSchema())
                || !new ArrayList<>(check.metadata().entrySet()).equals(new ArrayList<>(expected.entrySet()))) {
            throw new IllegalStateException("Replacing '" + key + "' in '" + KEY + "' changed more than its value");
        }
        return result;
    }

    private void describeFields(int vectorField, StringBuilder out) {
        out.append('[');
        if (vectorField != 0) {
            int start = deref(vectorField);
            for (int i = 0; i < fb.getInt(start); i++) {
                if (i > 0) {
                    out.append(", ");
                }
                describeField(deref(start + 4 + 4 * i), out);
            }
        }
        out.append(']');
    }

    private void describeField(int field, StringBuilder out) {
        out.append("field(name=")
                .append(quote(stringField(field, 0)))
                .append(", nullable=")
                .append(byteField(field, 1) != 0);
        int typeId = byteField(field, 2);
        out.append(", type=")
                .append(typeId < TYPE_NAMES.length ? TYPE_NAMES[typeId] : "type#" + typeId)
                .append('(');
        int type = field(field, 3) == 0 ? 0 : deref(field(field, 3));
        if (type != 0) {
            describeTable(type, typeId < TYPE_FIELDS.length ? TYPE_FIELDS[typeId] : null, typeId == 7, out);
        }
        out.append(')');
        if (field(field, 4) != 0) {
            int dictionary = deref(field(field, 4));
            out.append(", dictionary(id=").append(longField(dictionary, 0)).append(", index=");
            if (field(dictionary, 1) != 0) {
                describeTable(deref(field(dictionary, 1)), "ib", false, out);
            }
            out.append(", ordered=")
                    .append(byteField(dictionary, 2) != 0)
                    .append(", kind=")
                    .append(shortField(dictionary, 3, 0))
                    .append(')');
        }
        out.append(", children=");
        describeFields(field(field, 5), out);
        out.append(", metadata=").append(keyValues(field(field, 6))).append(')');
    }

    /** A type table's fields by their kinds; an unknown type is described by its raw bytes. */
    private void describeTable(int table, String kinds, boolean decimal, StringBuilder out) {
        if (kinds == null) {
            int size = fb.getShort(vtable(table) + 2) & 0xffff;
            out.append("raw=")
                    .append(HexFormat.of().formatHex(flatbuffer, table, Math.min(flatbuffer.length, table + size)));
            return;
        }
        for (int slot = 0; slot < kinds.length(); slot++) {
            if (slot > 0) {
                out.append(',');
            }
            switch (kinds.charAt(slot)) {
                case 'b' -> out.append(byteField(table, slot) != 0);
                case 'h' -> out.append(shortField(table, slot, 0));
                case 'i' -> out.append(intField(table, slot, decimal && slot == 2 ? 128 : 0));
                case 's' -> out.append(quote(field(table, slot) == 0 ? null : stringField(table, slot)));
                case 'v' -> out.append(intVector(field(table, slot)));
                default -> throw new IllegalStateException("unknown field kind " + kinds.charAt(slot));
            }
        }
    }

    private String keyValues(int vectorField) {
        StringBuilder out = new StringBuilder("{");
        if (vectorField != 0) {
            int start = deref(vectorField);
            for (int i = 0; i < fb.getInt(start); i++) {
                int keyValue = deref(start + 4 + 4 * i);
                out.append(i > 0 ? ", " : "")
                        .append(quote(stringField(keyValue, 0)))
                        .append('=')
                        .append(quote(stringField(keyValue, 1)));
            }
        }
        return out.append('}').toString();
    }

    private String intVector(int vectorField) {
        if (vectorField == 0) {
            return "[]";
        }
        int start = deref(vectorField);
        int[] values = new int[fb.getInt(start)];
        for (int i = 0; i < values.length; i++) {
            values[i] = fb.getInt(start + 4 + 4 * i);
        }
        return Arrays.toString(values);
    }

    private String longVector(int vectorField) {
        if (vectorField == 0) {
            return "[]";
        }
        int start = deref(vectorField);
        long[] values = new long[fb.getInt(start)];
        for (int i = 0; i < values.length; i++) {
            values[i] = fb.getLong(start + 4 + 8 * i);
        }
        return Arrays.toString(values);
    }

    // --- flatbuffer access (little-endian; tables point to their vtable by a signed offset) ----------------

    private int vtable(int table) {
        return table - fb.getInt(table);
    }

    /** The absolute position of a table's field, or 0 when the field is absent. */
    private int field(int table, int slot) {
        int vtable = vtable(table);
        int vtableSize = fb.getShort(vtable) & 0xffff;
        int entry = 4 + 2 * slot;
        if (entry + 2 > vtableSize) {
            return 0;
        }
        int offset = fb.getShort(vtable + entry) & 0xffff;
        return offset == 0 ? 0 : table + offset;
    }

    private int deref(int position) {
        int target = position + fb.getInt(position);
        if (target < 0 || target >= flatbuffer.length) {
            throw new IndexOutOfBoundsException("offset at " + position + " points outside the message");
        }
        return target;
    }

    private String stringField(int table, int slot) {
        int position = field(table, slot);
        if (position == 0) {
            return null;
        }
        int string = deref(position);
        int length = fb.getInt(string);
        if (length < 0 || string + 4 + length > flatbuffer.length) {
            throw new IndexOutOfBoundsException("string at " + string + " runs outside the message");
        }
        return new String(flatbuffer, string + 4, length, StandardCharsets.UTF_8);
    }

    private int byteField(int table, int slot) {
        int position = field(table, slot);
        return position == 0 ? 0 : fb.get(position) & 0xff;
    }

    private int shortField(int table, int slot, int otherwise) {
        int position = field(table, slot);
        return position == 0 ? otherwise : fb.getShort(position);
    }

    private int intField(int table, int slot, int otherwise) {
        int position = field(table, slot);
        return position == 0 ? otherwise : fb.getInt(position);
    }

    private long longField(int table, int slot) {
        int position = field(table, slot);
        return position == 0 ? 0 : fb.getLong(position);
    }

    private static int align(int value, int to) {
        return (value + to - 1) / to * to;
    }

    private static String quote(String text) {
        return text == null ? "null" : '"' + text.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }
}
