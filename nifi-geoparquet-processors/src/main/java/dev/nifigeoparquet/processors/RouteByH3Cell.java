package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.cells.CellBatches;
import dev.nifigeoparquet.archive.cells.CellLanes;
import dev.nifigeoparquet.archive.cells.CrsReprojector;
import dev.nifigeoparquet.archive.cells.DeclaredCrs;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.concurrent.ComputeAhead;
import dev.nifigeoparquet.archive.concurrent.DaemonThreadPools;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.processors.geometry.FieldPath;
import dev.nifigeoparquet.processors.geometry.GeometryExtractor;
import dev.nifigeoparquet.processors.geometry.GeometryFormat;
import dev.nifigeoparquet.processors.geometry.UnkeyableRecordException;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetRecordReader;
import dev.nifigeoparquet.processors.geoparquet.PrimaryGeometryRecordWriter;
import dev.nifigeoparquet.processors.migration.StoredChoices;
import dev.nifigeoparquet.processors.record.BinaryValues;
import dev.nifigeoparquet.services.GeoParquetArchiveService;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.nifi.annotation.behavior.InputRequirement;
import org.apache.nifi.annotation.behavior.InputRequirement.Requirement;
import org.apache.nifi.annotation.behavior.SupportsBatching;
import org.apache.nifi.annotation.behavior.WritesAttribute;
import org.apache.nifi.annotation.behavior.WritesAttributes;
import org.apache.nifi.annotation.documentation.CapabilityDescription;
import org.apache.nifi.annotation.documentation.MultiProcessorUseCase;
import org.apache.nifi.annotation.documentation.ProcessorConfiguration;
import org.apache.nifi.annotation.documentation.SeeAlso;
import org.apache.nifi.annotation.documentation.Tags;
import org.apache.nifi.annotation.documentation.UseCase;
import org.apache.nifi.annotation.lifecycle.OnScheduled;
import org.apache.nifi.annotation.lifecycle.OnStopped;
import org.apache.nifi.components.ConfigVerificationResult;
import org.apache.nifi.components.ConfigVerificationResult.Outcome;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.components.ValidationContext;
import org.apache.nifi.components.ValidationResult;
import org.apache.nifi.components.Validator;
import org.apache.nifi.context.PropertyContext;
import org.apache.nifi.flowfile.FlowFile;
import org.apache.nifi.flowfile.attributes.CoreAttributes;
import org.apache.nifi.flowfile.attributes.FragmentAttributes;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.migration.PropertyConfiguration;
import org.apache.nifi.processor.AbstractProcessor;
import org.apache.nifi.processor.ProcessContext;
import org.apache.nifi.processor.ProcessSession;
import org.apache.nifi.processor.Relationship;
import org.apache.nifi.processor.VerifiableProcessor;
import org.apache.nifi.processor.exception.ProcessException;
import org.apache.nifi.processor.util.StandardValidators;
import org.apache.nifi.schema.access.SchemaNotFoundException;
import org.apache.nifi.serialization.MalformedRecordException;
import org.apache.nifi.serialization.RecordReader;
import org.apache.nifi.serialization.RecordReaderFactory;
import org.apache.nifi.serialization.RecordSetWriter;
import org.apache.nifi.serialization.RecordSetWriterFactory;
import org.apache.nifi.serialization.SimpleRecordSchema;
import org.apache.nifi.serialization.WriteResult;
import org.apache.nifi.serialization.record.DataType;
import org.apache.nifi.serialization.record.MapRecord;
import org.apache.nifi.serialization.record.Record;
import org.apache.nifi.serialization.record.RecordField;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.nifi.serialization.record.RecordSchema;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

@SupportsBatching
@InputRequirement(Requirement.INPUT_REQUIRED)
@Tags({"geoparquet", "h3", "partition", "route", "record", "geospatial", "wkb", "wkt", "geojson", "reproject"})
@CapabilityDescription(
        "Splits a delta of geospatial records into one FlowFile per H3 cell, the partition key of a GeoParquet archive,"
                + " so that each FlowFile touches exactly one partition. Reads any record format through the Record Reader and writes each cell's"
                + " records through the Record Writer. The geometry is read from a field holding WKB, WKT or GeoJSON, or from longitude and"
                + " latitude fields; it leaves as ISO WKB in the archive's CRS in the archive's geometry column, so the output can be upserted as is."
                + " The H3 resolution is the archive's pinned one, taken from the GeoParquet Archive Service. Records that cannot be keyed go"
                + " together to one 'failure' FlowFile, each with its reason (as JSON if the Record Writer cannot write them); the other records"
                + " of the same input are still routed. Memory and"
                + " open writers stay bounded however many cells an input spans: see Maximum Open Writers.")
@WritesAttributes({
    @WritesAttribute(
            attribute = GeoParquetAttributes.H3_CELL,
            description = "The H3 cell of every record in the FlowFile (the partition it belongs to)"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.H3_RESOLUTION,
            description = "The H3 resolution the cell was computed at"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.RECORD_COUNT,
            description = "The number of records in the FlowFile"),
    @WritesAttribute(
            attribute = "fragment.identifier",
            description = "The same random UUID on every cell FlowFile made from one input"),
    @WritesAttribute(
            attribute = "fragment.index",
            description = "The position of the FlowFile among those made from one input, from 0, in cell order"),
    @WritesAttribute(attribute = "fragment.count", description = "How many cell FlowFiles were made from the input"),
    @WritesAttribute(
            attribute = "mime.type",
            description = "The MIME type the Record Writer declares; application/json on a failure"
                    + " FlowFile the Record Writer could not write"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ERROR_MESSAGE,
            description =
                    "On the failure FlowFile: how many records could not be keyed, by reason,"
                            + " and why they are written as JSON when the Record Writer could not write them; or why the whole input could not be routed")
})
@SeeAlso(
        classNames = {
            "dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService",
            "org.apache.nifi.processors.standard.PartitionRecord"
        })
