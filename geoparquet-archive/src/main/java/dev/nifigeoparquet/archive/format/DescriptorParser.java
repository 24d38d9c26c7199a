package dev.nifigeoparquet.archive.format;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import dev.nifigeoparquet.archive.error.UnsupportedFormatVersionException;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * The archive descriptor's JSON ({@code _geoparquet_archive/descriptor.json}, docs/archive-format.md, section 3). The
 * field names are the format's, written out here; the Java names of {@link ArchiveDescriptor} and the records it holds
 * play no part, so renaming a component never changes the format. {@code src/test/resources/golden/} pins the bytes.
 */
public final class DescriptorParser {

    private static final String WHAT = "archive descriptor";

    private static final String FORMAT_VERSION = "formatVersion";
    private static final String CREATED_AT = "createdAt";
    private static final String H3_RESOLUTION = "h3Resolution";
    private static final String KEYING_RULE = "keyingRule";
    private static final String GEOMETRY_COLUMN = "geometryColumn";
    private static final String KEY_COLUMNS = "keyColumns";
    /** Optional: null or absent when the archive has no version column. */
    private static final String VERSION_COLUMN = "versionColumn";
    /** The schema's text form; written only when it parses back to the identical schema. */
    private static final String SCHEMA = "schema";
    /** The schema as the footer holds it (ParquetSchemaJson); absent in archives created before it. */
    private static final String PARQUET_SCHEMA = "parquetSchema";

    private static final String FOOTER = "footer";
    private static final String FOOTER_KEY = "key";
    private static final String FOOTER_VALUE = "value";
    private static final String WRITER = "writer";
    private static final String CODEC = "codec";
    private static final String ZSTD_LEVEL = "zstdLevel";
    private static final String ROW_GROUP_ROW_COUNT = "rowGroupRowCount";
    private static final String TARGET_FILE_BYTES = "targetFileBytes";
    private static final String PROTOCOL = "protocol";
    private static final String OPERATION_ID_RETENTION = "operationIdRetention";
    private static final String LOG_ENTRY_RETENTION = "logEntryRetention";
    private static final String WRITER_LEASE_SECONDS = "writerLeaseSeconds";
    private static final String MAX_COMMIT_ATTEMPTS = "maxCommitAttempts";
    /** Optional: absent (or 0) in descriptors written before it existed, meaning the default of 60 seconds. */
    private static final String TRANSACTION_TIMEOUT_SECONDS = "transactionTimeoutSeconds";
    /** Optional: absent in descriptors written before tombstones existed, meaning the default. */
    private static final String TOMBSTONE_RETENTION_SECONDS = "tombstoneRetentionSeconds";

    private static final String COMPACTION = "compaction";
    private static final String MIN_FILES = "minFiles";
    private static final String SMALL_FILE_FRACTION = "smallFileFraction";
    private static final String MIN_FILE_AGE_SECONDS = "minFileAgeSeconds";
    /** Optional: null or absent for an archive created rather than adopted. */
    private static final String ADOPTION = "adoption";

    private static final String KEY_INDEX_SHARDS = "keyIndexShards";

    private DescriptorParser() {}

    /** The descriptor's file content: fields in the order of section 3, pretty-printed, without a final newline. */
    public static byte[] toJson(ArchiveDescriptor descriptor) {
        return JsonFields.write(generator -> toJson(descriptor, generator));
    }

    static void toJson(ArchiveDescriptor descriptor, JsonGenerator generator) throws IOException {
        generator.writeStartObject();
        generator.writeNumberField(FORMAT_VERSION, descriptor.formatVersion());
        generator.writeStringField(CREATED_AT, descriptor.createdAt().toString());
        generator.writeNumberField(H3_RESOLUTION, descriptor.h3Resolution());
        generator.writeStringField(KEYING_RULE, descriptor.keyingRule());
        generator.writeStringField(GEOMETRY_COLUMN, descriptor.geometryColumn());
        JsonFields.writeStrings(generator, KEY_COLUMNS, descriptor.keyColumns());
        JsonFields.writeNullableString(generator, VERSION_COLUMN, descriptor.versionColumn());
        if (descriptor.schema() != null) {
            generator.writeStringField(SCHEMA, descriptor.schema());
        }
        if (descriptor.parquetSchema() != null) {
            generator.writeFieldName(PARQUET_SCHEMA);
            generator.writeTree(descriptor.parquetSchema());
        }
        generator.writeArrayFieldStart(FOOTER);
        for (FooterEntry entry : descriptor.footer()) {
            generator.writeStartObject();
            generator.writeStringField(FOOTER_KEY, entry.key());
            generator.writeStringField(FOOTER_VALUE, entry.value());
            generator.writeEndObject();
        }
        generator.writeEndArray();

        WriterSettings writer = descriptor.writer();
        generator.writeObjectFieldStart(WRITER);
        generator.writeStringField(CODEC, writer.codec().name());
        generator.writeNumberField(ZSTD_LEVEL, writer.zstdLevel());
        generator.writeNumberField(ROW_GROUP_ROW_COUNT, writer.rowGroupRowCount());
        generator.writeNumberField(TARGET_FILE_BYTES, writer.targetFileBytes());
        generator.writeEndObject();

        ProtocolSettings protocol = descriptor.protocol();
        generator.writeObjectFieldStart(PROTOCOL);
        generator.writeNumberField(OPERATION_ID_RETENTION, protocol.operationIdRetention());
        generator.writeNumberField(LOG_ENTRY_RETENTION, protocol.logEntryRetention());
        generator.writeNumberField(WRITER_LEASE_SECONDS, protocol.writerLeaseSeconds());
        generator.writeNumberField(MAX_COMMIT_ATTEMPTS, protocol.maxCommitAttempts());
        generator.writeNumberField(TRANSACTION_TIMEOUT_SECONDS, protocol.transactionTimeoutSeconds());
        generator.writeNumberField(TOMBSTONE_RETENTION_SECONDS, protocol.tombstoneRetentionSeconds());
        generator.writeEndObject();

        CompactionSettings compaction = descriptor.compaction();
        generator.writeObjectFieldStart(COMPACTION);
        generator.writeNumberField(MIN_FILES, compaction.minFiles());
        generator.writeNumberField(SMALL_FILE_FRACTION, compaction.smallFileFraction());
        generator.writeNumberField(MIN_FILE_AGE_SECONDS, compaction.minFileAgeSeconds());
        generator.writeEndObject();

        generator.writeFieldName(ADOPTION);
        if (descriptor.adoption() == null) {
            generator.writeNull();
        } else {
            AdoptionRecordParser.toJson(descriptor.adoption(), generator);
        }
        generator.writeNumberField(KEY_INDEX_SHARDS, descriptor.keyIndexShards());
        generator.writeEndObject();
    }

