package dev.nifigeoparquet.processors.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nifigeoparquet.archive.ops.SchemaHandling;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.nifi.serialization.SimpleRecordSchema;
import org.apache.nifi.serialization.record.MapRecord;
import org.apache.nifi.serialization.record.Record;
import org.apache.nifi.serialization.record.RecordField;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

class RecordToGroupRefusalsTest {

    private static final MessageType PARCELS = MessageTypeParser.parseMessageType("""
            message parcels {
              required binary parcel_id (STRING);
              optional float area;
              optional double price;
              optional int32 floors;
              optional int32 rooms (INTEGER(8,false));
              optional int64 big;
              optional int64 unsigned_big (INTEGER(64,false));
              optional int32 amount (DECIMAL(9,2));
              optional int32 day (DATE);
              optional int32 opens (TIME(MILLIS,true));
              optional int64 seen_ms (TIMESTAMP(MILLIS,true));
              optional int64 seen_ns (TIMESTAMP(NANOS,true));
              optional int64 local_us (TIMESTAMP(MICROS,false));
              optional boolean active;
              optional fixed_len_byte_array(16) owner_id (UUID);
              optional binary geometry;
              optional fixed_len_byte_array(4) code;
              optional group owners (LIST) {
                repeated group list { required group element { required binary name (STRING); optional group phones (LIST) { repeated group list { required int32 element; } } } }
              }
              optional group counts (MAP) { repeated group key_value { required int32 key; optional int64 value; } }
            }
            """);

    private final RecordToGroupConverter strict = new RecordToGroupConverter(PARCELS, RecordConversionOptions.STRICT);
    private final RecordToGroupConverter lenient = new RecordToGroupConverter(
            PARCELS, new RecordConversionOptions(SchemaHandling.FILL_MISSING_NULLABLE, true));

    @Test
    void overflowingAndImpreciseNumbersAreRefused() {
        assertRefused(
                "area",
                1e40,
                RecordConversionException.Reason.OUT_OF_RANGE,
                "field 'area' value 1.0E40 (Double) does not fit FLOAT");
        assertRefused(
                "floors",
                2_147_483_648L,
                RecordConversionException.Reason.OUT_OF_RANGE,
                "field 'floors' value 2147483648 (Long) does not fit INT32 [-2147483648, 2147483647]");
        assertRefused(
                "rooms",
                -1,
                RecordConversionException.Reason.OUT_OF_RANGE,
                "field 'rooms' value -1 (Integer) does not fit INT(8, unsigned) [0, 255]");
        assertRefused(
                "unsigned_big",
                BigInteger.TWO.pow(64),
                RecordConversionException.Reason.OUT_OF_RANGE,
                "field 'unsigned_big' value 18446744073709551616 (BigInteger) does not fit INT(64, unsigned) [0, 18446744073709551615]");
        assertRefused(
                "big",
                1.5,
                RecordConversionException.Reason.PRECISION_LOSS,
                "field 'big' value 1.5 (Double) has a fractional part an integer column would lose");
        assertRefused(
                "price",
                9_007_199_254_740_993L,
                RecordConversionException.Reason.PRECISION_LOSS,
                "field 'price' value 9007199254740993 (Long) cannot be represented exactly as DOUBLE (nearest is 9.007199254740992E15)");
        assertRefused(
                "area",
                16_777_217,
                RecordConversionException.Reason.PRECISION_LOSS,
                "field 'area' value 16777217 (Integer) cannot be represented exactly as FLOAT (nearest is 1.6777216E7)");
        assertRefused(
                "price",
                new BigDecimal("1e-400"),
                RecordConversionException.Reason.PRECISION_LOSS,
                "field 'price' value 1E-400 (BigDecimal) is too small for DOUBLE and would become 0");
        assertRefused(
                "big",
                Double.NaN,
                RecordConversionException.Reason.OUT_OF_RANGE,
                "field 'big' value NaN (Double) is not a finite number");
    }