@UseCase(
        description =
                "Prepare a nightly delta of features for upserting into an H3-partitioned GeoParquet archive, one FlowFile per partition.",
        keywords = {"geoparquet", "h3", "delta", "partition", "upsert", "nightly"},
        configuration = """
                Add a StandardGeoParquetArchiveService pointing at the archive's root directory and select it as \
                "GeoParquet Archive Service". Leave "H3 Resolution" empty: the archive's pinned resolution is used.
                Choose a "Record Reader" for the delta's format (for example a JsonTreeReader or a CSVReader) and a \
                "Record Writer" for what the next processor reads (for example a ParquetRecordSetWriter or an AvroRecordSetWriter).
                Set "Geometry Format" to how the delta carries geometries, and "Geometry Field" to the field holding them, for \
                example WKT in a field named wkt. For CSV files with coordinates, choose "Longitude and Latitude Fields" and name \
                the two fields instead.
                Connect "success" to the processor that upserts into the archive; every FlowFile carries h3.cell and the fragment attributes, and keeps the delta's own attributes (a delta.id among them). \
                Connect "failure" to a place where an operator can read the records that could not be keyed and their reason \
                in the h3_keying_error field. "original" can be auto-terminated.
                """)
@UseCase(
        description =
                "Route a delta whose coordinates are in another CRS (for example Web Mercator, EPSG:3857) into an archive stored in longitude/latitude.",
        keywords = {"crs", "reproject", "epsg", "3857", "mercator", "projection"},
        configuration = """
                Configure the processor as for any delta, then set "Source CRS" to the delta's CRS as AUTHORITY:CODE, for example EPSG:3857.
                Every geometry is converted to the archive's CRS before it is keyed and written, so the cell FlowFiles hold WKB \
                in the archive's own CRS and can be upserted without further conversion.
                Run "Verify Properties" to see the archive's CRS and a test conversion from the Source CRS.
                """)
@MultiProcessorUseCase(
        description =
                "Keep an H3-partitioned GeoParquet archive current from nightly deltas, rewriting only the partitions a"
                        + " delta lands in: route, upsert, compact and verify.",
        keywords = {"geoparquet", "h3", "archive", "delta", "upsert", "compaction", "nightly", "incremental"},
        notes = "templates/incremental-upsert.json is this flow with a file source and a quarantine; import it instead"
                + " of building it by hand. In a cluster, load-balance the connection into UpsertGeoParquetPartition"
                + " by the h3.cell attribute and give each night a Delta Sequence.",
        configurations = {
            @ProcessorConfiguration(
                    processorClassName = "dev.nifigeoparquet.processors.RouteByH3Cell",
                    configuration = """
                            Select the StandardGeoParquetArchiveService of the archive as "GeoParquet Archive Service"                             and leave "H3 Resolution" empty (the archive's pinned resolution is used). Choose a                             "Record Reader" for the delta's format and a GeoParquetRecordSetWriter as "Record Writer".
                            Connect "success" to UpsertGeoParquetPartition and "failure" to a quarantine.
                            """),
            @ProcessorConfiguration(
                    processorClassName = "dev.nifigeoparquet.processors.UpsertGeoParquetPartition",
                    configuration = """
                            Select the same archive service and a GeoParquetReader as "Record Reader"; "Write Mode"                             Upsert. Set "Delta Sequence" from the night the delta belongs to (for example its file                             name's date), so nights applied late or out of order converge.
                            Connect "success" to CompactGeoParquetPartition, "failure" to the quarantine, and retry                             "retry" with NiFi's relationship retry (a few attempts, with back-off) before the quarantine.
                            """),
            @ProcessorConfiguration(
                    processorClassName = "dev.nifigeoparquet.processors.CompactGeoParquetPartition",
                    configuration = """
                            Select the same archive service and leave "Partitions" at its default: the partitions the                             upsert touched. Connect "success" to VerifyGeoMetadata, "failure" to the quarantine, and                             retry "retry" as for the upsert.
                            """),
            @ProcessorConfiguration(
                    processorClassName = "dev.nifigeoparquet.processors.VerifyGeoMetadata",
                    configuration = """
                            Select the same archive service and leave "Partitions" and "Expected Row Count" at their                             defaults: the touched partitions are checked, and their row counts reconciled from the                             commit records. Connect "invalid" and "failure" to the quarantine; "valid" can be                             auto-terminated or kept as a report.
                            """)
        })
public class RouteByH3Cell extends AbstractProcessor implements VerifiableProcessor {

    /** The field added to each record of the failure FlowFile, saying why that record could not be keyed. */
    public static final String KEYING_ERROR_FIELD = "h3_keying_error";

    static final String COUNTER_RECORDS_ROUTED = "Records Routed";
    static final String COUNTER_RECORDS_FAILED = "Records Not Keyed";
    static final String COUNTER_CELLS_TOUCHED = "Cells Touched";

    /** Records held for their cells' writers at most: a few MiB of records, whatever the cells. */
    private static final int MAX_BATCHED_RECORDS = 4096;

    /** How long an idle keying or cell-writing thread is kept. */
    private static final Duration IDLE_THREADS_END_AFTER = Duration.ofSeconds(60);

    /** How long the task's thread waits for the cells' writers before passing on what they wrote meanwhile. */
    private static final long PASS_ON_EVERY_MILLIS = 5;

    /** Records keyed ahead of the writing at a time; three such blocks are held at most (see {@link ComputeAhead}). */
    private static final int KEYED_AHEAD_RECORDS = ComputeAhead.DEFAULT_BLOCK_SIZE;

    /** Output geometry field when no archive service names one and the geometry does not come from a named field. */
    static final String DEFAULT_GEOMETRY_FIELD = "geometry";

    public static final PropertyDescriptor RECORD_READER = new PropertyDescriptor.Builder()
            .name("Record Reader")
            .description("Reads the incoming delta's records.")
            .identifiesControllerService(RecordReaderFactory.class)
            .required(true)
            .build();