    /**
     * Reads a descriptor.
     *
     * @param file the descriptor's location, named in every error
     * @throws UnsupportedFormatVersionException when it was written under a newer format version
     * @throws ArchiveFormatException            when it does not follow the format, naming the field
     */
    public static ArchiveDescriptor fromJson(byte[] json, String file) throws ArchiveFormatException {
        JsonFields fields = JsonFields.parse(json, WHAT, file);
        int formatVersion = fields.formatVersion(FORMAT_VERSION, "The " + WHAT, 0, ArchiveDescriptor.FORMAT_VERSION);

        List<FooterEntry> footer = new ArrayList<>();
        for (JsonFields entry : fields.requiredObjects(FOOTER)) {
            footer.add(new FooterEntry(entry.requiredString(FOOTER_KEY), entry.requiredString(FOOTER_VALUE)));
        }
        JsonFields writerFields = fields.requiredObject(WRITER);
        JsonFields protocolFields = fields.requiredObject(PROTOCOL);
        JsonFields compactionFields = fields.requiredObject(COMPACTION);
        JsonFields adoptionFields = fields.optionalObject(ADOPTION);
        JsonNode parquetSchema = fields.raw(PARQUET_SCHEMA);
        try {
            WriterSettings writer = new WriterSettings(
                    writerFields.requiredEnum(CODEC, CompressionCodecName.class),
                    writerFields.requiredInt(ZSTD_LEVEL),
                    writerFields.requiredInt(ROW_GROUP_ROW_COUNT),
                    writerFields.requiredLong(TARGET_FILE_BYTES));
            ProtocolSettings protocol = new ProtocolSettings(
                    protocolFields.requiredInt(OPERATION_ID_RETENTION),
                    protocolFields.requiredInt(LOG_ENTRY_RETENTION),
                    protocolFields.requiredLong(WRITER_LEASE_SECONDS),
                    protocolFields.requiredInt(MAX_COMMIT_ATTEMPTS),
                    protocolFields.has(TRANSACTION_TIMEOUT_SECONDS)
                            ? protocolFields.requiredLong(TRANSACTION_TIMEOUT_SECONDS)
                            : 0,
                    protocolFields.has(TOMBSTONE_RETENTION_SECONDS)
                            ? protocolFields.requiredLong(TOMBSTONE_RETENTION_SECONDS)
                            : 0);
            CompactionSettings compaction = new CompactionSettings(
                    compactionFields.requiredInt(MIN_FILES),
                    compactionFields.requiredDouble(SMALL_FILE_FRACTION),
                    compactionFields.requiredLong(MIN_FILE_AGE_SECONDS));
            AdoptionRecord adoption = adoptionFields == null ? null : AdoptionRecordParser.fromJson(adoptionFields);
            return new ArchiveDescriptor(
                    formatVersion,
                    fields.requiredInstant(CREATED_AT),
                    fields.requiredInt(H3_RESOLUTION),
                    fields.requiredString(KEYING_RULE),
                    fields.requiredString(GEOMETRY_COLUMN),
                    fields.requiredStrings(KEY_COLUMNS),
                    fields.optionalString(VERSION_COLUMN),
                    fields.optionalString(SCHEMA),
                    parquetSchema == null ? null : parquetSchema.deepCopy(),
                    footer,
                    writer,
                    protocol,
                    compaction,
                    adoption,
                    fields.requiredInt(KEY_INDEX_SHARDS));
        } catch (IllegalArgumentException invalid) {
            throw fields.invalid("The " + WHAT, invalid);
        }
    }
}