    @Test
    void decimalsAreRescaledOnlyWhenExact() {
        assertRefused(
                "amount",
                new BigDecimal("1.234"),
                RecordConversionException.Reason.PRECISION_LOSS,
                "field 'amount' value 1.234 (BigDecimal) has 3 fractional digits; DECIMAL(9,2) keeps 2");
        assertRefused(
                "amount",
                new BigDecimal("12345678.9"),
                RecordConversionException.Reason.OUT_OF_RANGE,
                "field 'amount' value 12345678.9 (BigDecimal) needs 10 digits; DECIMAL(9,2) holds 9");
        assertEquals(120, write("amount", new BigDecimal("1.2000")).getInteger("amount", 0));
        assertEquals(-5, write("amount", -0.05).getInteger("amount", 0));
        assertEquals(700, write("amount", "7").getInteger("amount", 0));
    }

    @Test
    void timestampsMustFitTheColumnUnit() {
        Timestamp subMillis = Timestamp.from(Instant.parse("2024-05-01T10:15:30.123456Z"));
        assertRefused(
                "seen_ms",
                subMillis,
                RecordConversionException.Reason.PRECISION_LOSS,
                "field 'seen_ms' value " + subMillis
                        + " (Timestamp) has sub-millis digits (nanos 123456000) that a MILLIS column would lose");
        assertRefused(
                "seen_ns",
                Instant.parse("2300-01-01T00:00:00Z"),
                RecordConversionException.Reason.OUT_OF_RANGE,
                "field 'seen_ns' value 2300-01-01T00:00:00Z (Instant) is outside the range of a 64-bit count of NANOS");
        assertRefused(
                "seen_ms",
                LocalDateTime.parse("2024-05-01T10:15:30"),
                RecordConversionException.Reason.WRONG_TYPE,
                "field 'seen_ms' value 2024-05-01T10:15:30 (LocalDateTime) has no time zone; the column holds UTC instants (isAdjustedToUTC=true)");
        assertRefused(
                "local_us",
                Instant.parse("2024-05-01T10:15:30Z"),
                RecordConversionException.Reason.WRONG_TYPE,
                "field 'local_us' value 2024-05-01T10:15:30Z (Instant) is an instant; the column holds wall-clock times (isAdjustedToUTC=false), so storing it would need a time zone");
        assertRefused(
                "opens",
                LocalTime.of(8, 0, 0, 1_000),
                RecordConversionException.Reason.PRECISION_LOSS,
                "field 'opens' value 08:00:00.000001 (LocalTime) has sub-millis digits (nanos 1000) that a MILLIS column would lose");
        assertRefused(
                "seen_ms",
                "2024-05-01 10:15",
                RecordConversionException.Reason.UNPARSEABLE,
                "field 'seen_ms' value \"2024-05-01 10:15\" (String) is not an ISO-8601 timestamp with a UTC offset (e.g. 2024-05-01T10:15:30.123456Z)");

        assertEquals(
                1_714_558_530_123L, write("seen_ms", "2024-05-01T10:15:30.123Z").getLong("seen_ms", 0));
        assertEquals(
                1_714_558_530_123_456L,
                write("local_us", LocalDateTime.parse("2024-05-01T10:15:30.123456"))
                        .getLong("local_us", 0));
    }

    @Test
    void nullsOnlyGoIntoOptionalFields() {
        Map<String, Object> values = allNull();
        values.put("parcel_id", null);
        RecordConversionException refusal =
                assertThrows(RecordConversionException.class, () -> strict.convert(record(values)));
        assertEquals("required field 'parcel_id' is null", refusal.getMessage());
        assertEquals(RecordConversionException.Reason.NULL_INTO_REQUIRED, refusal.reason());
        assertEquals("parcel_id", refusal.fieldPath());
    }