    public static final PropertyDescriptor RECORD_WRITER = new PropertyDescriptor.Builder()
            .name("Record Writer")
            .description("Writes each cell's records, and the records that could not be keyed.")
            .identifiesControllerService(RecordSetWriterFactory.class)
            .required(true)
            .build();

    public static final PropertyDescriptor ARCHIVE_SERVICE = ProcessorSupport.archiveServiceProperty(
            "The archive the delta is bound"
                    + " for. Its pinned H3 resolution, CRS and geometry column decide how records are keyed and written, so the routing can"
                    + " never drift from the archive. Leave empty only to route without an archive, and then set H3 Resolution.",
            false);

    public static final PropertyDescriptor H3_RESOLUTION = new PropertyDescriptor.Builder()
            .name("H3 Resolution")
            .description(
                    "The H3 resolution (0 to 15) to route at. Allowed only when no GeoParquet Archive Service is set: an archive's"
                            + " resolution is pinned and always taken from the service.")
            .required(false)
            .addValidator(StandardValidators.createLongValidator(0, 15, true))
            .build();

    public static final PropertyDescriptor GEOMETRY_FORMAT = new PropertyDescriptor.Builder()
            .name("Geometry Format")
            .description("How each record carries its geometry.")
            .required(true)
            .allowableValues(GeometryFormat.class)
            .defaultValue(GeometryFormat.WKB)
            .build();

    public static final PropertyDescriptor GEOMETRY_FIELD = new PropertyDescriptor.Builder()
            .name("Geometry Field")
            .description(
                    "The field holding the geometry: a RecordPath such as /geometry or /location/wkt, or a field name. A top-level"
                            + " field is replaced in the output by the WKB geometry field.")
            .required(true)
            .defaultValue(DEFAULT_GEOMETRY_FIELD)
            .addValidator(fieldPathValidator())
            .dependsOn(GEOMETRY_FORMAT, GeometryFormat.WKB, GeometryFormat.WKT, GeometryFormat.GEOJSON)
            .build();

    public static final PropertyDescriptor LONGITUDE_FIELD = new PropertyDescriptor.Builder()
            .name("Longitude Field")
            .description(
                    "The numeric field holding x (a RecordPath or a field name): longitude, or easting in a projected Source CRS.")
            .required(true)
            .defaultValue("longitude")
            .addValidator(fieldPathValidator())
            .dependsOn(GEOMETRY_FORMAT, GeometryFormat.LON_LAT)
            .build();

    public static final PropertyDescriptor LATITUDE_FIELD = new PropertyDescriptor.Builder()
            .name("Latitude Field")
            .description(
                    "The numeric field holding y (a RecordPath or a field name): latitude, or northing in a projected Source CRS.")
            .required(true)
            .defaultValue("latitude")
            .addValidator(fieldPathValidator())
            .dependsOn(GEOMETRY_FORMAT, GeometryFormat.LON_LAT)
            .build();

    public static final PropertyDescriptor SOURCE_CRS = new PropertyDescriptor.Builder()
            .name("Source CRS")
            .description(
                    "The CRS of the incoming coordinates as AUTHORITY:CODE, for example EPSG:3857. Empty means the archive's CRS"
                            + " (OGC:CRS84, longitude/latitude, without an archive service). Geometries are converted to the archive's CRS before"
                            + " they are keyed and written.")
            .required(false)
            .addValidator(crsValidator())
            .build();

    public static final PropertyDescriptor MAX_OPEN_WRITERS = new PropertyDescriptor.Builder()
            .name("Maximum Open Writers")
            .description(
                    "How many cell FlowFiles are written at the same time. An input spanning more cells is read once to find its"
                            + " cells and then once more for every group of this many cells, so memory stays bounded by this many open Record"
                            + " Writers whatever the input holds. Higher values read the input fewer times but need more memory per writer.")
            .required(true)
            .defaultValue("100")
            .addValidator(StandardValidators.POSITIVE_INTEGER_VALIDATOR)
            .build();

    private static final List<PropertyDescriptor> PROPERTY_DESCRIPTORS = List.of(
            RECORD_READER,
            RECORD_WRITER,
            ARCHIVE_SERVICE,
            H3_RESOLUTION,
            GEOMETRY_FORMAT,
            GEOMETRY_FIELD,
            LONGITUDE_FIELD,
            LATITUDE_FIELD,
            SOURCE_CRS,
            MAX_OPEN_WRITERS);

    public static final Relationship REL_SUCCESS = new Relationship.Builder()
            .name("success")
            .description(
                    "One FlowFile per H3 cell, holding the input's records of that cell with their geometry as WKB in the archive's CRS")
            .build();

    public static final Relationship REL_FAILURE = new Relationship.Builder()
            .name("failure")
            .description(
                    "One FlowFile with every record of an input that could not be keyed, each with its reason in the "
                            + KEYING_ERROR_FIELD
                            + " field (as JSON when the Record Writer cannot write them); or the unchanged input when it could"
                            + " not be read, or its cells not written, at all")
            .build();

    public static final Relationship REL_ORIGINAL = new Relationship.Builder()
            .name("original")
            .description("The input, once all its records have been routed to success or failure")
            .build();

    private static final Set<Relationship> RELATIONSHIPS = Set.of(REL_SUCCESS, REL_FAILURE, REL_ORIGINAL);

    private volatile CellRouting routing;
    private volatile String outputGeometryField;
    /** The top-level field the geometry was read from, which the output drops; null for lon/lat or nested fields. */
    private volatile String sourceGeometryField;
    /** Where records are keyed beside the reading and writing; see {@link #keyingThreads}. */
    private volatile ExecutorService keyingThreads;
    /** Where the cells' writers run, several cells at once; see {@link #cellWritingThreads}. */
    private volatile ExecutorService cellWritingThreads;

    private static Validator fieldPathValidator() {
        return parsedBy(FieldPath::parse, IllegalArgumentException.class);
    }

