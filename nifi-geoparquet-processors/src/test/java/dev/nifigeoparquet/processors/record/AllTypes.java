package dev.nifigeoparquet.processors.record;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/** A schema with every supported column shape, and rows at the boundaries of each type. */
final class AllTypes {

    static final MessageType SCHEMA = schema();

    private AllTypes() {}

    private static MessageType schema() {
        MessageType parsed = MessageTypeParser.parseMessageType("""
                message all_types {
                  required boolean flag;
                  required int32 i32;
                  optional int32 i8 (INTEGER(8,true));
                  optional int32 i16 (INTEGER(16,true));
                  optional int32 u8 (INTEGER(8,false));
                  optional int32 u16 (INTEGER(16,false));
                  optional int32 u32 (INTEGER(32,false));
                  required int64 i64;
                  optional int64 u64 (INTEGER(64,false));
                  optional float f;
                  optional double d;
                  optional binary s (STRING);
                  optional binary e (ENUM);
                  optional binary j (JSON);
                  optional binary raw;
                  optional fixed_len_byte_array(4) fixed;
                  optional fixed_len_byte_array(16) id (UUID);
                  optional int32 dec9 (DECIMAL(9,2));
                  optional int64 dec18 (DECIMAL(18,4));
                  optional fixed_len_byte_array(16) dec38 (DECIMAL(38,10));
                  optional binary dec_wide (DECIMAL(60,5));
                  optional int32 day (DATE);
                  optional int32 t_ms (TIME(MILLIS,true));
                  optional int64 t_us (TIME(MICROS,false));
                  optional int64 t_ns (TIME(NANOS,true));
                  optional int64 ts_ms_utc (TIMESTAMP(MILLIS,true));
                  optional int64 ts_us_utc (TIMESTAMP(MICROS,true));
                  optional int64 ts_ns_utc (TIMESTAMP(NANOS,true));
                  optional int64 ts_ms_local (TIMESTAMP(MILLIS,false));
                  optional int64 ts_us_local (TIMESTAMP(MICROS,false));
                  optional int64 ts_ns_local (TIMESTAMP(NANOS,false));
                  optional int96 legacy_ts;
                  optional group tags (LIST) {
                    repeated group list { optional binary element (STRING); }
                  }
                  optional group owners (LIST) {
                    repeated group list {
                      required group element {
                        required binary name (STRING);
                        optional int64 share;
                        optional group phones (LIST) { repeated group list { required int32 element; } }
                      }
                    }
                  }
                  optional group legacy_ints (LIST) { repeated int32 array; }
                  optional group legacy_points (LIST) { repeated group array { required double x; required double y; } }
                  repeated int64 bare_repeated;
                  optional group attrs (MAP) {
                    repeated group key_value { required binary key (STRING); optional double value; }
                  }
                  optional group counts (MAP) {
                    repeated group key_value { required int32 key; required group value { required int64 n; } }
                  }
                  optional group address {
                    required binary street (STRING);
                    optional group geo { required double lat; required double lon; }
                  }
                }
                """);
        List<Type> fields = new ArrayList<>(parsed.getFields());
        fields.add(Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geometryType("OGC:CRS84"))
                .named("geom"));
        fields.add(Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geographyType())
                .named("geog"));
        return new MessageType("all_types", fields);
    }

    /** The largest value of every column, with sub-millisecond parts and wide decimals. */
    static Group maxRow() {
        Group row = new SimpleGroup(SCHEMA);
        row.add("flag", true);
        row.add("i32", Integer.MAX_VALUE);
        row.add("i8", 127);
        row.add("i16", 32767);
        row.add("u8", 255);
        row.add("u16", 65535);
        row.add("u32", -1); // 4294967295 unsigned
        row.add("i64", Long.MAX_VALUE);
        row.add("u64", -1L); // 2^64 - 1 unsigned
        row.add("f", Float.MAX_VALUE);
        row.add("d", Double.MAX_VALUE);
        row.add("s", "ünïcødé 🌍 text");
        row.add("e", "RED");
        row.add("j", "{\"a\":[1,2]}");
        row.add("raw", Binary.fromConstantByteArray(new byte[] {0, -1, 127, -128}));
        row.add("fixed", Binary.fromConstantByteArray(new byte[] {1, 2, 3, 4}));
        row.add("id", Binary.fromConstantByteArray(uuidBytes(0xFFEEDDCCBBAA9988L, 0x7766554433221100L)));
        row.add("dec9", 999_999_999);
        row.add("dec18", 999_999_999_999_999_999L);
        row.add(
                "dec38",
                Binary.fromConstantByteArray(fixed(BigInteger.TEN.pow(38).subtract(BigInteger.ONE), 16)));
        row.add(
                "dec_wide",
                Binary.fromConstantByteArray(
                        BigInteger.TEN.pow(60).subtract(BigInteger.ONE).toByteArray()));
        row.add("day", (int) LocalDate.of(9999, 12, 31).toEpochDay());
        row.add("t_ms", 86_399_999);
        row.add("t_us", 86_399_999_999L);
        row.add("t_ns", 86_399_999_999_999L);
        row.add("ts_ms_utc", 253_402_300_799_999L); // 9999-12-31T23:59:59.999Z
        row.add("ts_us_utc", 1_700_000_000_123_456L); // sub-millisecond micros
        row.add("ts_ns_utc", Long.MAX_VALUE); // 2262-04-11T23:47:16.854775807Z
        row.add("ts_ms_local", 253_402_300_799_999L);
        row.add("ts_us_local", 1_700_000_000_123_457L);
        row.add("ts_ns_local", Long.MAX_VALUE);
        row.add("legacy_ts", Binary.fromConstantByteArray(int96(86_399_999_999_999L, 2_440_588)));
        Group tags = row.addGroup("tags");
        tags.addGroup("list").add("element", "a");
        tags.addGroup("list"); // a null element
        tags.addGroup("list").add("element", "c");
        Group owners = row.addGroup("owners");
        Group first = owners.addGroup("list").addGroup("element");
        first.add("name", "Ann");
        first.add("share", 60L);
        Group phones = first.addGroup("phones");
        phones.addGroup("list").add("element", 555);
        phones.addGroup("list").add("element", Integer.MIN_VALUE);
        Group second = owners.addGroup("list").addGroup("element");
        second.add("name", "Bo");
        Group legacyInts = row.addGroup("legacy_ints");
        legacyInts.add("array", 1);
        legacyInts.add("array", -2);
        Group legacyPoints = row.addGroup("legacy_points");
        legacyPoints.addGroup("array").append("x", 1.5).append("y", -2.25);
        row.add("bare_repeated", Long.MIN_VALUE);
        row.add("bare_repeated", Long.MAX_VALUE);
        Group attrs = row.addGroup("attrs");
        attrs.addGroup("key_value").append("key", "k1").append("value", 1.5);
        attrs.addGroup("key_value").append("key", "k2"); // null value
        Group counts = row.addGroup("counts");
        Group count = counts.addGroup("key_value");
        count.add("key", -7);
        count.addGroup("value").add("n", 42L);
        Group address = row.addGroup("address");
        address.add("street", "Main St 1");
        address.addGroup("geo").append("lat", 52.5).append("lon", 13.4);
        row.add("geom", Binary.fromConstantByteArray(pointWkb(13.4, 52.5)));
        row.add("geog", Binary.fromConstantByteArray(pointWkb(-180, -90)));
        return row;
    }

    /** The smallest value of every column: pre-1970 dates and instants, negative decimals, empty containers. */
    static Group minRow() {
        Group row = new SimpleGroup(SCHEMA);
        row.add("flag", false);
        row.add("i32", Integer.MIN_VALUE);
        row.add("i8", -128);
        row.add("i16", -32768);
        row.add("u8", 0);
        row.add("u16", 0);
        row.add("u32", 0);
        row.add("i64", Long.MIN_VALUE);
        row.add("u64", 0L);
        row.add("f", -Float.MIN_VALUE);
        row.add("d", Double.MIN_VALUE);
        row.add("s", "");
        row.add("raw", Binary.fromConstantByteArray(new byte[0]));
        row.add("id", Binary.fromConstantByteArray(uuidBytes(0, 1)));
        row.add("dec9", -999_999_999);
        row.add("dec18", -999_999_999_999_999_999L);
        row.add(
                "dec38",
                Binary.fromConstantByteArray(
                        fixed(BigInteger.TEN.pow(38).subtract(BigInteger.ONE).negate(), 16)));
        row.add("dec_wide", Binary.fromConstantByteArray(BigInteger.valueOf(-1).toByteArray()));
        row.add("day", (int) LocalDate.of(1, 1, 1).toEpochDay());
        row.add("t_ms", 0);
        row.add("t_us", 1L);
        row.add("t_ns", 123L);
        row.add("ts_ms_utc", -62_135_596_800_000L); // 0001-01-01T00:00:00Z
        row.add("ts_us_utc", -1L); // 1969-12-31T23:59:59.999999Z
        row.add("ts_ns_utc", Long.MIN_VALUE); // 1677-09-21T00:12:43.145224192Z
        row.add("ts_ms_local", -1L);
        row.add("ts_us_local", -86_400_000_001L);
        row.add("ts_ns_local", Long.MIN_VALUE);
        row.add("legacy_ts", Binary.fromConstantByteArray(int96(1, 2_299_160))); // 1582-10-14
        row.addGroup("tags"); // empty list
        row.addGroup("attrs"); // empty map
        row.addGroup("address").add("street", "");
        return row;
    }

    /** Only the required columns: every optional one is null. */
    static Group nullRow() {
        Group row = new SimpleGroup(SCHEMA);
        row.add("flag", true);
        row.add("i32", 0);
        row.add("i64", 0L);
        return row;
    }

    static byte[] fixed(BigInteger unscaled, int length) {
        byte[] minimal = unscaled.toByteArray();
        byte[] padded = new byte[length];
        Arrays.fill(padded, unscaled.signum() < 0 ? (byte) -1 : 0);
        System.arraycopy(minimal, 0, padded, length - minimal.length, minimal.length);
        return padded;
    }

    static byte[] uuidBytes(long most, long least) {
        return ByteBuffer.allocate(16).putLong(most).putLong(least).array();
    }

    static byte[] int96(long nanosOfDay, int julianDay) {
        return ByteBuffer.allocate(12)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putLong(nanosOfDay)
                .putInt(julianDay)
                .array();
    }

    static byte[] pointWkb(double x, double y) {
        return ByteBuffer.allocate(21)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put((byte) 1)
                .putInt(1)
                .putDouble(x)
                .putDouble(y)
                .array();
    }
}
