package dev.nifigeoparquet.archive.format;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.cells.H3Cells;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.ParquetSchemaJson;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.Type;

/**
 * The archive descriptor ({@code _geoparquet_archive/descriptor.json}): everything pinned when the archive was
 * created or adopted. See docs/archive-format.md, section 3.
 *
 * @param formatVersion  {@link #FORMAT_VERSION}
 * @param createdAt      when the descriptor was written
 * @param h3Resolution   the pinned H3 resolution of the partition key
 * @param keyingRule     {@link #KEYING_RULE}, or {@link #EARLIER_KEYING_RULE} for archives created before it
 * @param geometryColumn the column the partition key is computed from
 * @param keyColumns     the stable feature key; empty when the archive is append-only
 * @param versionColumn  optional column ordering versions of one feature (a delta row older than the archive's is
 *                       ignored); null when not set
 * @param schema         the Parquet schema of every data file in parquet-java's text form: present in archives created
 *                       before {@code parquetSchema}, and in newer ones only when the text form parses back to the
 *                       identical schema; null otherwise
 * @param parquetSchema  the exact Parquet schema of every data file, as the footer holds it ({@link ParquetSchemaJson});
 *                       absent (null) in archives created before it, which are pinned by {@code schema}
 * @param footer         the canonical footer entries, in order
 * @param writer         how data files are written
 * @param protocol       commit protocol settings
 * @param compaction     when partitions qualify for compaction
 * @param adoption       what adoption found; null for archives created here
 * @param keyIndexShards how many shards the key-to-cell index has; 0 for an archive without a key
 */