    private static Validator crsValidator() {
        return parsedBy(SourceCrs::declared, KeyingException.class);
    }

    /** Accepts what {@code parse} takes; a value it refuses with a {@code refusal} is invalid, with the reason given. */
    private static Validator parsedBy(Consumer<String> parse, Class<? extends RuntimeException> refusal) {
        return (subject, input, context) -> {
            ValidationResult.Builder result =
                    new ValidationResult.Builder().subject(subject).input(input);
            try {
                parse.accept(input);
                return result.valid(true).build();
            } catch (RuntimeException e) {
                if (!refusal.isInstance(e)) {
                    throw e;
                }
                return result.valid(false).explanation(e.getMessage()).build();
            }
        };
    }

    @Override
    public void migrateProperties(PropertyConfiguration config) {
        StoredChoices.migrateConstantName(config, GEOMETRY_FORMAT, GeometryFormat.class);
    }

    @Override
    protected List<PropertyDescriptor> getSupportedPropertyDescriptors() {
        return PROPERTY_DESCRIPTORS;
    }

    @Override
    public Set<Relationship> getRelationships() {
        return RELATIONSHIPS;
    }

    @Override
    protected Collection<ValidationResult> customValidate(ValidationContext context) {
        List<ValidationResult> results = new ArrayList<>();
        boolean hasService = context.getProperty(ARCHIVE_SERVICE).isSet();
        boolean hasResolution = context.getProperty(H3_RESOLUTION).isSet();
        if (hasService && hasResolution) {
            results.add(new ValidationResult.Builder()
                    .subject(H3_RESOLUTION.getDisplayName())
                    .valid(false)
                    .explanation(
                            "H3 Resolution must be empty when a GeoParquet Archive Service is set: the resolution is the archive's"
                                    + " pinned one, taken from the service, so that routing cannot drift from the archive")
                    .build());
        }
        if (!hasService && !hasResolution) {
            results.add(new ValidationResult.Builder()
                    .subject(H3_RESOLUTION.getDisplayName())
                    .valid(false)
                    .explanation(
                            "Set a GeoParquet Archive Service (recommended: the archive's pinned resolution is then used) or, to route"
                                    + " without an archive, an H3 Resolution")
                    .build());
        }
        return results;
    }

    @OnScheduled
    public void onScheduled(ProcessContext context) {
        keyingThreads = keyingThreads(context.getMaxConcurrentTasks());
        cellWritingThreads = cellWritingThreads(context.getMaxConcurrentTasks());
        GeoParquetArchiveService service = archiveService(context);
        routing = routingFor(context, service);
        outputGeometryField = outputGeometryField(context, service);
        GeometryFormat format = context.getProperty(GEOMETRY_FORMAT).asAllowableValue(GeometryFormat.class);
        sourceGeometryField = format == GeometryFormat.LON_LAT
                ? null
                : FieldPath.parse(context.getProperty(GEOMETRY_FIELD).getValue())
                        .topLevelName()
                        .orElse(null);
    }

    @OnStopped
    public void onStopped() {
        routing = null;
        // Every task has ended when NiFi calls this; after a Terminate it does not call it at all, and the pools end
        // their idle threads on their own. Not shutdownNow all the same: a closing ComputeAhead or CellLanes waits for
        // work already handed over, which dropped before it ran would never end.
        if (keyingThreads != null) {
            keyingThreads.shutdown();
            keyingThreads = null;
        }
        if (cellWritingThreads != null) {
            cellWritingThreads.shutdown();
            cellWritingThreads = null;
        }
    }

    /**
     * One keying thread per concurrent task: each task reads on its own thread while its records are decoded,
     * reprojected and keyed on another, a block ahead.
     */
    private ExecutorService keyingThreads(int concurrentTasks) {
        return daemonThreads(Math.max(1, concurrentTasks), "keying");
    }

    /**
     * One thread per core for each concurrent task: the cells' writers, not the reading or the keying, set the pace of
     * a route to hundreds of cells, so a task writes several cells at once ({@link CellLanes}). Idle threads end.
     */
    private ExecutorService cellWritingThreads(int concurrentTasks) {
        return daemonThreads(Math.max(1, concurrentTasks) * CellLanes.defaultLanes(), "cell writing");
    }

    private ExecutorService daemonThreads(int threads, String purpose) {
        String name = getClass().getSimpleName() + "[" + getIdentifier() + "] " + purpose + " ";
        return DaemonThreadPools.endingWhenIdle(threads, null, name, IDLE_THREADS_END_AFTER);
    }

    private static GeoParquetArchiveService archiveService(PropertyContext context) {
        return context.getProperty(ARCHIVE_SERVICE).isSet()
                ? context.getProperty(ARCHIVE_SERVICE).asControllerService(GeoParquetArchiveService.class)
                : null;
    }

    private static CellRouting routingFor(PropertyContext context, GeoParquetArchiveService service) {
        H3Keyer keyer = service != null
                ? service.keyer()
                : new H3Keyer(context.getProperty(H3_RESOLUTION).asInteger());
        SourceCrs target = service != null ? service.crs() : SourceCrs.CRS84;
        String declared = context.getProperty(SOURCE_CRS).getValue();
        SourceCrs source = declared == null || declared.isBlank() ? target : SourceCrs.declared(declared);
        if (service == null) {
            target = source; // without an archive there is no other CRS to convert to
        }
        GeometryFormat format = context.getProperty(GEOMETRY_FORMAT).asAllowableValue(GeometryFormat.class);
        FieldPath geometry = format == GeometryFormat.LON_LAT
                ? null
                : FieldPath.parse(context.getProperty(GEOMETRY_FIELD).getValue());
        FieldPath longitude = format == GeometryFormat.LON_LAT
                ? FieldPath.parse(context.getProperty(LONGITUDE_FIELD).getValue())
                : null;
        FieldPath latitude = format == GeometryFormat.LON_LAT
                ? FieldPath.parse(context.getProperty(LATITUDE_FIELD).getValue())
                : null;
        return new CellRouting(
                keyer,
                source,
                target,
                new CrsReprojector(),
                () -> new GeometryExtractor(format, geometry, longitude, latitude));
    }

