package dev.nifigeoparquet.archive.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Validates a {@code geo} block against the official GeoParquet JSON Schema of its version, offline: the
 * PROJJSON schemas the GeoParquet schemas {@code $ref} on proj.org are mapped to the copies in the peer folder.
 */
public final class GeoSchema {

    private static final Map<String, JsonSchema> SCHEMAS = new ConcurrentHashMap<>();

    private GeoSchema() {}

    /** Validation errors; empty when the block is valid. {@code version} is e.g. "1.1.0". */
    public static List<String> errors(String version, JsonNode geo) {
        Set<ValidationMessage> messages =
                SCHEMAS.computeIfAbsent(version, GeoSchema::load).validate(geo);
        return messages.stream().map(ValidationMessage::getMessage).sorted().toList();
    }

    private static JsonSchema load(String version) {
        Path schemas = PeerData.root().resolve("schema");
        Path projjson = schemas.resolve("projjson");
        JsonSchemaFactory factory = JsonSchemaFactory.getInstance(
                SpecVersion.VersionFlag.V7,
                builder -> builder.schemaMappers(mappers -> mappers.mapPrefix(
                                "https://proj.org/schemas/v0.5/projjson.schema.json",
                                projjson.resolve("projjson-v0.5.schema.json")
                                        .toUri()
                                        .toString())
                        .mapPrefix(
                                "https://proj.org/schemas/v0.7/projjson.schema.json",
                                projjson.resolve("projjson-v0.7.schema.json")
                                        .toUri()
                                        .toString())));
        Path schemaFile = PeerData.file("schema/geoparquet-" + version + ".schema.json");
        JsonSchema schema =
                factory.getSchema(SchemaLocation.of(schemaFile.toUri().toString()));
        schema.initializeValidators();
        return schema;
    }
}