public record ArchiveDescriptor(
        int formatVersion,
        Instant createdAt,
        int h3Resolution,
        String keyingRule,
        String geometryColumn,
        List<String> keyColumns,
        String versionColumn,
        String schema,
        JsonNode parquetSchema,
        List<FooterEntry> footer,
        WriterSettings writer,
        ProtocolSettings protocol,
        CompactionSettings compaction,
        AdoptionRecord adoption,
        int keyIndexShards) {

    public static final int FORMAT_VERSION = 1;
    /** The keying rule of docs/archive-format.md, section 6.1, which new archives name. */
    public static final String KEYING_RULE = "h3-cell-of-unwrapped-centroid-in-EPSG:4326";
    /**
     * The rule archives created before features crossing the antimeridian were unwrapped name. It differs from
     * {@link #KEYING_RULE} only for such features; those archives are keyed by {@link #KEYING_RULE} from then on
     * (section 6.1 says what becomes of rows keyed the earlier way).
     */
    public static final String EARLIER_KEYING_RULE = "h3-cell-of-centroid-in-EPSG:4326";
    /**
     * The rule of archives whose geometry column has great-circle edges (a Parquet GEOGRAPHY column, or non-planar
     * {@code edges} in the {@code geo} block): the cell of the spherical centroid (docs/archive-format.md, section 6.1).
     */
    public static final String SPHERICAL_KEYING_RULE = "h3-cell-of-spherical-centroid-in-EPSG:4326";
    /** Key-index shards of a keyed archive. Lookups read only the row groups whose key range can hold a wanted key,
     *  so shards may be large; fewer shards keep the journal folds that touch them cheap. */
    public static final int DEFAULT_KEY_INDEX_SHARDS = 16;

    public ArchiveDescriptor {
        Objects.requireNonNull(createdAt, "createdAt");
        H3Cells.requireResolution(h3Resolution);
        Objects.requireNonNull(geometryColumn, "geometryColumn");
        keyColumns = List.copyOf(keyColumns);
        footer = List.copyOf(footer);
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(compaction, "compaction");
        if (!KEYING_RULE.equals(keyingRule)
                && !EARLIER_KEYING_RULE.equals(keyingRule)
                && !SPHERICAL_KEYING_RULE.equals(keyingRule)) {
            throw new IllegalArgumentException("Unknown keying rule '" + keyingRule + "'; this implementation keys by "
                    + List.of(KEYING_RULE, SPHERICAL_KEYING_RULE, EARLIER_KEYING_RULE));
        }
        if (keyColumns.isEmpty() ? keyIndexShards != 0 : keyIndexShards < 1 || keyIndexShards > 256) {
            throw new IllegalArgumentException(
                    "keyIndexShards must be 1..256 for a keyed archive and 0 without a key, was " + keyIndexShards
                            + " with key columns " + keyColumns);
        }
        if (schema == null && parquetSchema == null) {
            throw new IllegalArgumentException(
                    "The descriptor pins no schema: it has neither 'parquetSchema' nor 'schema'");
        }
        MessageType parsed = exactSchema(schema, parquetSchema);
        if (!parsed.containsField(geometryColumn)) {
            throw new IllegalArgumentException("Geometry column '" + geometryColumn + "' is not in the schema");
        }
        for (String key : keyColumns) {
            if (!parsed.containsField(key)) {
                throw new IllegalArgumentException("Key column '" + key + "' is not in the schema "
                        + parsed.getFields().stream().map(Type::getName).toList());
            }
        }
        if (versionColumn != null && !parsed.containsField(versionColumn)) {
            throw new IllegalArgumentException("Version column '" + versionColumn + "' is not in the schema");
        }
    }

    /** The exact schema of every data file. */
    public MessageType exactSchema() {
        return exactSchema(schema, parquetSchema);
    }

    private static MessageType exactSchema(String text, JsonNode footerForm) {
        if (footerForm != null) {
            try {
                return ParquetSchemaJson.fromJson(footerForm);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "The descriptor's parquetSchema cannot be read: " + e.getMessage(), e);
            }
        }
        return MessageTypeParser.parseMessageType(text);
    }

    /** The entries every data file carries byte for byte. */
    public FooterEntries canonicalFooter() {
        Map<String, String> entries = new LinkedHashMap<>();
        footer.forEach(entry -> entries.put(entry.key(), entry.value()));
        return FooterEntries.canonicalOf(entries);
    }

    /** The canonical {@code geo} block, absent for archives of native Parquet GEOMETRY files without one. */
    public Optional<GeoMetadata> geo() {
        return Optional.ofNullable(canonicalFooter().geo()).map(GeoMetadata::parse);
    }

    /** Whether the archive was created under {@link #EARLIER_KEYING_RULE}: rows crossing the antimeridian may sit
     *  in the cell of their stored coordinates' planar centroid. */
    public boolean keyedByEarlierRule() {
        return EARLIER_KEYING_RULE.equals(keyingRule);
    }

    /** How the geometry column's edges run, by the keying rule: great-circle arcs under {@link #SPHERICAL_KEYING_RULE}. */
    public H3Keyer.Edges edges() {
        return SPHERICAL_KEYING_RULE.equals(keyingRule) ? H3Keyer.Edges.SPHERICAL : H3Keyer.Edges.PLANAR;
    }

    public boolean hasKey() {
        return !keyColumns.isEmpty();
    }

    /**
     * What a deletion row carries (section 5.8): the key columns, then the version column when the archive has one
     * and it is not a key column, since a sequenced deletion is ordered by its version (section 6.4).
     */
    public List<String> deletionColumns() {
        if (versionColumn == null || keyColumns.contains(versionColumn)) {
            return keyColumns;
        }
        List<String> columns = new ArrayList<>(keyColumns);
        columns.add(versionColumn);
        return List.copyOf(columns);
    }

    /**
     * The text form of a schema when it parses back to the identical schema, for readers of the text form; null when
     * it does not (a parameter holding commas or parentheses, such as a GEOMETRY crs that is a PROJJSON document).
     */
    public static String schemaText(MessageType schema) {
        String text = schema.toString();
        try {
            return MessageTypeParser.parseMessageType(text).equals(schema) ? text : null;
        } catch (RuntimeException doesNotParse) {
            return null;
        }
    }

    /** The exact form a schema is pinned in ({@code parquetSchema}). */
    public static JsonNode schemaJson(MessageType schema) {
        return ParquetSchemaJson.toJson(schema);
    }

    /** Footer entries as the descriptor lists them. */
    public static List<FooterEntry> footerEntries(FooterEntries entries) {
        return entries.asMap().entrySet().stream()
                .map(e -> new FooterEntry(e.getKey(), e.getValue()))
                .toList();
    }
}