    @Test
    void missingFieldsAreRefusedUnlessNullableAndFillingIsChosen() {
        Map<String, Object> withoutId = allNull();
        withoutId.remove("parcel_id");
        RecordConversionException missingRequired =
                assertThrows(RecordConversionException.class, () -> lenient.convert(record(withoutId)));
        assertEquals("required field 'parcel_id' is missing", missingRequired.getMessage());
        assertEquals(RecordConversionException.Reason.MISSING_FIELD, missingRequired.reason());

        Map<String, Object> onlyId = new LinkedHashMap<>(Map.of("parcel_id", "P-1"));
        RecordConversionException missingOptional =
                assertThrows(RecordConversionException.class, () -> strict.convert(record(onlyId)));
        assertEquals(
                "optional field 'area' is missing (schema handling is strict; fill-missing-nullable would write null)",
                missingOptional.getMessage());

        Group filled = lenient.convert(record(onlyId));
        assertEquals("P-1", filled.getString("parcel_id", 0));
        assertEquals(0, filled.getFieldRepetitionCount("area"));
    }

    @Test
    void extraFieldsAreRefusedUnlessIgnored() {
        Map<String, Object> values = allNull();
        values.put("bogus", 1);

        RecordConversionException refusal =
                assertThrows(RecordConversionException.class, () -> strict.convert(record(values)));
        assertEquals("field 'bogus' is not in the target schema", refusal.getMessage());
        assertEquals(RecordConversionException.Reason.EXTRA_FIELD, refusal.reason());
        assertEquals("P-1", lenient.convert(record(values)).getString("parcel_id", 0));
    }

    @Test
    void valuesOfTheWrongTypeOrUnclearTextAreRefused() {
        assertRefused(
                "parcel_id",
                1.5,
                RecordConversionException.Reason.WRONG_TYPE,
                "field 'parcel_id' value 1.5 (Double) cannot be stored as STRING without choosing a format");
        assertRefused(
                "floors",
                "12a",
                RecordConversionException.Reason.UNPARSEABLE,
                "field 'floors' value \"12a\" (String) is not a decimal integer");
        assertRefused(
                "price",
                "1.5f",
                RecordConversionException.Reason.UNPARSEABLE,
                "field 'price' value \"1.5f\" (String) is not a number in plain decimal notation");
        assertRefused(
                "active",
                "yes",
                RecordConversionException.Reason.UNPARSEABLE,
                "field 'active' value \"yes\" (String) is not 'true' or 'false'");
        assertRefused(
                "owner_id",
                "not-a-uuid",
                RecordConversionException.Reason.UNPARSEABLE,
                "field 'owner_id' value \"not-a-uuid\" (String) is not a UUID in 8-4-4-4-12 hex form");
        assertRefused(
                "geometry",
                "POINT (1 2)",
                RecordConversionException.Reason.WRONG_TYPE,
                "field 'geometry' value \"POINT (1 2)\" (String) is not binary (expected byte[], Byte[], an array of Byte or a ByteBuffer)");
        assertRefused(
                "geometry",
                new Object[] {(byte) 1, "x"},
                RecordConversionException.Reason.WRONG_TYPE,
                "field 'geometry' value [2 elements] (Object[]) is not binary: element 1 is \"x\" (String), not a Byte");
        assertRefused(
                "code",
                new byte[3],
                RecordConversionException.Reason.OUT_OF_RANGE,
                "field 'code' value [3 elements] (byte[]) has 3 bytes; FIXED_LEN_BYTE_ARRAY(4) needs exactly 4");
        assertRefused(
                "day",
                new Timestamp(0),
                RecordConversionException.Reason.WRONG_TYPE,
                "field 'day' value " + new Timestamp(0)
                        + " (Timestamp) cannot be stored as DATE (expected java.sql.Date, LocalDate or an ISO yyyy-MM-dd string)");
        assertRefused(
                "day",
                "2024-02-30",
                RecordConversionException.Reason.UNPARSEABLE,
                "field 'day' value \"2024-02-30\" (String) is not an ISO date: Text '2024-02-30' could not be parsed: Invalid date 'FEBRUARY 30'");
        assertRefused(
                "owners",
                "x",
                RecordConversionException.Reason.WRONG_TYPE,
                "field 'owners' value \"x\" (String) is not an array or list");
    }