    /** The archive's geometry column; without a service, the top-level geometry field, or "geometry". */
    private static String outputGeometryField(PropertyContext context, GeoParquetArchiveService service) {
        if (service != null) {
            return service.geometryColumn();
        }
        GeometryFormat format = context.getProperty(GEOMETRY_FORMAT).asAllowableValue(GeometryFormat.class);
        if (format == GeometryFormat.LON_LAT) {
            return DEFAULT_GEOMETRY_FIELD;
        }
        return FieldPath.parse(context.getProperty(GEOMETRY_FIELD).getValue())
                .topLevelName()
                .orElse(DEFAULT_GEOMETRY_FIELD);
    }

    @Override
    public List<ConfigVerificationResult> verify(
            ProcessContext context, ComponentLog verificationLogger, Map<String, String> attributes) {
        List<ConfigVerificationResult> results = new ArrayList<>();
        GeoParquetArchiveService service;
        try {
            service = archiveService(context);
            if (service != null) {
                results.add(ProcessorSupport.result(
                        "GeoParquet Archive",
                        Outcome.SUCCESSFUL,
                        "Routing for the archive at " + service.location()
                                + ": H3 resolution " + service.h3Resolution() + ", CRS " + service.crs()
                                + ", geometry written to column '"
                                + service.geometryColumn() + "'"));
            } else {
                results.add(ProcessorSupport.result(
                        "GeoParquet Archive",
                        Outcome.SKIPPED,
                        "No archive service: routing at H3 resolution "
                                + context.getProperty(H3_RESOLUTION).getValue() + " without converting geometries"));
            }
        } catch (RuntimeException e) {
            results.add(ProcessorSupport.result(
                    "GeoParquet Archive",
                    Outcome.FAILED,
                    "The GeoParquet Archive Service is not usable: " + e.getMessage()));
            return results;
        }
        try {
            CellRouting candidate = routingFor(context, service);
            if (CrsReprojector.isIdentity(candidate.source(), candidate.target())) {
                results.add(ProcessorSupport.result(
                        "Source CRS",
                        Outcome.SUCCESSFUL,
                        "Geometries are in " + candidate.target() + " already; no conversion"));
            } else {
                // One conversion proves the projection library knows both CRSs and can go from one to the other.
                var origin = new GeometryFactory().createPoint(new Coordinate(0, 0));
                var converted = candidate.reprojector().reproject(origin, candidate.source(), candidate.target());
                results.add(ProcessorSupport.result(
                        "Source CRS",
                        Outcome.SUCCESSFUL,
                        "Geometries are converted from " + candidate.source() + " to the archive's "
                                + candidate.target() + " (the origin of " + candidate.source() + " becomes "
                                + converted.getCoordinate() + ")"));
            }
        } catch (RuntimeException e) {
            results.add(ProcessorSupport.result("Source CRS", Outcome.FAILED, e.getMessage()));
        }
        return results;
    }

    @Override
    public void onTrigger(ProcessContext context, ProcessSession session) throws ProcessException {
        FlowFile original = session.get();
        if (original == null) {
            return;
        }
        RecordReaderFactory readerFactory =
                context.getProperty(RECORD_READER).asControllerService(RecordReaderFactory.class);
        RecordSetWriterFactory writerFactory =
                context.getProperty(RECORD_WRITER).asControllerService(RecordSetWriterFactory.class);
        int maxOpenWriters = context.getProperty(MAX_OPEN_WRITERS).asInteger();
        CellRouting.Task task = routing.newTask();
        String resolution = String.valueOf(routing.keyer().resolution());

        List<FlowFile> created = new ArrayList<>();
        try {
            Scan scan = scan(session, original, readerFactory, task);
            Failures failures = scan.unkeyable() == null
                    ? null
                    : writeFailures(session, original, readerFactory, writerFactory, task, scan.unkeyable(), created);
            List<String> cells = new ArrayList<>(scan.recordsPerCell().keySet());
            List<CellOutput> outputs = new ArrayList<>(cells.size());
            for (int start = 0; start < cells.size(); start += maxOpenWriters) {
                List<String> window = cells.subList(start, Math.min(cells.size(), start + maxOpenWriters));
                outputs.addAll(writeCells(
                        session, original, readerFactory, writerFactory, task, scan.outputSchema(), window, created));
            }

            String fragmentId = UUID.randomUUID().toString();
            List<FlowFile> cellFlowFiles = new ArrayList<>(outputs.size());
            long routed = 0;
            for (int index = 0; index < outputs.size(); index++) {
                CellOutput output = outputs.get(index);
                if (output.recordCount() != scan.recordsPerCell().get(output.cell())) {
                    throw new ProcessException("The input changed between reads: cell " + output.cell() + " had "
                            + scan.recordsPerCell().get(output.cell()) + " records on the first read and "
                            + output.recordCount() + " later");
                }
                Map<String, String> attributes = new HashMap<>(output.attributes());
                attributes.put(GeoParquetAttributes.H3_CELL, output.cell());
                attributes.put(GeoParquetAttributes.H3_RESOLUTION, resolution);
                attributes.put(GeoParquetAttributes.RECORD_COUNT, String.valueOf(output.recordCount()));
                attributes.put(CoreAttributes.MIME_TYPE.key(), output.mimeType());
                attributes.put(FragmentAttributes.FRAGMENT_ID.key(), fragmentId);
                attributes.put(FragmentAttributes.FRAGMENT_INDEX.key(), String.valueOf(index));
                attributes.put(FragmentAttributes.FRAGMENT_COUNT.key(), String.valueOf(outputs.size()));
                cellFlowFiles.add(session.putAllAttributes(output.flowFile(), attributes));
                routed += output.recordCount();
            }

            List<FlowFile> children = new ArrayList<>(cellFlowFiles);
            if (failures != null) {
                String summary = scan.unkeyable().summary(routed) + failures.note();
                Map<String, String> attributes = new HashMap<>(failures.attributes());
                attributes.put(GeoParquetAttributes.ERROR_MESSAGE, summary);
                attributes.put(GeoParquetAttributes.RECORD_COUNT, String.valueOf(failures.count()));
                attributes.put(GeoParquetAttributes.H3_RESOLUTION, resolution);
                attributes.put(CoreAttributes.MIME_TYPE.key(), failures.mimeType());
                FlowFile failed = session.putAllAttributes(failures.flowFile(), attributes);
                children.add(failed);
                session.transfer(failed, REL_FAILURE);
                getLogger().warn("{}: {}", original, summary);
            }
            if (!children.isEmpty()) {
                session.getProvenanceReporter()
                        .fork(
                                original,
                                children,
                                "Routed " + routed + " records to " + cellFlowFiles.size() + " H3 cells"
                                        + (failures == null
                                                ? ""
                                                : "; " + failures.count() + " records could not be keyed"));
            }
            session.transfer(cellFlowFiles, REL_SUCCESS);
            session.transfer(original, REL_ORIGINAL);
            session.adjustCounter(COUNTER_RECORDS_ROUTED, routed, false);
            session.adjustCounter(COUNTER_CELLS_TOUCHED, cellFlowFiles.size(), false);
            if (failures != null) {
                session.adjustCounter(COUNTER_RECORDS_FAILED, failures.count(), false);
            }
        } catch (IOException | MalformedRecordException | SchemaNotFoundException | RuntimeException e) {
            session.remove(created);
            getLogger().error("Cannot route {} by H3 cell; routing it to failure", original, e);
            FlowFile failed =
                    session.putAttribute(original, GeoParquetAttributes.ERROR_MESSAGE, String.valueOf(e.getMessage()));
            session.transfer(failed, REL_FAILURE);
        }
    }

