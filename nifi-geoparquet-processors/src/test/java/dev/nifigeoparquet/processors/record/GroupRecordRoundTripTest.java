package dev.nifigeoparquet.processors.record;

import static dev.nifigeoparquet.processors.record.GroupAssertions.assertGroupsEqual;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Date;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.nifi.serialization.record.Record;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GroupRecordRoundTripTest {

    private final GroupToRecordConverter toRecord = new GroupToRecordConverter(AllTypes.SCHEMA);
    private final RecordToGroupConverter toGroup =
            new RecordToGroupConverter(AllTypes.SCHEMA, RecordConversionOptions.STRICT);

    static Stream<Arguments> rows() {
        return Stream.of(
                Arguments.of("max", AllTypes.maxRow()),
                Arguments.of("min", AllTypes.minRow()),
                Arguments.of("nulls", AllTypes.nullRow()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void groupToRecordToGroupReproducesEveryStoredBit(String name, Group original) {
        Record record = toRecord.convert(original);

        assertGroupsEqual(original, toGroup.convert(record));
    }

    @Test
    void maxRowValuesHaveTheJavaTypesNiFiExpects() {
        Record record = toRecord.convert(AllTypes.maxRow());

        assertEquals(Integer.MAX_VALUE, record.getValue("i32"));
        assertEquals((byte) 127, record.getValue("i8"));
        assertEquals((short) 32767, record.getValue("i16"));
        assertEquals((short) 255, record.getValue("u8"));
        assertEquals(65535, record.getValue("u16"));
        assertEquals(4_294_967_295L, record.getValue("u32"));
        assertEquals(Long.MAX_VALUE, record.getValue("i64"));
        assertEquals(BigInteger.TWO.pow(64).subtract(BigInteger.ONE), record.getValue("u64"));
        assertEquals(Float.MAX_VALUE, record.getValue("f"));
        assertEquals("ünïcødé 🌍 text", record.getValue("s"));
        assertEquals("RED", record.getValue("e"));
        assertArrayEquals(new Byte[] {0, -1, 127, -128}, (Byte[]) record.getValue("raw"));
        assertEquals(new UUID(0xFFEEDDCCBBAA9988L, 0x7766554433221100L), record.getValue("id"));
        assertEquals(new BigDecimal("9999999.99"), record.getValue("dec9"));
        assertEquals(new BigDecimal("99999999999999.9999"), record.getValue("dec18"));
        assertEquals(new BigDecimal(BigInteger.TEN.pow(38).subtract(BigInteger.ONE), 10), record.getValue("dec38"));
        assertEquals(LocalDate.of(9999, 12, 31), ((Date) record.getValue("day")).toLocalDate());
        assertInstanceOf(Time.class, record.getValue("t_ms"));
        assertEquals(
                LocalTime.of(23, 59, 59, 999_999_999),
                ((Timestamp) record.getValue("t_ns")).toLocalDateTime().toLocalTime());
        assertEquals(
                Instant.parse("2023-11-14T22:13:20.123456Z"), ((Timestamp) record.getValue("ts_us_utc")).toInstant());
        assertEquals(
                Instant.parse("2262-04-11T23:47:16.854775807Z"),
                ((Timestamp) record.getValue("ts_ns_utc")).toInstant());
        assertEquals(
                LocalDateTime.parse("2023-11-14T22:13:20.123457"),
                ((Timestamp) record.getValue("ts_us_local")).toLocalDateTime());
        assertEquals(
                Instant.parse("1970-01-01T23:59:59.999999999Z"),
                ((Timestamp) record.getValue("legacy_ts")).toInstant());
        assertArrayEquals(new Object[] {"a", null, "c"}, (Object[]) record.getValue("tags"));
        Object[] owners = (Object[]) record.getValue("owners");
        assertEquals("Ann", ((Record) owners[0]).getValue("name"));
        assertArrayEquals(new Object[] {555, Integer.MIN_VALUE}, (Object[]) ((Record) owners[0]).getValue("phones"));
        assertNull(((Record) owners[1]).getValue("phones"));
        assertArrayEquals(new Object[] {1, -2}, (Object[]) record.getValue("legacy_ints"));
        assertEquals(-2.25, ((Record) ((Object[]) record.getValue("legacy_points"))[0]).getValue("y"));
        assertArrayEquals(new Object[] {Long.MIN_VALUE, Long.MAX_VALUE}, (Object[]) record.getValue("bare_repeated"));
        Map<?, ?> attrs = (Map<?, ?>) record.getValue("attrs");
        assertEquals(1.5, attrs.get("k1"));
        assertNull(attrs.get("k2"));
        assertEquals(42L, ((Record) ((Map<?, ?>) record.getValue("counts")).get("-7")).getValue("n"));
        assertEquals(13.4, ((Record) ((Record) record.getValue("address")).getValue("geo")).getValue("lon"));
        assertArrayEquals(BinaryValues.boxed(AllTypes.pointWkb(13.4, 52.5)), (Byte[]) record.getValue("geom"));
    }

    @Test
    void minRowKeepsPreEpochAndPreGregorianValues() {
        Record record = toRecord.convert(AllTypes.minRow());

        assertEquals(LocalDate.of(1, 1, 1), ((Date) record.getValue("day")).toLocalDate());
        assertEquals(Instant.parse("0001-01-01T00:00:00Z"), ((Timestamp) record.getValue("ts_ms_utc")).toInstant());
        assertEquals(
                Instant.parse("1969-12-31T23:59:59.999999Z"), ((Timestamp) record.getValue("ts_us_utc")).toInstant());
        assertEquals(
                Instant.parse("1677-09-21T00:12:43.145224192Z"),
                ((Timestamp) record.getValue("ts_ns_utc")).toInstant());
        assertEquals(
                LocalDateTime.parse("1969-12-30T23:59:59.999999"),
                ((Timestamp) record.getValue("ts_us_local")).toLocalDateTime());
        assertEquals(
                Instant.parse("1582-10-14T00:00:00.000000001Z"),
                ((Timestamp) record.getValue("legacy_ts")).toInstant());
        assertEquals(new BigDecimal("-9999999.99"), record.getValue("dec9"));
        assertEquals(new BigDecimal("-0.00001"), record.getValue("dec_wide"));
        assertEquals(0L, record.getValue("u32"));
        assertEquals(BigInteger.ZERO, record.getValue("u64"));
        assertArrayEquals(new Object[0], (Object[]) record.getValue("tags"));
        assertEquals(Map.of(), record.getValue("attrs"));
        assertArrayEquals(new Object[0], (Object[]) record.getValue("bare_repeated"));
    }

    @Test
    void nullRowHasNullForEveryOptionalField() {
        Record record = toRecord.convert(AllTypes.nullRow());

        for (String field : record.getSchema().getFieldNames()) {
            if (!field.equals("flag")
                    && !field.equals("i32")
                    && !field.equals("i64")
                    && !field.equals("bare_repeated")) {
                assertNull(record.getValue(field), field);
            }
        }
    }
}
