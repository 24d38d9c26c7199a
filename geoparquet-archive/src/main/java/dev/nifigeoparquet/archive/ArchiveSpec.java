package dev.nifigeoparquet.archive;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.CompactionSettings;
import dev.nifigeoparquet.archive.format.ProtocolSettings;
import dev.nifigeoparquet.archive.geo.GeoColumn;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.keying.GeoParquetCrs;
import dev.nifigeoparquet.archive.keying.H3Cells;
import dev.nifigeoparquet.archive.keying.KeyingException;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.ParquetFileException;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Everything an archive pins at creation, validated: the schema and canonical footer entries of its data files,
 * the geometry and key columns, the H3 resolution, and the writer and protocol settings.
 *
 * @param warnings conformance warnings found while validating (for example a {@code crs} that is not
 *                 PROJJSON; the bytes are kept unchanged), and what was removed from the source's footer because
 *                 it describes only that file (a {@code geo} file-level {@code bbox}, and its copy inside
 *                 {@code ARROW:schema})
 */
public record ArchiveSpec(MessageType schema, FooterEntries footer, String geometryColumn, List<String> keyColumns,
                          String versionColumn, int h3Resolution, WriterSettings writer, ProtocolSettings protocol,
                          CompactionSettings compaction, List<String> warnings) {

    public ArchiveSpec {
        Objects.requireNonNull(schema, "schema");
        Objects.requireNonNull(footer, "footer");
        keyColumns = List.copyOf(keyColumns);
        H3Cells.requireResolution(h3Resolution);
        Objects.requireNonNull(writer, "writer");
        Objects.requireNonNull(protocol, "protocol");
        Objects.requireNonNull(compaction, "compaction");
        warnings = List.copyOf(warnings);
    }

    /**
     * Takes schema and canonical footer entries from a template GeoParquet file (only its footer is read) and
     * validates them for use as an archive's pinned settings. A file-level {@code bbox} in the template's {@code geo}
     * block (GeoPandas writes one) is removed, and the removal reported in {@link #warnings()}.
     */
    public static ArchiveSpec fromTemplate(InputFile template, String templateName, List<String> keyColumns,
                                           String versionColumn, int h3Resolution, WriterSettings writer) throws IOException {
        ParquetFooter footer;
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(template, templateName)) {
            footer = reader.footer();
        } catch (ParquetFileException unreadable) {
            throw unreadable.asRejectedInput(); // the template is input, not the archive's data
        }
        return of(footer.schema(), footer.canonicalEntries(), keyColumns, versionColumn, h3Resolution, writer, templateName);
    }

    /** Validates explicit settings; the geometry column is the {@code geo} primary column or the first native one. */
    public static ArchiveSpec of(MessageType schema, FooterEntries footer, List<String> keyColumns, String versionColumn,
                                 int h3Resolution, WriterSettings writer, String source) {
        List<String> warnings = new ArrayList<>();
        List<String> derived = new ArrayList<>();
        footer = CanonicalFooters.withoutFileBbox(footer, derived);
        derived.forEach(note -> warnings.add(source + ": " + note));
        String geometryColumn;
        if (footer.geo() != null) {
            GeoMetadata geo = parseGeo(footer.geo(), source);
            geometryColumn = geo.primaryColumn();
            validateGeo(geo, footer.geo(), source, warnings);
        } else {
            geometryColumn = firstNativeGeometryColumn(schema, source);
        }
        requireTopLevelColumn(schema, geometryColumn, "geometry column", source);
        if (schema.containsField(ArchiveLayout.PARTITION_COLUMN)) {
            throw new RejectedInputException(source + " has a column named '" + ArchiveLayout.PARTITION_COLUMN
                    + "', which would collide with the partition column that readers derive from directory names");
        }
        for (String key : keyColumns) {
            requireTopLevelColumn(schema, key, "key column", source);
            if (!schema.getType(key).isPrimitive()) {
                throw new RejectedInputException("Key column '" + key + "' of " + source + " is a group; a feature key must be a primitive column");
            }
        }
        if (versionColumn != null) {
            requireTopLevelColumn(schema, versionColumn, "version column", source);
        }
        return new ArchiveSpec(schema, footer, geometryColumn, keyColumns, versionColumn, h3Resolution, writer,
                ProtocolSettings.DEFAULT, CompactionSettings.DEFAULT, warnings);
    }

    public ArchiveSpec withProtocol(ProtocolSettings settings) {
        return new ArchiveSpec(schema, footer, geometryColumn, keyColumns, versionColumn, h3Resolution, writer, settings, compaction, warnings);
    }

    public ArchiveSpec withCompaction(CompactionSettings settings) {
        return new ArchiveSpec(schema, footer, geometryColumn, keyColumns, versionColumn, h3Resolution, writer, protocol, settings, warnings);
    }

    private static GeoMetadata parseGeo(String geo, String source) {
        try {
            return GeoMetadata.parse(geo);
        } catch (RejectedInputException refused) {
            throw refused;
        } catch (IllegalArgumentException invalid) {
            throw new RejectedInputException("geo metadata of " + source + ": " + invalid.getMessage(), invalid);
        }
    }

    private static void validateGeo(GeoMetadata geo, String raw, String source, List<String> warnings) {
        JsonNode columns;
        try {
            columns = dev.nifigeoparquet.archive.format.ArchiveJson.mapper().readTree(raw).path("columns");
        } catch (IOException e) {
            throw new RejectedInputException("geo metadata of " + source + " is not JSON: " + e.getMessage(), e);
        }
        for (var entry : geo.columns().entrySet()) {
            String column = entry.getKey();
            GeoColumn geoColumn = entry.getValue();
            if (geoColumn.bbox().isPresent()) {
                throw new IllegalStateException("The file-level bbox of column '" + column + "' of " + source + " was not removed");
            }
            checkCrs(columns.path(column).get("crs"), columns.path(column).has("crs"), column, source, warnings);
        }
    }

    /** Unknown CRS is refused (features could not be keyed); a non-PROJJSON CRS is a warning, never rewritten. */
    static void checkCrs(JsonNode crs, boolean present, String column, String source, List<String> warnings) {
        try {
            GeoParquetCrs.resolve(present ? crs : null).conformanceWarning()
                    .ifPresent(warning -> warnings.add(source + ", column '" + column + "': " + warning + "; the bytes are kept unchanged"));
        } catch (KeyingException e) {
            throw new RejectedInputException(source + ", column '" + column + "': " + e.getMessage(), e);
        }
    }

    private static String firstNativeGeometryColumn(MessageType schema, String source) {
        for (Type field : schema.getFields()) {
            if (GeometryCodec.isParquetGeospatial(field)) {
                return field.getName();
            }
        }
        throw new RejectedInputException(source + " has neither 'geo' metadata nor a native Parquet GEOMETRY column: no geometry to key by");
    }

    private static void requireTopLevelColumn(MessageType schema, String column, String role, String source) {
        if (column == null || !schema.containsField(column)) {
            throw new RejectedInputException("The " + role + " '" + column + "' is not a column of " + source
                    + "; its columns are " + schema.getFields().stream().map(Type::getName).toList());
        }
    }
}