    /** What the first read found: the cells with their record counts, the output schema, and the records that could not be keyed. */
    private record Scan(TreeMap<String, Long> recordsPerCell, RecordSchema outputSchema, Unkeyable unkeyable) {}

    /** How many records could not be keyed, by reason, and the first one's message. */
    private record Unkeyable(long count, Map<String, Long> perReason, String first) {

        String summary(long routed) {
            return count + " of " + (count + routed) + " records could not be keyed, by reason " + perReason
                    + "; the first: " + first;
        }
    }

    /** The failure FlowFile, written; {@code note} says why it is not in the Record Writer's format, or is empty. */
    private record Failures(
            FlowFile flowFile, long count, Map<String, String> attributes, String mimeType, String note) {}

    /** One finished cell FlowFile. */
    private record CellOutput(
            String cell, FlowFile flowFile, long recordCount, Map<String, String> attributes, String mimeType) {}

    /**
     * The first read: keys every record, counting records per cell and the records that cannot be keyed by reason.
     * Holds the distinct cells, never the records.
     */
    private Scan scan(
            ProcessSession session, FlowFile original, RecordReaderFactory readerFactory, CellRouting.Task task)
            throws IOException, MalformedRecordException, SchemaNotFoundException {
        TreeMap<String, Long> perCell = new TreeMap<>();
        UnkeyableTally unkeyable = new UnkeyableTally();
        RecordSchema outputSchema;
        try (InputStream in = session.read(original);
                RecordReader reader = readerFactory.createRecordReader(
                        original.getAttributes(), in, original.getSize(), getLogger())) {
            requireDeclaredCrs(reader, original);
            outputSchema = outputSchema(reader.getSchema());
            try (ComputeAhead<Record, Keying> keyed =
                    new ComputeAhead<>(keyingThreads, KEYED_AHEAD_RECORDS, Keying.of(task), (record, keying) -> {
                        if (keying.cell() != null) {
                            perCell.merge(keying.cell(), 1L, Long::sum);
                        } else {
                            unkeyable.count(keying.failure());
                        }
                    })) {
                Record record;
                while ((record = reader.nextRecord()) != null) {
                    keyed.add(record);
                }
                keyed.finish();
            }
        }
        return new Scan(perCell, outputSchema, unkeyable.result());
    }

    /** Counts the records that cannot be keyed, by reason, keeping the first one's message. */
    private static final class UnkeyableTally {
        private final Map<String, Long> perReason = new TreeMap<>();
        private long count;
        private String first;

        void count(UnkeyableRecordException failure) {
            perReason.merge(failure.reason(), 1L, Long::sum);
            count++;
            if (first == null) {
                first = failure.getMessage();
            }
        }

        /** What was counted, or null when every record was keyed. */
        Unkeyable result() {
            return count == 0 ? null : new Unkeyable(count, perReason, first);
        }
    }

    /** A record's cell, or why it has none. */
    private record Keying(String cell, UnkeyableRecordException failure) {

        static ComputeAhead.Function<Record, Keying> of(CellRouting.Task task) {
            return record -> {
                try {
                    return new Keying(task.cellOf(record), null);
                } catch (UnkeyableRecordException e) {
                    return new Keying(null, e);
                }
            };
        }
    }

    /**
     * Writes the records that cannot be keyed, each with its reason, to one failure FlowFile with the Record Writer. A
     * writer that cannot write them (a GeoParquet writer needs a geometry column, which such records may lack or hold
     * garbage in) must not hide the reasons nor hold up the input: they are then written as JSON instead.
     */
    private Failures writeFailures(
            ProcessSession session,
            FlowFile original,
            RecordReaderFactory readerFactory,
            RecordSetWriterFactory writerFactory,
            CellRouting.Task task,
            Unkeyable unkeyable,
            List<FlowFile> created)
            throws IOException, MalformedRecordException, SchemaNotFoundException {
        Failures failures;
        try {
            failures = writeFailures(session, original, readerFactory, writerFactory, task, "");
        } catch (IOException | SchemaNotFoundException | RuntimeException refused) {
            getLogger()
                    .warn(
                            "{}: the Record Writer cannot write the {} records that could not be keyed; writing them as JSON",
                            original,
                            unkeyable.count(),
                            refused);
            failures = writeFailures(
                    session,
                    original,
                    readerFactory,
                    null,
                    task,
                    "; written as JSON because the Record Writer could not write them: " + refused.getMessage());
        }
        created.add(failures.flowFile());
        if (failures.count() != unkeyable.count()) {
            throw new ProcessException("The input changed between reads: " + unkeyable.count()
                    + " records could not be keyed on the first read and " + failures.count() + " later");
        }
        return failures;
    }

