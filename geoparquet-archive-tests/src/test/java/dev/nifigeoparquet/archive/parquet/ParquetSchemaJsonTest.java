package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.apache.parquet.column.schema.EdgeInterpolationAlgorithm;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.ColumnOrder;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.TimeUnit;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetSchemaJsonTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A PROJJSON document as a GEOMETRY crs: commas, quotes, braces and brackets that the text form cannot carry. */
    static final String INLINE_PROJJSON = "{\"type\":\"ProjectedCRS\",\"name\":\"NAD83 / Conus Albers\","
            + "\"id\":{\"authority\":\"EPSG\",\"code\":5070}}";

    @TempDir
    Path temp;

    /** Every logical type parquet-java knows, with parameters, field ids and explicit column orders. */
    static MessageType everyLogicalType() {
        return Types.buildMessage()
                .required(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .id(1)
                .named("string")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geometryType(INLINE_PROJJSON))
                .named("geometry_inline")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geometryType("srid:5070"))
                .named("geometry_srid")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geometryType("projjson:projjson_epsg_5070"))
                .named("geometry_key")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geometryType(null))
                .named("geometry_default")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geographyType("OGC:CRS84", EdgeInterpolationAlgorithm.SPHERICAL))
                .named("geography")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geographyType(INLINE_PROJJSON, EdgeInterpolationAlgorithm.KARNEY))
                .named("geography_inline")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geographyType())
                .named("geography_default")
                .optional(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(false, TimeUnit.NANOS))
                .named("ts_local_nanos")
                .optional(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(true, TimeUnit.MICROS))
                .named("ts_utc_micros")
                .optional(PrimitiveTypeName.INT32)
                .as(LogicalTypeAnnotation.timeType(true, TimeUnit.MILLIS))
                .named("time_millis")
                .optional(PrimitiveTypeName.INT32)
                .as(LogicalTypeAnnotation.dateType())
                .named("date")
                .optional(PrimitiveTypeName.INT32)
                .as(LogicalTypeAnnotation.intType(16, false))
                .named("uint16")
                .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                .length(16)
                .as(LogicalTypeAnnotation.decimalType(4, 30))
                .named("decimal")
                .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                .length(16)
                .as(LogicalTypeAnnotation.uuidType())
                .named("uuid")
                .optional(PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY)
                .length(2)
                .as(LogicalTypeAnnotation.float16Type())
                .named("half")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.jsonType())
                .named("json")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.bsonType())
                .named("bson")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.enumType())
                .named("enum")
                .optional(PrimitiveTypeName.INT96)
                .named("int96")
                .required(PrimitiveTypeName.DOUBLE)
                .columnOrder(ColumnOrder.typeDefined())
                .named("double_type_order")
                .required(PrimitiveTypeName.DOUBLE)
                .named("double_default_order")
                .optionalList()
                .requiredGroupElement()
                .required(PrimitiveTypeName.DOUBLE)
                .named("x")
                .required(PrimitiveTypeName.DOUBLE)
                .named("y")
                .named("points")
                .optionalMap()
                .key(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .optionalValue(PrimitiveTypeName.INT64)
                .named("tags")
                .named("everything");
    }

    @Test
    void everyLogicalTypeRoundTripsWithAllItsParameters() {
        MessageType schema = everyLogicalType();
        ObjectNode json = ParquetSchemaJson.toJson(schema);
        MessageType back = ParquetSchemaJson.fromJson(json);
        assertEquals(schema, back);
        assertEquals(schema.toString(), back.toString());
        assertEquals(json, ParquetSchemaJson.toJson(back));
        // The text form is what broke: an inline PROJJSON crs does not parse back.
        assertThrows(RuntimeException.class, () -> MessageTypeParser.parseMessageType(schema.toString()));
    }

    @Test
    void survivesTheDescriptorsJsonTextAndEqualsTheFooterOfAWrittenFile() throws IOException {
        MessageType schema = everyLogicalType();
        JsonNode reparsed = JSON.readTree(JSON.writeValueAsString(ParquetSchemaJson.toJson(schema)));
        assertEquals(schema, ParquetSchemaJson.fromJson(reparsed));

        Path file = temp.resolve("every-type.parquet");
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                schema,
                FooterEntries.canonicalOf(Map.of()),
                WriterSettings.defaults())) {
            writer.finish();
        }
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
            assertEquals(
                    reparsed,
                    ParquetSchemaJson.toJson(reader.footer().schema()),
                    "the footer holds exactly the pinned form");
        }
    }

    @Test
    void elementsReadAsTheParquetFormatNamesThem() {
        JsonNode json = ParquetSchemaJson.toJson(everyLogicalType());
        JsonNode geography = element(json, "geography");
        assertEquals("BYTE_ARRAY", geography.get("type").asText());
        assertEquals("OPTIONAL", geography.get("repetition_type").asText());
        assertEquals("OGC:CRS84", geography.at("/logicalType/GEOGRAPHY/crs").asText());
        assertEquals(
                "SPHERICAL", geography.at("/logicalType/GEOGRAPHY/algorithm").asText());
        assertEquals(
                INLINE_PROJJSON,
                element(json, "geometry_inline").at("/logicalType/GEOMETRY/crs").asText());
        assertTrue(element(json, "geometry_default").at("/logicalType/GEOMETRY").isObject());
        assertTrue(element(json, "geometry_default")
                .at("/logicalType/GEOMETRY/crs")
                .isMissingNode());
        assertEquals(1, element(json, "string").get("field_id").asInt());
        assertEquals(
                "NANOS",
                element(json, "ts_local_nanos")
                        .at("/logicalType/TIMESTAMP/unit")
                        .fieldNames()
                        .next());
    }

    @Test
    void refusesWhatItCannotReadExactlyNamingIt() throws IOException {
        ObjectNode json = ParquetSchemaJson.toJson(everyLogicalType());
        ObjectNode unknownMember = json.deepCopy();
        ((ObjectNode) unknownMember.withArray("schema").get(2)).put("colour", "blue");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ParquetSchemaJson.fromJson(unknownMember));
        assertTrue(e.getMessage().contains("schema[2].colour"), e.getMessage());

        ObjectNode unknownLogicalType = json.deepCopy();
        ((ObjectNode) unknownLogicalType.withArray("schema").get(2))
                .set("logicalType", JSON.readTree("{\"RASTER\": {}}"));
        e = assertThrows(IllegalArgumentException.class, () -> ParquetSchemaJson.fromJson(unknownLogicalType));
        assertTrue(e.getMessage().contains("schema[2].logicalType.RASTER"), e.getMessage());

        ObjectNode wrongEnum = json.deepCopy();
        ((ObjectNode) wrongEnum.withArray("schema").get(6).at("/logicalType/GEOGRAPHY"))
                .put("algorithm", "GREAT_CIRCLE");
        e = assertThrows(IllegalArgumentException.class, () -> ParquetSchemaJson.fromJson(wrongEnum));
        assertTrue(e.getMessage().contains("GREAT_CIRCLE"), e.getMessage());

        ObjectNode twoMembersInAUnion = json.deepCopy();
        ((ObjectNode) twoMembersInAUnion.withArray("schema").get(1).get("logicalType")).putObject("UTF8");
        assertThrows(IllegalArgumentException.class, () -> ParquetSchemaJson.fromJson(twoMembersInAUnion));
    }

    private static JsonNode element(JsonNode json, String name) {
        for (JsonNode element : json.get("schema")) {
            if (element.path("name").asText().equals(name)) {
                return element;
            }
        }
        throw new AssertionError("no element " + name);
    }
}
