package dev.nifigeoparquet.processors.geoparquet;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.geo.GeoColumn;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.ops.SchemaHandling;
import dev.nifigeoparquet.archive.parquet.ColumnEncodings;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.ParquetSchemaJson;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.processors.record.ParquetRecordSchemas;
import dev.nifigeoparquet.processors.record.RecordConversionOptions;
import dev.nifigeoparquet.processors.service.ArchiveLocation;
import dev.nifigeoparquet.services.GeoParquetArchiveService;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.nifi.annotation.behavior.Restricted;
import org.apache.nifi.annotation.behavior.Restriction;
import org.apache.nifi.annotation.documentation.CapabilityDescription;
import org.apache.nifi.annotation.documentation.SeeAlso;
import org.apache.nifi.annotation.documentation.Tags;
import org.apache.nifi.annotation.lifecycle.OnEnabled;
import org.apache.nifi.components.AllowableValue;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.components.RequiredPermission;
import org.apache.nifi.components.ValidationContext;
import org.apache.nifi.components.ValidationResult;
import org.apache.nifi.context.PropertyContext;
import org.apache.nifi.controller.AbstractControllerService;
import org.apache.nifi.controller.ConfigurationContext;
import org.apache.nifi.expression.ExpressionLanguageScope;
import org.apache.nifi.flowfile.attributes.CoreAttributes;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.migration.PropertyConfiguration;
import org.apache.nifi.processor.DataUnit;
import org.apache.nifi.processor.util.StandardValidators;
import org.apache.nifi.schema.access.SchemaNotFoundException;
import org.apache.nifi.serialization.RecordSetWriter;
import org.apache.nifi.serialization.RecordSetWriterFactory;
import org.apache.nifi.serialization.SimpleRecordSchema;
import org.apache.nifi.serialization.record.DataType;
import org.apache.nifi.serialization.record.RecordField;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.nifi.serialization.record.RecordSchema;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;

@Tags({"geoparquet", "parquet", "geospatial", "gis", "wkb", "wkt", "geoarrow", "record", "writer", "recordset"})
@CapabilityDescription("Writes records as one GeoParquet file per FlowFile. Geometry fields may hold WKB bytes or WKT "
        + "text; each is encoded for its column (WKB, a GeoArrow native layout, or the Parquet GEOMETRY type). The Parquet "
        + "schema and the footer entries come from the Schema Source: the records (keeping the exact schema and 'geo' "
        + "block of files read by GeoParquetReader), a Parquet schema with a configurable 'geo' block, or an archive, "
        + "whose schema and canonical footer bytes are used verbatim so the file can be upserted into it. Values are "
        + "converted exactly: a value that does not fit its column (out of range, too precise, wrong type) fails the "
        + "write and names the field, rather than being truncated.")
@SeeAlso(GeoParquetReader.class)
@Restricted(
        restrictions = {
            @Restriction(
                    requiredPermission = RequiredPermission.READ_FILESYSTEM,
                    explanation =
                            "With Schema Source 'Archive Directory' the writer reads the archive descriptor from a local directory.")
        })
public class GeoParquetRecordSetWriter extends AbstractControllerService implements RecordSetWriterFactory {

    static final AllowableValue WRITE_NULL =
            new AllowableValue("Write Null", "Write Null", "A record lacking a nullable column gets null there.");
    static final AllowableValue FAIL_ON_MISSING = new AllowableValue(
            "Fail", "Fail", "A record lacking a nullable column fails the write, naming the record and the column.");
    static final AllowableValue FAIL_ON_UNKNOWN = new AllowableValue(
            "Fail",
            "Fail",
            "A record with a field the schema has no column for fails the write, so no data is dropped silently.");
    static final AllowableValue IGNORE =
            new AllowableValue("Ignore", "Ignore", "A field the schema has no column for is left out of the file.");

    /** Each codec the archive writes, with what it trades. */
    private static final Map<CompressionCodecName, String> CODEC_TRADE_OFFS = Map.of(
            CompressionCodecName.ZSTD,
            "The smallest files for their speed among the codecs current Parquet readers share; the level is ZSTD Level.",
            CompressionCodecName.SNAPPY,
            "Fast to write and read, larger files than ZSTD; read by the oldest Parquet readers too.",
            CompressionCodecName.GZIP,
            "Small files, slow to write; for readers that lack ZSTD.",
            CompressionCodecName.LZ4_RAW,
            "Very fast, larger files than ZSTD; needs a reader that knows LZ4_RAW (current pyarrow, DuckDB and"
                    + " parquet-java do).",
            CompressionCodecName.UNCOMPRESSED,
            "No compression: the largest files, for storage that compresses on its own.");