    /** One attempt at the failure FlowFile, with {@code writerFactory} or, when it is null, as JSON. Nothing is left behind when it fails. */
    private Failures writeFailures(
            ProcessSession session,
            FlowFile original,
            RecordReaderFactory readerFactory,
            RecordSetWriterFactory writerFactory,
            CellRouting.Task task,
            String note)
            throws IOException, MalformedRecordException, SchemaNotFoundException {
        FlowFile flowFile = session.create(original);
        try {
            try (InputStream in = session.read(original);
                    RecordReader reader = readerFactory.createRecordReader(
                            original.getAttributes(), in, original.getSize(), getLogger())) {
                RecordSchema schema = failureSchema(reader.getSchema());
                if (writerFactory != null) {
                    schema = writerFactory.getSchema(original.getAttributes(), schema);
                }
                try (OutputStream out = session.write(flowFile);
                        RecordSetWriter writer = writerFactory == null
                                ? new FailedRecordsJsonWriter(out)
                                : writerFactory.createWriter(getLogger(), schema, out, flowFile)) {
                    writer.beginRecordSet();
                    Record record;
                    while ((record = reader.nextRecord()) != null) {
                        try {
                            task.cellOf(record);
                        } catch (UnkeyableRecordException e) {
                            Map<String, Object> values = new LinkedHashMap<>(record.toMap());
                            values.put(KEYING_ERROR_FIELD, e.getMessage());
                            writer.write(new MapRecord(schema, values));
                        }
                    }
                    WriteResult result = writer.finishRecordSet();
                    return new Failures(
                            flowFile, result.getRecordCount(), result.getAttributes(), writer.getMimeType(), note);
                }
            }
        } catch (IOException | MalformedRecordException | SchemaNotFoundException | RuntimeException e) {
            session.remove(flowFile); // its stream is closed by now
            throw e;
        }
    }

    /**
     * A Parquet input declares the CRS of its geometry column in its {@code geo} metadata or its GEOMETRY/GEOGRAPHY
     * logical type ({@link DeclaredCrs}); coordinates read as if
     * they were in another CRS would be keyed and converted wrongly, so a declaration that differs from the Source CRS
     * (the archive's when Source CRS is empty) fails the FlowFile.
     */
    private void requireDeclaredCrs(RecordReader reader, FlowFile original) {
        if (!(reader instanceof GeoParquetRecordReader geoParquet) || sourceGeometryField == null) {
            return;
        }
        SourceCrs expected = routing.source();
        DeclaredCrs.mismatch(
                        geoParquet.parquetSchema(), geoParquet.canonicalFooter().asMap(), sourceGeometryField, expected)
                .ifPresent(problem -> {
                    throw new IllegalArgumentException(original.getAttribute(CoreAttributes.FILENAME.key()) + ": "
                            + problem + " (the Source CRS); set Source CRS to the CRS the file declares");
                });
    }

    /**
     * One further read: writes the records of the cells in {@code window}, at most that many writers open at once.
     * Records are keyed and given their WKB a block ahead on a keying thread ({@link ComputeAhead}), and reach their
     * cell's writer in batches ({@link CellBatches}), at most {@value #MAX_BATCHED_RECORDS} held at once, in the order
     * they were read. The writers run on cell-writing threads, several cells at once ({@link CellLanes}), and what they
     * write reaches the cells' FlowFiles on this thread ({@link TaskThreadStreams}).
     */
    private List<CellOutput> writeCells(
            ProcessSession session,
            FlowFile original,
            RecordReaderFactory readerFactory,
            RecordSetWriterFactory writerFactory,
            CellRouting.Task task,
            RecordSchema outputSchema,
            List<String> window,
            List<FlowFile> created)
            throws IOException, MalformedRecordException, SchemaNotFoundException {
        Map<String, OpenCell> open = new HashMap<>();
        RecordSchema writeSchema = writerFactory.getSchema(original.getAttributes(), outputSchema);
        List<CellOutput> outputs = new ArrayList<>(window.size());
        try {
            TaskThreadStreams streams = new TaskThreadStreams();
            Map<String, WriteResult> results = new ConcurrentHashMap<>();
            try (InputStream in = session.read(original);
                    RecordReader reader = readerFactory.createRecordReader(
                            original.getAttributes(), in, original.getSize(), getLogger())) {
                // Every cell of the window holds records (the first read found them), so all are opened now.
                for (String cell : window) {
                    open.put(
                            cell,
                            OpenCell.open(
                                    session, original, writerFactory, writeSchema, getLogger(), created, streams));
                }
                try (CellLanes<Routed> lanes = new CellLanes<>(
                        cellWritingThreads, CellLanes.defaultLanes(), MAX_BATCHED_RECORDS, (cell, batch) -> {
                            RecordSetWriter writer = open.get(cell).writer();
                            for (Routed routed : batch) {
                                write(writer, routed);
                            }
                        })) {
                    CellBatches<Routed> batches =
                            new CellBatches<>(CellBatches.DEFAULT_BATCH_SIZE, MAX_BATCHED_RECORDS, (cell, batch) -> {
                                lanes.write(cell, batch);
                                streams.passOn();
                            });
                    Set<String> windowCells = Set.copyOf(window);
                    try (ComputeAhead<Record, Routed> routed = new ComputeAhead<>(
                            keyingThreads,
                            KEYED_AHEAD_RECORDS,
                            record -> routed(task, record, windowCells, writeSchema),
                            (record, out) -> {
                                if (out != null) {
                                    batches.add(out.cell(), out);
                                }
                            })) {
                        Record record;
                        while ((record = reader.nextRecord()) != null) {
                            routed.add(record);
                        }
                        routed.finish();
                    }
                    batches.flush();
                    lanes.end(
                            window,
                            cell -> results.put(cell, open.get(cell).writer().finishRecordSet()));
                    while (!lanes.awaitWritten(PASS_ON_EVERY_MILLIS, TimeUnit.MILLISECONDS)) {
                        streams.passOn();
                    }
                    streams.passOn();
                }
            }
            for (String cell : window) {
                OpenCell written = open.get(cell);
                WriteResult result = results.get(cell);
                written.close();
                open.put(cell, null);
                outputs.add(new CellOutput(
                        cell,
                        written.flowFile(),
                        result.getRecordCount(),
                        result.getAttributes(),
                        written.writer().getMimeType()));
            }
        } finally {
            for (OpenCell cell : open.values()) {
                if (cell != null) {
                    cell.closeQuietly();
                }
            }
        }
        return outputs;
    }

