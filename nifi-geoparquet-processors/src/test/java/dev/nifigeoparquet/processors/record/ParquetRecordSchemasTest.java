package dev.nifigeoparquet.processors.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.apache.nifi.serialization.record.DataType;
import org.apache.nifi.serialization.record.RecordField;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.nifi.serialization.record.RecordSchema;
import org.apache.nifi.serialization.record.type.ArrayDataType;
import org.apache.nifi.serialization.record.type.MapDataType;
import org.apache.nifi.serialization.record.type.RecordDataType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;

class ParquetRecordSchemasTest {

    private static final DataType BYTES =
            RecordFieldType.ARRAY.getArrayDataType(RecordFieldType.BYTE.getDataType(), false);

    private final RecordSchema schema = ParquetRecordSchemas.toRecordSchema(AllTypes.SCHEMA);

    @Test
    void everyScalarColumnMapsToTheNiFiTypeThatHoldsItExactly() {
        Map<String, DataType> expected = Map.ofEntries(
                Map.entry("flag", RecordFieldType.BOOLEAN.getDataType()),
                Map.entry("i32", RecordFieldType.INT.getDataType()),
                Map.entry("i8", RecordFieldType.BYTE.getDataType()),
                Map.entry("i16", RecordFieldType.SHORT.getDataType()),
                Map.entry("u8", RecordFieldType.SHORT.getDataType()),
                Map.entry("u16", RecordFieldType.INT.getDataType()),
                Map.entry("u32", RecordFieldType.LONG.getDataType()),
                Map.entry("i64", RecordFieldType.LONG.getDataType()),
                Map.entry("u64", RecordFieldType.BIGINT.getDataType()),
                Map.entry("f", RecordFieldType.FLOAT.getDataType()),
                Map.entry("d", RecordFieldType.DOUBLE.getDataType()),
                Map.entry("s", RecordFieldType.STRING.getDataType()),
                Map.entry("e", RecordFieldType.STRING.getDataType()),
                Map.entry("j", RecordFieldType.STRING.getDataType()),
                Map.entry("raw", BYTES),
                Map.entry("fixed", BYTES),
                Map.entry("geom", BYTES),
                Map.entry("geog", BYTES),
                Map.entry("id", RecordFieldType.UUID.getDataType()),
                Map.entry("dec9", RecordFieldType.DECIMAL.getDecimalDataType(9, 2)),
                Map.entry("dec18", RecordFieldType.DECIMAL.getDecimalDataType(18, 4)),
                Map.entry("dec38", RecordFieldType.DECIMAL.getDecimalDataType(38, 10)),
                Map.entry("dec_wide", RecordFieldType.DECIMAL.getDecimalDataType(60, 5)),
                Map.entry("day", RecordFieldType.DATE.getDataType()),
                Map.entry("t_ms", RecordFieldType.TIME.getDataType()),
                Map.entry("t_ns", RecordFieldType.TIME.getDataType()),
                Map.entry("ts_ms_utc", RecordFieldType.TIMESTAMP.getDataType()),
                Map.entry("ts_ns_local", RecordFieldType.TIMESTAMP.getDataType()),
                Map.entry("legacy_ts", RecordFieldType.TIMESTAMP.getDataType()));
        expected.forEach((name, type) -> assertEquals(type, field(name).getDataType(), name));
    }

    @Test
    void optionalIsNullableAndRequiredOrRepeatedIsNot() {
        assertFalse(field("i32").isNullable());
        assertTrue(field("i8").isNullable());
        assertFalse(field("bare_repeated").isNullable());
        assertEquals(
                RecordFieldType.ARRAY.getArrayDataType(RecordFieldType.LONG.getDataType(), false),
                field("bare_repeated").getDataType());
    }

    @Test
    void listsOfEveryLayoutBecomeArraysWithTheRightElementNullability() {
        ArrayDataType tags = (ArrayDataType) field("tags").getDataType();
        assertEquals(RecordFieldType.STRING.getDataType(), tags.getElementType());
        assertTrue(tags.isElementsNullable());

        ArrayDataType owners = (ArrayDataType) field("owners").getDataType();
        assertFalse(owners.isElementsNullable());
        RecordSchema owner = ((RecordDataType) owners.getElementType()).getChildSchema();
        assertEquals(List.of("name", "share", "phones"), owner.getFieldNames());
        assertFalse(owner.getField("name").orElseThrow().isNullable());
        assertEquals(
                RecordFieldType.ARRAY.getArrayDataType(RecordFieldType.INT.getDataType(), false),
                owner.getField("phones").orElseThrow().getDataType());

        assertEquals(
                RecordFieldType.ARRAY.getArrayDataType(RecordFieldType.INT.getDataType(), false),
                field("legacy_ints").getDataType());
        ArrayDataType points = (ArrayDataType) field("legacy_points").getDataType();
        assertEquals(
                List.of("x", "y"),
                ((RecordDataType) points.getElementType()).getChildSchema().getFieldNames());
    }

    @Test
    void mapsHaveStringKeysAndStructsBecomeRecords() {
        MapDataType attrs = (MapDataType) field("attrs").getDataType();
        assertEquals(RecordFieldType.DOUBLE.getDataType(), attrs.getValueType());
        assertTrue(attrs.isValuesNullable());
        MapDataType counts = (MapDataType) field("counts").getDataType();
        assertFalse(counts.isValuesNullable());
        assertEquals(RecordFieldType.RECORD, counts.getValueType().getFieldType());

        RecordSchema address = ((RecordDataType) field("address").getDataType()).getChildSchema();
        assertEquals(List.of("street", "geo"), address.getFieldNames());
    }

    @Test
    void mapsWithKeysThatHaveNoExactStringFormAreRefused() {
        var schema = MessageTypeParser.parseMessageType(
                "message m { optional group by_day (MAP) { repeated group key_value { required double key; optional int32 value; } } }");

        RecordConversionException refusal =
                assertThrows(RecordConversionException.class, () -> ParquetRecordSchemas.toRecordSchema(schema));
        assertEquals(RecordConversionException.Reason.UNSUPPORTED_SCHEMA, refusal.reason());
        assertEquals(
                "field 'by_day' is not supported: NiFi maps need string keys and DOUBLE keys have no exact string form",
                refusal.getMessage());
    }

    private RecordField field(String name) {
        return schema.getField(name).orElseThrow(() -> new AssertionError("no field " + name));
    }
}