    static final String DEFAULT_GEOMETRY_COLUMN = "geometry";

    /** A page smaller than this is mostly page header. */
    private static final long MIN_PAGE_BYTES = 1024;

    public static final PropertyDescriptor SCHEMA_SOURCE = new PropertyDescriptor.Builder()
            .name("Schema Source")
            .description(
                    "Where the Parquet schema and the footer entries (the 'geo' block among them) of the written file come from.")
            .required(true)
            .allowableValues(SchemaSource.class)
            .defaultValue(SchemaSource.RECORD_SCHEMA)
            .build();

    public static final PropertyDescriptor ARCHIVE_SERVICE = new PropertyDescriptor.Builder()
            .name("GeoParquet Archive Service")
            .description("The archive whose pinned Parquet schema and canonical footer entries ('geo' among them) are "
                    + "written byte for byte, as the service cached them when it was enabled.")
            .required(true)
            .identifiesControllerService(GeoParquetArchiveService.class)
            .dependsOn(SCHEMA_SOURCE, SchemaSource.ARCHIVE_SERVICE)
            .build();

    public static final PropertyDescriptor ARCHIVE_DIRECTORY = new PropertyDescriptor.Builder()
            .name("Archive Directory")
            .description(
                    "Root directory of a GeoParquet archive on the local filesystem. Its pinned Parquet schema and its "
                            + "canonical footer entries ('geo' and whatever the archive's creator wrote beside it) are written byte for "
                            + "byte. They are read when the service is enabled; re-enable it after the archive's schema changes."
                            + " Expression Language sees parameters and environment variables only, as the archive service's"
                            + " Archive Root Directory does.")
            .required(true)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.createDirectoryExistsValidator(true, false))
            .dependsOn(SCHEMA_SOURCE, SchemaSource.ARCHIVE)
            .build();

    public static final PropertyDescriptor ALLOWED_ROOTS = new PropertyDescriptor.Builder()
            .name("Allowed Archive Roots")
            .description(
                    "Comma-separated base directories the Archive Directory must lie under (after resolving '..' and symbolic"
                            + " links), as the GeoParquet archive service's property of the same name keeps its root. Leave empty to allow any"
                            + " directory the NiFi user can read.")
            .required(false)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(SCHEMA_SOURCE, SchemaSource.ARCHIVE)
            .build();

    public static final PropertyDescriptor PARQUET_SCHEMA = new PropertyDescriptor.Builder()
            .name("Parquet Schema")
            .description(
                    "The Parquet schema of the written file in Parquet's text form, for example "
                            + "'message features { required binary id (STRING); optional binary geometry; }', or in the footer form "
                            + "an archive descriptor's 'parquetSchema' holds (a JSON object with 'schema' and 'column_orders'), which "
                            + "carries logical type parameters the text form cannot, such as a GEOMETRY crs that is a PROJJSON document.")
            .required(true)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(SCHEMA_SOURCE, SchemaSource.PARQUET_SCHEMA)
            .build();

    public static final PropertyDescriptor GEO_METADATA = new PropertyDescriptor.Builder()
            .name("GeoParquet Metadata")
            .description(
                    "The 'geo' footer entry to write, as JSON, written byte for byte as given (GeoParquet 1.0 or 1.1: "
                            + "version, primary_column, and per column encoding, geometry_types, crs, covering, ...). It decides "
                            + "which columns hold geometries and their encoding. When empty, a GeoParquet 1.1.0 block is generated for "
                            + "Geometry Column: WKB encoding, any geometry type, CRS OGC:CRS84. With Schema Source 'Record Schema' "
                            + "it replaces the 'geo' entry of files read by GeoParquetReader; otherwise theirs is kept.")
            .required(false)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(SCHEMA_SOURCE, SchemaSource.RECORD_SCHEMA, SchemaSource.PARQUET_SCHEMA)
            .build();

    public static final PropertyDescriptor GEOMETRY_COLUMN = new PropertyDescriptor.Builder()
            .name("Geometry Column")
            .description(
                    "The field holding the geometry when GeoParquet Metadata is empty and the records do not carry a "
                            + "source file's 'geo' block.")
            .required(true)
            .defaultValue(DEFAULT_GEOMETRY_COLUMN)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(SCHEMA_SOURCE, SchemaSource.RECORD_SCHEMA, SchemaSource.PARQUET_SCHEMA)
            .build();

    public static final PropertyDescriptor MISSING_FIELDS = new PropertyDescriptor.Builder()
            .name("Missing Fields")
            .description(
                    "What to do when a record lacks a nullable column of the schema: write null, or fail the write. "
                            + "A record lacking a required column always fails.")
            .required(true)
            .allowableValues(WRITE_NULL, FAIL_ON_MISSING)
            .defaultValue(WRITE_NULL)
            .build();

    public static final PropertyDescriptor UNKNOWN_FIELDS = new PropertyDescriptor.Builder()
            .name("Unknown Fields")
            .description(
                    "What to do when a record has a field the schema has no column for: fail the write, so no data is "
                            + "silently dropped, or ignore the field.")
            .required(true)
            .allowableValues(FAIL_ON_UNKNOWN, IGNORE)
            .defaultValue(FAIL_ON_UNKNOWN)
            .build();

    public static final PropertyDescriptor COMPRESSION_CODEC = new PropertyDescriptor.Builder()
            .name("Compression Codec")
            .description(
                    "Compression of every column chunk. ZSTD gives the best size for its speed among the codecs every "
                            + "Parquet reader supports.")
            .required(true)
            .allowableValues(WriterSettings.SUPPORTED_CODECS.stream()
                    .sorted(Comparator.comparing(Enum::name))
                    .map(codec -> new AllowableValue(codec.name(), codec.name(), CODEC_TRADE_OFFS.get(codec)))
                    .toArray(AllowableValue[]::new))
            .defaultValue(WriterSettings.DEFAULT_CODEC.name())
            .build();

    public static final PropertyDescriptor ZSTD_LEVEL = new PropertyDescriptor.Builder()
            .name("ZSTD Level")
            .description("ZSTD compression level, " + WriterSettings.MIN_ZSTD_LEVEL + " (fastest) to "
                    + WriterSettings.MAX_ZSTD_LEVEL + " (smallest).")
            .required(true)
            .defaultValue(String.valueOf(WriterSettings.DEFAULT_ZSTD_LEVEL))
            .addValidator(StandardValidators.createLongValidator(
                    WriterSettings.MIN_ZSTD_LEVEL, WriterSettings.MAX_ZSTD_LEVEL, true))
            .dependsOn(COMPRESSION_CODEC, CompressionCodecName.ZSTD.name())
            .build();

    public static final PropertyDescriptor ROW_GROUP_SIZE = new PropertyDescriptor.Builder()
            .name("Row Group Row Count")
            .description(
                    "Rows per row group (a count of rows, where NiFi's ParquetRecordSetWriter's Row Group Size is a"
                            + " size in bytes); every row group but the last holds exactly this many rows.")
            .required(true)
            .defaultValue(String.valueOf(WriterSettings.DEFAULT_ROW_GROUP_ROW_COUNT))
            .addValidator(StandardValidators.POSITIVE_INTEGER_VALIDATOR)
            .build();

    public static final PropertyDescriptor DICTIONARY_ENCODING = new PropertyDescriptor.Builder()
            .name("Dictionary Encoding")
            .description(
                    "Whether non-geometry columns are dictionary encoded where parquet-java finds it pays (geometry columns never"
                            + " are). Turn it off for many small files of mostly distinct values, such as per-cell output that the next"
                            + " processor reads once: there no dictionary ever falls back to plain encoding, and hashing every value into"
                            + " one costs most of the write.")
            .required(true)
            .allowableValues("true", "false")
            .defaultValue("true")
            .build();

    public static final PropertyDescriptor PAGE_SIZE = new PropertyDescriptor.Builder()
            .name("Page Size")
            .description(
                    "The size at which a column's data page is cut, as in NiFi's ParquetRecordSetWriter. A file small enough"
                            + " to end every column in one page (a routed cell's, at the default) has all its pages compressed"
                            + " when it finishes, while nothing else is done; with smaller pages, such as 64 KB, they are"
                            + " compressed on helper threads while the records are still being written.")
            .required(true)
            .defaultValue("1 MB")
            .addValidator(StandardValidators.createDataSizeBoundsValidator(MIN_PAGE_BYTES, Integer.MAX_VALUE))
            .build();

    private static final List<PropertyDescriptor> PROPERTY_DESCRIPTORS = List.of(
            SCHEMA_SOURCE,
            ARCHIVE_SERVICE,
            ARCHIVE_DIRECTORY,
            ALLOWED_ROOTS,
            PARQUET_SCHEMA,
            GEO_METADATA,
            GEOMETRY_COLUMN,
            MISSING_FIELDS,
            UNKNOWN_FIELDS,
            COMPRESSION_CODEC,
            ZSTD_LEVEL,
            ROW_GROUP_SIZE,
            DICTIONARY_ENCODING,
            PAGE_SIZE);

    /** The schema and footer entries a file is written with. */
    record Target(MessageType schema, FooterEntries footer) {}

    private volatile SchemaSource schemaSource;
    private volatile Target fixedTarget;
    private volatile String geoProperty;
    private volatile String geometryColumn;
    private volatile WriterSettings settings;
    private volatile ColumnEncodings encodings;
    private volatile RecordConversionOptions options;

    @Override
    protected List<PropertyDescriptor> getSupportedPropertyDescriptors() {
        return PROPERTY_DESCRIPTORS;
    }

    /** The name the row-group property had before it said what it counts. */
    static final String ROW_GROUP_SIZE_BEFORE = "Row Group Size";

    @Override
    public void migrateProperties(PropertyConfiguration config) {
        config.renameProperty(ROW_GROUP_SIZE_BEFORE, ROW_GROUP_SIZE.getName());
    }

    @Override
    protected Collection<ValidationResult> customValidate(ValidationContext context) {
        List<ValidationResult> results = new ArrayList<>();
        SchemaSource source = context.getProperty(SCHEMA_SOURCE).asAllowableValue(SchemaSource.class);
        String geo = context.getProperty(GEO_METADATA).getValue();
        if (source != SchemaSource.ARCHIVE && source != SchemaSource.ARCHIVE_SERVICE && geo != null) {
            try {
                GeoMetadata.parse(geo);
            } catch (IllegalArgumentException e) {
                results.add(invalid(GEO_METADATA, "is not valid GeoParquet metadata: " + e.getMessage()));
                return results;
            }
        }
        try {
            switch (source) {
                case ARCHIVE_SERVICE -> {
                    // The service validates its archive; nothing to open here.
                }
                case ARCHIVE -> {
                    if (context.getProperty(ARCHIVE_DIRECTORY).isSet()) {
                        archiveTarget(context);
                    }
                }
                case PARQUET_SCHEMA -> {
                    if (context.getProperty(PARQUET_SCHEMA).isSet()) {
                        schemaTarget(context);
                    }
                }
                case RECORD_SCHEMA -> {
                    if (geo != null) {
                        GeoMetadata.parse(geo).columns().forEach((column, declared) -> {
                            if (declared.encoding().isNative()) {
                                throw new IllegalArgumentException("declares the GeoArrow '"
                                        + declared.encoding().jsonName()
                                        + "' encoding for '" + column
                                        + "', but a schema derived from records stores geometries "
                                        + "as WKB; set Schema Source to Parquet Schema to write a native layout");
                            }
                        });
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            PropertyDescriptor subject = switch (source) {
                case ARCHIVE_SERVICE -> ARCHIVE_SERVICE;
                case ARCHIVE -> ARCHIVE_DIRECTORY;
                case PARQUET_SCHEMA -> PARQUET_SCHEMA;
                case RECORD_SCHEMA -> GEO_METADATA;
            };
            results.add(invalid(subject, e.getMessage()));
        }
        return results;
    }

    private static ValidationResult invalid(PropertyDescriptor property, String explanation) {
        return new ValidationResult.Builder()
                .subject(property.getDisplayName())
                .valid(false)
                .explanation(explanation)
                .build();
    }

    @OnEnabled
    public void onEnabled(ConfigurationContext context) throws IOException {
        schemaSource = context.getProperty(SCHEMA_SOURCE).asAllowableValue(SchemaSource.class);
        geoProperty = context.getProperty(GEO_METADATA).getValue();
        geometryColumn = context.getProperty(GEOMETRY_COLUMN).getValue();
        fixedTarget = switch (schemaSource) {
            case ARCHIVE_SERVICE -> serviceTarget(context);
            case ARCHIVE -> archiveTarget(context);
            case PARQUET_SCHEMA -> schemaTarget(context);
            case RECORD_SCHEMA -> null;
        };
        CompressionCodecName codec = CompressionCodecName.valueOf(
                context.getProperty(COMPRESSION_CODEC).getValue());
        settings = WriterSettings.defaults()
                .withCodec(codec)
                .withZstdLevel(
                        codec == CompressionCodecName.ZSTD
                                ? context.getProperty(ZSTD_LEVEL).asInteger()
                                : WriterSettings.DEFAULT_ZSTD_LEVEL)
                .withRowGroupRowCountLimit(context.getProperty(ROW_GROUP_SIZE).asInteger());
        encodings = ColumnEncodings.defaults()
                .withDictionary(context.getProperty(DICTIONARY_ENCODING).asBoolean())
                .withPageSize(
                        context.getProperty(PAGE_SIZE).asDataSize(DataUnit.B).intValue());
        options = new RecordConversionOptions(
                WRITE_NULL.getValue().equals(context.getProperty(MISSING_FIELDS).getValue())
                        ? SchemaHandling.FILL_MISSING_NULLABLE
                        : SchemaHandling.STRICT,
                IGNORE.getValue().equals(context.getProperty(UNKNOWN_FIELDS).getValue()));
    }

    private static Target serviceTarget(PropertyContext context) {
        GeoParquetArchive archive = context.getProperty(ARCHIVE_SERVICE)
                .asControllerService(GeoParquetArchiveService.class)
                .archive();
        return new Target(archive.schema(), archive.canonicalFooter());
    }

    private static Target archiveTarget(PropertyContext context) throws IOException {
        Path root = Path.of(context.getProperty(ARCHIVE_DIRECTORY)
                .evaluateAttributeExpressions()
                .getValue());
        List<Path> allowed = ArchiveLocation.parseBases(context.getProperty(ALLOWED_ROOTS)
                .evaluateAttributeExpressions()
                .getValue());
        Optional<String> outside =
                ArchiveLocation.outsideAllowedBases(root, allowed, ARCHIVE_DIRECTORY.getDisplayName());
        if (outside.isPresent()) {
            throw new IllegalArgumentException(outside.get());
        }
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        return new Target(archive.schema(), archive.canonicalFooter());
    }

    private static Target schemaTarget(PropertyContext context) {
        MessageType schema = parquetSchema(context.getProperty(PARQUET_SCHEMA).getValue());
        String geo = context.getProperty(GEO_METADATA).getValue();
        String column = context.getProperty(GEOMETRY_COLUMN).getValue();
        final FooterEntries footer;
        if (geo != null) {
            footer = geoFooter(geo);
        } else if (schema.containsField(column) && GeometryCodec.isParquetGeospatial(schema.getType(column))) {
            footer = FooterEntries.canonicalOf(Map.of()); // the GEOMETRY logical type describes the column itself
        } else if (schema.containsField(column) && isBinary(schema.getType(column))) {
            footer = geoFooter(defaultGeo(column));
        } else {
            throw new IllegalArgumentException(
                    "has no binary Geometry Column '" + column + "' for a generated WKB 'geo' "
                            + "block; name the geometry column, or give GeoParquet Metadata (required for GeoArrow native layouts)");
        }
        checkFits(schema, footer);
        return new Target(schema, footer);
    }

    /** A schema given in the text form, or in the footer form (JSON) when it starts with a brace. */
    private static MessageType parquetSchema(String value) {
        if (value.strip().startsWith("{")) {
            try {
                return ParquetSchemaJson.fromJson(new ObjectMapper().readTree(value));
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException("is not a Parquet schema in the footer form: " + e.getMessage(), e);
            }
        }
        try {
            return MessageTypeParser.parseMessageType(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("is not a Parquet schema in text form: " + e.getMessage(), e);
        }
    }

    /** Fails with a message when a geometry column of {@code geo} is absent from the schema or has the wrong shape. */
    private static void checkFits(MessageType schema, FooterEntries footer) {
        if (footer.geo() == null) {
            return;
        }
        GeoMetadata geo = GeoMetadata.parse(footer.geo());
        for (String column : geo.columns().keySet()) {
            if (!schema.containsField(column)) {
                throw new IllegalArgumentException(
                        "has no column '" + column + "', which the GeoParquet Metadata declares");
            }
            GeometryCodec.forFile(schema, column, geo);
        }
    }

    private static String defaultGeo(String column) {
        return GeoMetadata.builder()
                .wkbColumn(column, List.of(), null, null)
                .build()
                .rawString();
    }

    private static FooterEntries geoFooter(String geo) {
        return FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, geo));
    }

    /** The schema and footer entries records of {@code recordSchema} are written with. */
    Target targetFor(RecordSchema recordSchema) throws SchemaNotFoundException {
        if (fixedTarget != null) {
            return fixedTarget;
        }
        var carried = FileSchemaText.carriedBy(recordSchema);
        if (carried.isPresent()) {
            if (geoProperty == null) {
                return new Target(carried.get().schema(), carried.get().footer());
            }
            Map<String, String> entries =
                    new LinkedHashMap<>(carried.get().footer().asMap());
            entries.put(FooterEntries.GEO, geoProperty);
            Target target = new Target(carried.get().schema(), FooterEntries.canonicalOf(entries));
            try {
                checkFits(target.schema(), target.footer());
            } catch (IllegalArgumentException e) {
                throw new SchemaNotFoundException("The records' source schema " + e.getMessage());
            }
            return target;
        }
        String geo = geoProperty != null ? geoProperty : defaultGeo(geometryColumn);
        GeoMetadata parsed = GeoMetadata.parse(geo);
        Set<String> geometries = new LinkedHashSet<>(parsed.columns().keySet());
        Map<String, List<String>> coverings = new LinkedHashMap<>();
        for (GeoColumn column : parsed.columns().values()) {
            column.coveringBbox().ifPresent(paths -> {
                String struct = paths.values().iterator().next().get(0);
                coverings.put(
                        struct,
                        paths.values().stream()
                                .map(path -> path.get(path.size() - 1))
                                .toList());
            });
        }
        try {
            return new Target(RecordSchemaToParquet.of(recordSchema, geometries, coverings), geoFooter(geo));
        } catch (IllegalArgumentException e) {
            throw new SchemaNotFoundException(
                    "Cannot derive a Parquet schema from the record schema: " + e.getMessage(), e);
        }
    }

    /**
     * The record schema that is written: the records' own with Schema Source 'Record Schema', else the target
     * schema's, in which geometry columns accept WKB bytes or WKT text.
     */
    @Override
    public RecordSchema getSchema(Map<String, String> variables, RecordSchema readSchema)
            throws SchemaNotFoundException {
        if (fixedTarget == null) {
            return readSchema;
        }
        RecordSchema exact = ParquetRecordSchemas.toRecordSchema(fixedTarget.schema());
        GeoMetadata geo = fixedTarget.footer().geo() == null
                ? null
                : GeoMetadata.parse(fixedTarget.footer().geo());
        Set<String> geometries = new LinkedHashSet<>(GeometryColumns.of(fixedTarget.schema(), geo));
        DataType geometryType = RecordFieldType.CHOICE.getChoiceDataType(
                GeometryColumns.dataType(RecordGeometryEncoding.WKB),
                GeometryColumns.dataType(RecordGeometryEncoding.WKT));
        List<RecordField> fields = new ArrayList<>();
        for (RecordField field : exact.getFields()) {
            fields.add(
                    geometries.contains(field.getFieldName())
                            ? new RecordField(field.getFieldName(), geometryType, field.isNullable())
                            : field);
        }
        return new SimpleRecordSchema(fields);
    }

    @Override
    public RecordSetWriter createWriter(
            ComponentLog logger, RecordSchema schema, OutputStream out, Map<String, String> variables)
            throws SchemaNotFoundException, IOException {
        Target target = targetFor(schema);
        String filename = variables == null ? null : variables.get(CoreAttributes.FILENAME.key());
        return new WriteGeoParquetResult(
                out,
                target.schema(),
                target.footer(),
                settings,
                encodings,
                options,
                filename == null ? "GeoParquet output" : filename);
    }

    private static boolean isBinary(Type type) {
        return type.isPrimitive() && type.asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BINARY;
    }
}