    /**
     * A record as it leaves for its cell's writer: with its geometry as WKB in the archive's CRS, and that geometry as
     * keyed.
     */
    private record Routed(String cell, Record record, Geometry geometry) {}

    /**
     * Writes a routed record. A GeoParquet writer is handed the geometry the keying decoded, so that it does not decode
     * the record's WKB again for the covering bbox.
     */
    private void write(RecordSetWriter writer, Routed routed) throws IOException {
        if (writer instanceof PrimaryGeometryRecordWriter geoParquet) {
            geoParquet.write(routed.record(), outputGeometryField, routed.geometry());
        } else {
            writer.write(routed.record());
        }
    }

    /**
     * The record as written to its cell, or null when it belongs to another window's cell or cannot be keyed (the
     * first read sent it to the failure FlowFile).
     */
    private Routed routed(CellRouting.Task task, Record record, Set<String> window, RecordSchema writeSchema) {
        CellRouting.Keyed keyed;
        try {
            keyed = task.key(record);
        } catch (UnkeyableRecordException e) {
            return null;
        }
        return window.contains(keyed.cell())
                ? new Routed(keyed.cell(), withGeometry(record, writeSchema, keyed.wkb()), keyed.geometry())
                : null;
    }

    /** A cell FlowFile being written: its writer and the stream to its content. */
    private record OpenCell(FlowFile flowFile, RecordSetWriter writer, OutputStream out) {

        static OpenCell open(
                ProcessSession session,
                FlowFile original,
                RecordSetWriterFactory writerFactory,
                RecordSchema schema,
                ComponentLog logger,
                List<FlowFile> created,
                TaskThreadStreams streams)
                throws IOException, SchemaNotFoundException {
            FlowFile child = session.create(original);
            created.add(child);
            OutputStream out = session.write(child);
            try {
                RecordSetWriter writer = writerFactory.createWriter(logger, schema, streams.wrap(out), child);
                try {
                    writer.beginRecordSet();
                } catch (IOException | RuntimeException e) {
                    closeAfterFailure(writer, e);
                    throw e;
                }
                return new OpenCell(child, writer, out);
            } catch (IOException | SchemaNotFoundException | RuntimeException e) {
                // An open stream would make removing the FlowFile fail and the session roll back, stalling the input.
                closeAfterFailure(out, e);
                throw e;
            }
        }

        void close() throws IOException {
            try {
                writer.close();
            } finally {
                out.close(); // an open stream would make removing the FlowFile fail
            }
        }

        void closeQuietly() {
            try {
                close();
            } catch (IOException | RuntimeException ignored) {
                // already failing: the FlowFile is removed and the first error is reported
            }
        }

        private static void closeAfterFailure(Closeable closeable, Exception failure) {
            try {
                closeable.close();
            } catch (IOException | RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
    }

    /**
     * The input schema with the geometry as WKB bytes: a top-level geometry field is replaced where it stood, by a field
     * named after the archive's geometry column; a field already named so is replaced in place; otherwise it is appended.
     */
    private RecordSchema outputSchema(RecordSchema inputSchema) {
        DataType wkb = RecordFieldType.ARRAY.getArrayDataType(RecordFieldType.BYTE.getDataType());
        RecordField geometry = new RecordField(outputGeometryField, wkb, false);
        String source = sourceGeometryField;
        List<RecordField> fields = new ArrayList<>();
        boolean placed = false;
        boolean existing = inputSchema.getField(outputGeometryField).isPresent();
        for (RecordField field : inputSchema.getFields()) {
            boolean isTarget = field.getFieldName().equals(outputGeometryField);
            boolean isSource = field.getFieldName().equals(source);
            if (isTarget || (isSource && !existing)) {
                if (!placed) {
                    fields.add(geometry);
                    placed = true;
                }
            } else if (!isSource) {
                fields.add(field);
            }
        }
        if (!placed) {
            fields.add(geometry);
        }
        return new SimpleRecordSchema(fields);
    }

    private static RecordSchema failureSchema(RecordSchema inputSchema) {
        List<RecordField> fields = new ArrayList<>(inputSchema.getFields());
        fields.removeIf(field -> field.getFieldName().equals(KEYING_ERROR_FIELD));
        fields.add(new RecordField(KEYING_ERROR_FIELD, RecordFieldType.STRING.getDataType(), false));
        return new SimpleRecordSchema(fields);
    }

    private Record withGeometry(Record record, RecordSchema schema, byte[] wkb) {
        Map<String, Object> values = new LinkedHashMap<>(record.toMap());
        if (sourceGeometryField != null) {
            values.remove(sourceGeometryField);
        }
        values.put(outputGeometryField, BinaryValues.boxed(wkb));
        return new MapRecord(schema, values);
    }
}
