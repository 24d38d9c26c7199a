package dev.nifigeoparquet.archive;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.cells.DeclaredCrs;
import dev.nifigeoparquet.archive.cells.GeoParquetCrs;
import dev.nifigeoparquet.archive.cells.H3Cells;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.CompactionSettings;
import dev.nifigeoparquet.archive.format.ProtocolSettings;
import dev.nifigeoparquet.archive.geo.GeoColumn;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.geo.GeometryEncoding;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import org.apache.parquet.column.schema.EdgeInterpolationAlgorithm;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * Everything an archive pins at creation, validated: the schema and canonical footer entries of its data files,
 * the geometry and key columns, the H3 resolution, and the writer and protocol settings.
 *
 * @param warnings conformance warnings found while validating (for example a {@code crs} that is not
 *                 PROJJSON; the bytes are kept unchanged), and what was removed from the source's footer because
 *                 it describes only that file (a {@code geo} file-level {@code bbox}, and its copy inside
 *                 {@code ARROW:schema})
 */
public record ArchiveSpec(
        MessageType schema,
        FooterEntries footer,
        String geometryColumn,
        List<String> keyColumns,
        String versionColumn,
        int h3Resolution,
        WriterSettings writer,
        ProtocolSettings protocol,
        CompactionSettings compaction,
        List<String> warnings) {

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
    public static ArchiveSpec fromTemplate(
            InputFile template,
            String templateName,
            List<String> keyColumns,
            String versionColumn,
            int h3Resolution,
            WriterSettings writer)
            throws IOException {
        ParquetFooter footer;
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(template, templateName)) {
            footer = reader.footer();
        } catch (ParquetFileException unreadable) {
            throw unreadable.asRejectedInput(); // the template is input, not the archive's data
        }
        return of(
                footer.schema(),
                footer.canonicalEntries(),
                keyColumns,
                versionColumn,
                h3Resolution,
                writer,
                templateName);
    }

    /** Validates explicit settings; the geometry column is the {@code geo} primary column or the first native one. */
    public static ArchiveSpec of(
            MessageType schema,
            FooterEntries footer,
            List<String> keyColumns,
            String versionColumn,
            int h3Resolution,
            WriterSettings writer,
            String source) {
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
        try {
            DeclaredCrs.of(schema, footer.asMap(), geometryColumn);
        } catch (KeyingException e) {
            throw new IllegalArgumentException(source + ", column '" + geometryColumn + "': " + e.getMessage(), e);
        }
        if (schema.containsField(ArchiveLayout.PARTITION_COLUMN)) {
            throw new RejectedInputException(source + " has a column named '" + ArchiveLayout.PARTITION_COLUMN
                    + "', which would collide with the partition column that readers derive from directory names");
        }
        for (String key : keyColumns) {
            requireTopLevelColumn(schema, key, "key column", source);
            if (!schema.getType(key).isPrimitive()) {
                throw new RejectedInputException("Key column '" + key + "' of " + source
                        + " is a group; a feature key must be a primitive column");
            }
        }
        if (versionColumn != null) {
            requireTopLevelColumn(schema, versionColumn, "version column", source);
        }
        return new ArchiveSpec(
                schema,
                footer,
                geometryColumn,
                keyColumns,
                versionColumn,
                h3Resolution,
                writer,
                ProtocolSettings.DEFAULT,
                CompactionSettings.DEFAULT,
                warnings);
    }

    /**
     * The keying rule the archive is created under (docs/archive-format.md, section 6.1): by the spherical centroid when
     * the geometry column's edges are great-circle arcs (a Parquet GEOGRAPHY column, or {@code edges} other than
     * {@code planar} in the {@code geo} block), by the planar one otherwise.
     */
    public String keyingRule() {
        boolean geography = schema.getType(geometryColumn).getLogicalTypeAnnotation()
                instanceof LogicalTypeAnnotation.GeographyLogicalTypeAnnotation;
        boolean curvedEdges = footer.geo() != null
                && GeoMetadata.parse(footer.geo()).columns().containsKey(geometryColumn)
                && !GeoColumn.PLANAR.equals(
                        GeoMetadata.parse(footer.geo()).column(geometryColumn).edges());
        return geography || curvedEdges ? ArchiveDescriptor.SPHERICAL_KEYING_RULE : ArchiveDescriptor.KEYING_RULE;
    }

    /**
     * The same archive with its geometry column also typed as Parquet {@code GEOMETRY} ({@code GEOGRAPHY} when its
     * edges are not planar), the {@code geo} block kept: GeoParquet 1.1 readers read the block, readers of the native
     * type the logical type, and every data file carries both. The logical type's crs is the block's: none for
     * OGC:CRS84 (absent from the block or written out in full, as GeoPandas does), the logical type's default; else
     * the block's {@code crs} as it is (PROJJSON inline, as GeoParquet 2.0 writes a non-default crs). A column that is typed so already is left as it is.
     *
     * @throws IllegalArgumentException when the column is not WKB in a plain binary column, the one form both share
     */
    public ArchiveSpec withNativeGeometry(String source) {
        Type column = schema.getType(geometryColumn);
        if (GeometryCodec.isParquetGeospatial(column)) {
            return this;
        }
        GeoColumn geo =
                footer.geo() == null ? null : GeoMetadata.parse(footer.geo()).column(geometryColumn);
        if (geo == null
                || geo.encoding() != GeometryEncoding.WKB
                || !column.isPrimitive()
                || column.asPrimitiveType().getPrimitiveTypeName() != PrimitiveTypeName.BINARY
                || column.getLogicalTypeAnnotation() != null) {
            throw new IllegalArgumentException(
                    source + ", column '" + geometryColumn + "': only a plain binary column of WKB can "
                            + "also carry the Parquet GEOMETRY type; this one is "
                            + (geo == null
                                    ? "not in the geo block"
                                    : geo.encoding().jsonName() + " in "
                                            + column.toString().trim()));
        }
        String crs = crsText(footer.geo(), geometryColumn, source);
        LogicalTypeAnnotation annotation = GeoColumn.PLANAR.equals(geo.edges())
                ? LogicalTypeAnnotation.geometryType(crs)
                : LogicalTypeAnnotation.geographyType(
                        crs, EdgeInterpolationAlgorithm.valueOf(geo.edges().toUpperCase(Locale.ROOT)));
        PrimitiveType primitive = column.asPrimitiveType();
        Types.PrimitiveBuilder<PrimitiveType> builder = Types.primitive(
                        PrimitiveTypeName.BINARY, primitive.getRepetition())
                .as(annotation)
                .columnOrder(primitive.columnOrder());
        if (primitive.getId() != null) {
            builder.id(primitive.getId().intValue());
        }
        List<Type> fields = new ArrayList<>(schema.getFields());
        fields.set(schema.getFieldIndex(geometryColumn), builder.named(geometryColumn));
        MessageType typed = new MessageType(schema.getName(), fields);
        try {
            DeclaredCrs.of(typed, footer.asMap(), geometryColumn);
        } catch (KeyingException e) {
            throw new IllegalArgumentException(source + ", column '" + geometryColumn + "': " + e.getMessage(), e);
        }
        return new ArchiveSpec(
                typed,
                footer,
                geometryColumn,
                keyColumns,
                versionColumn,
                h3Resolution,
                writer,
                protocol,
                compaction,
                warnings);
    }

    /** The geo block's crs of a column as the logical type's crs: null for OGC:CRS84, the JSON text otherwise. */
    private static String crsText(String geoJson, String column, String source) {
        JsonNode entry;
        try {
            entry = ArchiveJson.mapper().readTree(geoJson).path("columns").path(column);
        } catch (IOException e) {
            throw new IllegalArgumentException("geo metadata of " + source + " is not JSON: " + e.getMessage(), e);
        }
        if (!entry.has("crs")) {
            return null;
        }
        JsonNode crs = entry.get("crs");
        if (crs.isNull()) {
            throw new IllegalArgumentException(source + ", column '" + column
                    + "': its CRS is explicitly undefined, so no logical type can name it");
        }
        if ("OGC:CRS84".equals(GeoParquetCrs.resolve(crs).authorityCode())) {
            return null; // the logical type's default, as the block's
        }
        return crs.isTextual() ? crs.asText() : crs.toString();
    }

    public ArchiveSpec withProtocol(ProtocolSettings settings) {
        return new ArchiveSpec(
                schema,
                footer,
                geometryColumn,
                keyColumns,
                versionColumn,
                h3Resolution,
                writer,
                settings,
                compaction,
                warnings);
    }

    public ArchiveSpec withCompaction(CompactionSettings settings) {
        return new ArchiveSpec(
                schema,
                footer,
                geometryColumn,
                keyColumns,
                versionColumn,
                h3Resolution,
                writer,
                protocol,
                settings,
                warnings);
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
            columns = ArchiveJson.mapper().readTree(raw).path("columns");
        } catch (IOException e) {
            throw new RejectedInputException("geo metadata of " + source + " is not JSON: " + e.getMessage(), e);
        }
        for (var entry : geo.columns().entrySet()) {
            String column = entry.getKey();
            GeoColumn geoColumn = entry.getValue();
            if (geoColumn.bbox().isPresent()) {
                throw new IllegalStateException(
                        "The file-level bbox of column '" + column + "' of " + source + " was not removed");
            }
            checkCrs(columns.path(column).get("crs"), columns.path(column).has("crs"), column, source, warnings);
        }
    }

    /** Unknown CRS is refused (features could not be keyed); a non-PROJJSON CRS is a warning, never rewritten. */
    static void checkCrs(JsonNode crs, boolean present, String column, String source, List<String> warnings) {
        try {
            GeoParquetCrs.resolve(present ? crs : null)
                    .conformanceWarning()
                    .ifPresent(warning -> warnings.add(
                            source + ", column '" + column + "': " + warning + "; the bytes are kept unchanged"));
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
        throw new RejectedInputException(
                source + " has neither 'geo' metadata nor a native Parquet GEOMETRY column: no geometry to key by");
    }

    private static void requireTopLevelColumn(MessageType schema, String column, String role, String source) {
        if (column == null || !schema.containsField(column)) {
            throw new RejectedInputException(
                    "The " + role + " '" + column + "' is not a column of " + source + "; its columns are "
                            + schema.getFields().stream().map(Type::getName).toList());
        }
    }
}