    @Test
    void refusalsInsideListsAndMapsNameTheElement() {
        assertRefused(
                "owners",
                new Object[] {owner("Ann", null), owner(null, null)},
                RecordConversionException.Reason.NULL_INTO_REQUIRED,
                "required field 'owners[1].name' is null");
        assertRefused(
                "owners",
                List.of(owner("Ann", new Object[] {null})),
                RecordConversionException.Reason.NULL_INTO_REQUIRED,
                "list element 'owners[0].phones[0]' is null but the list's elements are required");
        assertRefused(
                "owners",
                new Object[] {null},
                RecordConversionException.Reason.NULL_INTO_REQUIRED,
                "list element 'owners[0]' is null but the list's elements are required");
        assertRefused(
                "counts",
                Map.of("x", 1L),
                RecordConversionException.Reason.UNPARSEABLE,
                "field 'counts['x']' value \"x\" (String) is not a decimal integer");
        assertRefused(
                "counts",
                Map.of("1", 1.5),
                RecordConversionException.Reason.PRECISION_LOSS,
                "field 'counts['1']' value 1.5 (Double) has a fractional part an integer column would lose");
    }

    @Test
    void exactConversionsAreAccepted() {
        assertArrayEquals(
                new byte[] {1, 2},
                write("geometry", new Byte[] {1, 2}).getBinary("geometry", 0).getBytes());
        assertArrayEquals(
                new byte[] {1, 2},
                write("geometry", new Object[] {(byte) 1, (byte) 2})
                        .getBinary("geometry", 0)
                        .getBytes());
        assertArrayEquals(
                new byte[] {3},
                write("geometry", ByteBuffer.wrap(new byte[] {9, 3}, 1, 1))
                        .getBinary("geometry", 0)
                        .getBytes());
        assertEquals(42, write("floors", "42").getInteger("floors", 0));
        assertEquals(42, write("floors", 42.0).getInteger("floors", 0));
        assertEquals(255, write("rooms", (short) 255).getInteger("rooms", 0));
        assertEquals(
                -1L,
                write("unsigned_big", new BigInteger("18446744073709551615")).getLong("unsigned_big", 0));
        assertEquals(0.1f, write("area", 0.1).getFloat("area", 0));
        assertEquals(2.5, write("price", 2.5f).getDouble("price", 0));
        assertEquals(19_844, write("day", "2024-05-01").getInteger("day", 0));
        assertEquals(-1, write("day", LocalDate.of(1969, 12, 31)).getInteger("day", 0));
        Group counts = write("counts", Map.of("-3", 7L));
        assertEquals(-3, counts.getGroup("counts", 0).getGroup("key_value", 0).getInteger("key", 0));
    }

    private static Map<String, Object> owner(String name, Object[] phones) {
        Map<String, Object> owner = new LinkedHashMap<>();
        owner.put("name", name);
        owner.put("phones", phones);
        return owner;
    }

    private void assertRefused(String field, Object value, RecordConversionException.Reason reason, String message) {
        RecordConversionException refusal = assertThrows(RecordConversionException.class, () -> write(field, value));
        assertEquals(message, refusal.getMessage());
        assertEquals(reason, refusal.reason());
    }

    private Group write(String field, Object value) {
        Map<String, Object> values = allNull();
        values.put(field, value);
        return strict.convert(record(values));
    }

    private static Map<String, Object> allNull() {
        Map<String, Object> values = new LinkedHashMap<>();
        PARCELS.getFields().forEach(field -> values.put(field.getName(), null));
        values.put("parcel_id", "P-1");
        return values;
    }

    /** A record as a NiFi reader would produce it: every field declared, typed loosely as CHOICE-free STRING. */
    private static Record record(Map<String, Object> values) {
        List<RecordField> fields = new ArrayList<>();
        values.keySet().forEach(name -> fields.add(new RecordField(name, RecordFieldType.STRING.getDataType(), true)));
        return new MapRecord(new SimpleRecordSchema(fields), values);
    }
}
