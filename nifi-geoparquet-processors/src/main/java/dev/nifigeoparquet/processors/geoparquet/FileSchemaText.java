package dev.nifigeoparquet.processors.geoparquet;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.ParquetSchemaJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.nifi.serialization.record.RecordField;
import org.apache.nifi.serialization.record.RecordSchema;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

/**
 * The schema text that {@link GeoParquetReader} attaches to the record schemas it produces: the file's exact
 * Parquet schema and its canonical footer entries (including {@code geo}, byte for byte). A
 * {@link GeoParquetRecordSetWriter} that derives its schema from the records uses them, so a flow that reads
 * GeoParquet and writes GeoParquet keeps every column type (timestamp units and zones, unsigned integers,
 * GeoArrow layouts) and the {@code geo} block unchanged. Processors that change the record schema produce a
 * schema without this text, and the writer then derives its schema from the record fields.
 */
final class FileSchemaText {

    /** {@link RecordSchema#getSchemaFormat()} of the schemas the reader produces. */
    static final String FORMAT = "geoparquet-file-schema";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A file's schema and the footer entries every rewrite of it carries. */
    record FileSchema(MessageType schema, FooterEntries footer) {}

    private FileSchemaText() {}

    /**
     * The text. The schema is carried in the footer form ({@link ParquetSchemaJson}), which keeps every logical type
     * parameter (a GEOMETRY crs that is a PROJJSON document among them); empty only when the schema cannot be written
     * in it.
     */
    static Optional<String> of(MessageType schema, FooterEntries footer) {
        ObjectNode root = JSON.createObjectNode();
        try {
            root.set("parquetSchema", ParquetSchemaJson.toJson(schema));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
        ObjectNode entries = root.putObject("footer");
        footer.asMap().forEach(entries::put);
        try {
            return Optional.of(JSON.writeValueAsString(root));
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
    }

    /** The file schema a record schema carries, if it still describes exactly the record's top-level fields. */
    static Optional<FileSchema> carriedBy(RecordSchema recordSchema) {
        if (recordSchema == null
                || !FORMAT.equals(recordSchema.getSchemaFormat().orElse(null))
                || recordSchema.getSchemaText().isEmpty()) {
            return Optional.empty();
        }
        try {
            JsonNode root = JSON.readTree(recordSchema.getSchemaText().get());
            MessageType schema = ParquetSchemaJson.fromJson(root.path("parquetSchema"));
            List<String> parquetNames =
                    schema.getFields().stream().map(Type::getName).toList();
            List<String> recordNames = recordSchema.getFields().stream()
                    .map(RecordField::getFieldName)
                    .toList();
            if (!parquetNames.equals(recordNames)) {
                return Optional.empty();
            }
            Map<String, String> entries = new LinkedHashMap<>();
            root.path("footer")
                    .properties()
                    .forEach(entry ->
                            entries.put(entry.getKey(), entry.getValue().asText()));
            return Optional.of(new FileSchema(schema, FooterEntries.canonicalOf(entries)));
        } catch (JsonProcessingException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
