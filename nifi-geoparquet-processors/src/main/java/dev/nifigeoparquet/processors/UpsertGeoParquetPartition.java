package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.error.FailureKind;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.SchemaHandling;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.storage.StorageCost;
import dev.nifigeoparquet.processors.migration.StoredChoice;
import dev.nifigeoparquet.processors.record.RecordConversionException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.nifi.annotation.behavior.InputRequirement;
import org.apache.nifi.annotation.behavior.InputRequirement.Requirement;
import org.apache.nifi.annotation.behavior.ReadsAttribute;
import org.apache.nifi.annotation.behavior.ReadsAttributes;
import org.apache.nifi.annotation.behavior.Restricted;
import org.apache.nifi.annotation.behavior.Restriction;
import org.apache.nifi.annotation.behavior.SystemResource;
import org.apache.nifi.annotation.behavior.SystemResourceConsideration;
import org.apache.nifi.annotation.behavior.WritesAttribute;
import org.apache.nifi.annotation.behavior.WritesAttributes;
import org.apache.nifi.annotation.documentation.CapabilityDescription;
import org.apache.nifi.annotation.documentation.SeeAlso;
import org.apache.nifi.annotation.documentation.Tags;
import org.apache.nifi.annotation.documentation.UseCase;
import org.apache.nifi.annotation.lifecycle.OnScheduled;
import org.apache.nifi.components.ConfigVerificationResult;
import org.apache.nifi.components.ConfigVerificationResult.Outcome;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.components.RequiredPermission;
import org.apache.nifi.components.ValidationContext;
import org.apache.nifi.components.ValidationResult;
import org.apache.nifi.context.PropertyContext;
import org.apache.nifi.expression.ExpressionLanguageScope;
import org.apache.nifi.flowfile.FlowFile;
import org.apache.nifi.flowfile.attributes.CoreAttributes;
import org.apache.nifi.logging.ComponentLog;
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
import org.apache.nifi.serialization.record.Record;

@InputRequirement(Requirement.INPUT_REQUIRED)
@Tags({
    "geoparquet",
    "parquet",
    "h3",
    "partition",
    "upsert",
    "merge",
    "delete",
    "append",
    "archive",
    "geospatial",
    "record"
})
@CapabilityDescription(
        "Applies one partition's delta to an H3-partitioned GeoParquet archive, rewriting only that partition:"
                + " appends, upserts on the archive's feature key, deletes by key, or replaces the partition. Each FlowFile holds the"
                + " records of one H3 cell, as RouteByH3Cell produces them, in any format the Record Reader reads (GeoParquet deltas"
                + " through GeoParquetReader). The cell comes from an attribute and is validated as a canonical H3 index of the archive's"
                + " pinned resolution before any path is built from it; every record is re-keyed, and a record outside that cell fails the"
                + " FlowFile. Values are converted to the archive's Parquet types exactly or the FlowFile fails naming the record and field."
                + " Each delta is committed atomically under the archive's commit protocol and is idempotent: its id is derived from its"
                + " records (the id the geoparquet-archive command line gives the same delta) or taken from the delta.id attribute,"
                + " never the FlowFile UUID, so a redelivered or replayed delta changes nothing.")
@ReadsAttributes({
    @ReadsAttribute(
            attribute = GeoParquetAttributes.H3_CELL,
            description = "The H3 cell of every record (the attribute is configurable: H3 Cell Attribute)"),
    @ReadsAttribute(
            attribute = GeoParquetAttributes.DELTA_ID,
            description = "Optional: an id the source gives the delta. When absent, the id is derived from the"
                    + " delta's records, as the command line derives it, so the same records are the same delta")
})
@WritesAttributes({
    @WritesAttribute(
            attribute = GeoParquetAttributes.OPERATION_ID,
            description = "The operation id recorded in the partition's commit log: the id derived from the records"
                    + " (64 hexadecimal digits), or the write mode and the delta.id attribute, e.g. upsert:night-0412"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.REPLAY,
            description = "true when the delta had already been committed and nothing changed"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ROWS_BEFORE,
            description = "Rows in the partitions the delta changed"
                    + " (its cell, and the cells its keys left), before its own changes: the FlowFiles of one run are counted as if"
                    + " applied one after another in queue order; for a replay, the partition's rows now"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ROWS_AFTER,
            description = "Rows in those partitions after the delta's own changes"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ROWS_NET,
            description = "Rows after minus rows before, which is"
                    + " inserted minus deleted: the delta's net change of the archive's row count"),
    @WritesAttribute(attribute = GeoParquetAttributes.ROWS_INSERTED, description = "Rows with keys new to the archive"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ROWS_UPDATED,
            description = "Features replaced by the delta's newer"
                    + " row, wherever they were stored; includes the moved ones"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ROWS_MOVED,
            description = "Of the updated features, those whose new"
                    + " geometry moved them from another cell into this one"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ROWS_DELETED,
            description = "Features removed, from whichever cell held them"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ROWS_SKIPPED,
            description = "Delta rows ignored because the archive"
                    + " holds a newer version of the feature (Version Column)"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.PARTITIONS_TOUCHED,
            description =
                    "Comma-separated cells whose state"
                            + " changed: the FlowFile's cell, and the old cells of keys that moved or were deleted; empty for a replay"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMMITS,
            description = "The commit entries holding the delta's"
                    + " changes, as comma-separated <cell>@<version>; VerifyGeoMetadata reconciles row counts from them. Empty for a"
                    + " replay"),
    @WritesAttribute(attribute = GeoParquetAttributes.FILES_WRITTEN, description = "Data files written"),
    @WritesAttribute(attribute = GeoParquetAttributes.BYTES_WRITTEN, description = "Bytes of the data files written"),
    @WritesAttribute(attribute = GeoParquetAttributes.FILES_REMOVED, description = "Data files superseded and deleted"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.BYTES_REMOVED,
            description = "Bytes of the data files superseded"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.PUT_COUNT,
            description = StorageCostAttributes.PUT_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.GET_COUNT,
            description = StorageCostAttributes.GET_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.LIST_COUNT,
            description = StorageCostAttributes.LIST_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.DELETE_COUNT,
            description = StorageCostAttributes.DELETE_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.BYTES_UPLOADED,
            description = StorageCostAttributes.BYTES_UPLOADED_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.BYTES_DOWNLOADED,
            description = StorageCostAttributes.BYTES_DOWNLOADED_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.OBJECTS_DELETED,
            description = StorageCostAttributes.OBJECTS_DELETED_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.YOUNGEST_DELETED_AGE,
            description = StorageCostAttributes.YOUNGEST_DELETED_AGE_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.BATCH_DELTAS,
            description = "How many FlowFiles' deltas were committed"
                    + " together with this one in one rewrite of the partition; the counts above, storage costs included, are the"
                    + " batch's"),
    @WritesAttribute(attribute = GeoParquetAttributes.ERROR_MESSAGE, description = "On failure and retry: why")
})
@SeeAlso(
        classNames = {
            "dev.nifigeoparquet.processors.RouteByH3Cell",
            "dev.nifigeoparquet.processors.CompactGeoParquetPartition",
            "dev.nifigeoparquet.processors.VerifyGeoMetadata",
            "dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService",
            "dev.nifigeoparquet.processors.geoparquet.GeoParquetReader"
        })
@Restricted(
        restrictions = {
            @Restriction(
                    requiredPermission = RequiredPermission.READ_FILESYSTEM,
                    explanation = "Reads the data files and commit logs of the archive's partitions."),
            @Restriction(
                    requiredPermission = RequiredPermission.WRITE_FILESYSTEM,
                    explanation =
                            "Writes data files and commit entries into the archive, and deletes the data files a commit supersedes.")
        })
@SystemResourceConsideration(
        resource = SystemResource.MEMORY,
        description =
                "A run holds the delta rows of every FlowFile it takes (up to Batch Size FlowFiles) in memory, with"
                        + " one row group per worker thread being rewritten; memory does not grow with a partition's size.")
@SystemResourceConsideration(
        resource = SystemResource.CPU,
        description = "Partitions are rewritten on the archive service's Worker Threads, which run beside NiFi's timer"
                + " threads: a node can use the sum of both. Every processor using one service shares its workers.")
@SystemResourceConsideration(
        resource = SystemResource.DISK,
        description = "Each touched partition is written again in full (staged, then promoted), and the files it"
                + " supersedes are deleted after the commit.")
@UseCase(
        description =
                "Keep an H3-partitioned GeoParquet archive current with a nightly delta, rewriting only the partitions it touches.",
        keywords = {"geoparquet", "upsert", "merge", "nightly", "delta", "partition"},
        configuration = """
                Route the delta with RouteByH3Cell first and connect its "success" here: every FlowFile then holds one cell's \
                records and carries h3.cell, with the delta's own attributes (delta.id when the delta file had one).
                Select the same GeoParquet Archive Service as RouteByH3Cell. Set "Record Reader" to a reader of RouteByH3Cell's \
                Record Writer format: a GeoParquetReader when it writes GeoParquet, a JsonTreeReader for JSON.
                Leave "Write Mode" at "Upsert". If the delta marks removed features with a boolean field, for example is_deleted, \
                set "Delete Marker Field" to it. Set "Delta Sequence" to an integer that grows with the deltas' order, from the \
                delta file (for example ${file.lastModifiedTime:toDate("yyyy-MM-dd'T'HH:mm:ssZ"):toNumber()}), so that \
                nights delivered late, twice or on several nodes at once converge.
                Connect "success" to CompactGeoParquetPartition (or VerifyGeoMetadata). Configure retries on "retry" (the \
                relationship's Retry setting, for example 10 times with backoff): it receives deltas that met a transient \
                failure, penalised. Connect "retry" and "failure" to a place an operator watches: error.message says which \
                record, field or file was wrong, or what the archive needs, and the archive is unchanged.
                """)
@UseCase(
        description = "Replace whole partitions with a fresh extract of them.",
        keywords = {"replace", "overwrite", "reload", "partition"},
        configuration = """
                Configure the processor as for an upsert and set "Write Mode" to "Replace Partition". Each FlowFile's records \
                become the complete content of its cell's partition; other partitions are not read or written. Keys that were \
                in another cell before keep only their new row.
                """)
public class UpsertGeoParquetPartition extends AbstractProcessor implements VerifiableProcessor {

    /** Ids become part of a JSON commit entry and of log messages; nothing longer or stranger is accepted. */
    private static final Pattern DELTA_ID_PATTERN = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

    /** How the delta changes its partition, as the canvas names it. */
    enum Mode implements StoredChoice {
        APPEND(
                "Append",
                WriteMode.APPEND,
                "The delta's records become a new data file; existing files are untouched. A key the"
                        + " archive already holds fails the FlowFile."),
        UPSERT(
                "Upsert",
                WriteMode.UPSERT,
                "Merge on the archive's feature key: a delta record replaces the archive's row with"
                        + " the same key (unless the archive's version is newer), new keys are added, records marked deleted are removed."),
        DELETE(
                "Delete",
                WriteMode.DELETE,
                "Remove the features whose keys the records carry; records need only the key fields."),
        REPLACE("Replace Partition", WriteMode.REPLACE, "The delta's records become the whole partition.");

        private final String displayName;
        private final WriteMode writeMode;
        private final String description;

        Mode(String displayName, WriteMode writeMode, String description) {
            this.displayName = displayName;
            this.writeMode = writeMode;
            this.description = description;
        }

        WriteMode writeMode() {
            return writeMode;
        }

        @Override
        public String getDisplayName() {
            return displayName;
        }

        @Override
        public String getDescription() {
            return description;
        }
    }

    /** What to do about archive fields a record lacks. */
    enum MissingFields implements StoredChoice {
        STRICT(
                "Strict",
                SchemaHandling.STRICT,
                "Every field of the archive's schema must be present in every record; a missing one fails the FlowFile."),
        FILL_NULLABLE(
                "Fill Missing Nullable Fields",
                SchemaHandling.FILL_MISSING_NULLABLE,
                "A nullable archive field the record lacks is written as null; a missing required field still fails.");

        private final String displayName;
        private final SchemaHandling handling;
        private final String description;

        MissingFields(String displayName, SchemaHandling handling, String description) {
            this.displayName = displayName;
            this.handling = handling;
            this.description = description;
        }

        SchemaHandling handling() {
            return handling;
        }

        @Override
        public String getDisplayName() {
            return displayName;
        }

        @Override
        public String getDescription() {
            return description;
        }
    }

    public static final PropertyDescriptor ARCHIVE_SERVICE =
            ProcessorSupport.archiveServiceProperty("The archive the deltas are applied to.", true);

    public static final PropertyDescriptor RECORD_READER = new PropertyDescriptor.Builder()
            .name("Record Reader")
            .description(
                    "Reads the delta's records: a GeoParquetReader for GeoParquet deltas, or any reader of the format"
                            + " RouteByH3Cell's Record Writer wrote.")
            .identifiesControllerService(RecordReaderFactory.class)
            .required(true)
            .build();

    public static final PropertyDescriptor WRITE_MODE = new PropertyDescriptor.Builder()
            .name("Write Mode")
            .description("How each delta changes its partition.")
            .required(true)
            .allowableValues(Mode.class)
            .defaultValue(Mode.UPSERT)
            .build();

    public static final PropertyDescriptor CELL_ATTRIBUTE = new PropertyDescriptor.Builder()
            .name("H3 Cell Attribute")
            .description(
                    "The FlowFile attribute holding the delta's H3 cell. Its value must be a canonical H3 index (15 lower-case"
                            + " hexadecimal digits) at the archive's pinned resolution, and every record's geometry must key to it.")
            .required(true)
            .defaultValue(GeoParquetAttributes.H3_CELL)
            .addValidator(StandardValidators.ATTRIBUTE_KEY_VALIDATOR)
            .build();

    public static final PropertyDescriptor DELETE_MARKER = new PropertyDescriptor.Builder()
            .name("Delete Marker Field")
            .description(
                    "A boolean record field whose true value deletes the record's key instead of upserting it; such records"
                            + " need only the key fields. The field is not written to the archive. Only for Write Mode Upsert.")
            .required(false)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(WRITE_MODE, Mode.UPSERT)
            .build();

    public static final PropertyDescriptor VERSION_COLUMN = new PropertyDescriptor.Builder()
            .name("Version Column")
            .description(
                    "The column the flow expects to order versions of a feature: an upsert keeps the row with the higher"
                            + " version. The archive pins its version column when it is created; this property states the flow's"
                            + " expectation, and the processor refuses to run against an archive whose version column differs. Leave empty"
                            + " to accept the archive's.")
            .required(false)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(WRITE_MODE, Mode.UPSERT)
            .build();

    public static final PropertyDescriptor DELTA_SEQUENCE = new PropertyDescriptor.Builder()
            .name("Delta Sequence")
            .description(
                    "Where each FlowFile's delta stands among the deltas that write the same keys: an integer of 0 or more,"
                            + " larger for later deltas, usually from the delta file, for example its date in its name"
                            + " (${filename:replaceAll('^\\D*(\\d{8}).*$', '$1')} for nightly-20261201.parquet) or its"
                            + " modification time (${file.lastModifiedTime:toDate(\"yyyy-MM-dd'T'HH:mm:ssZ\"):toNumber()}). A key's"
                            + " row is written only when it is not older than what the archive holds: the Version Column's value"
                            + " first, then the sequence; a deletion leaves its sequence behind. So a backlog of deltas delivered"
                            + " late, twice, or at once on several nodes leaves the archive that applying them in order leaves."
                            + " Empty: the delta is applied as it comes, whatever was written before. A value that is not such an"
                            + " integer fails the FlowFile.")
            .required(false)
            .expressionLanguageSupported(ExpressionLanguageScope.FLOWFILE_ATTRIBUTES)
            .addValidator(StandardValidators.createLongValidator(0, Long.MAX_VALUE, true))
            .dependsOn(WRITE_MODE, Mode.UPSERT, Mode.DELETE, Mode.APPEND)
            .build();

    public static final PropertyDescriptor MISSING_FIELDS = new PropertyDescriptor.Builder()
            .name("Schema Handling")
            .description(
                    "What to do when a record lacks a field of the archive's schema. A record with a field the archive does"
                            + " not have always fails (schema evolution is not supported), so no value is dropped silently.")
            .required(true)
            .allowableValues(MissingFields.class)
            .defaultValue(MissingFields.STRICT)
            .build();

    public static final PropertyDescriptor BATCH_SIZE = new PropertyDescriptor.Builder()
            .name("Batch Size")
            .description(
                    "The most FlowFiles taken per run. They are grouped by cell and each group is applied in queue order;"
                            + " see the processor's documentation for how a batch commits.")
            .required(true)
            .defaultValue(String.valueOf(ArchiveWriter.DEFAULT_PARTITIONS_PER_RUN))
            .addValidator(StandardValidators.POSITIVE_INTEGER_VALIDATOR)
            .build();

    private static final List<PropertyDescriptor> PROPERTY_DESCRIPTORS = List.of(
            ARCHIVE_SERVICE,
            RECORD_READER,
            WRITE_MODE,
            CELL_ATTRIBUTE,
            DELETE_MARKER,
            VERSION_COLUMN,
            DELTA_SEQUENCE,
            MISSING_FIELDS,
            BATCH_SIZE);

    public static final Relationship REL_SUCCESS = new Relationship.Builder()
            .name("success")
            .description(
                    "Deltas committed, or found already committed (geoparquet.replay is true), with what they changed")
            .build();

    public static final Relationship REL_FAILURE = new Relationship.Builder()
            .name("failure")
            .description(
                    "Deltas that cannot be applied as they are (a bad cell attribute, a record outside the cell, a value the"
                            + " archive cannot hold, a Delta Sequence that is not an integer), and deltas the archive cannot take"
                            + " until an operator acts (permission denied, an archived S3 object, damaged or newer-format"
                            + " metadata, a damaged data file, a full disk: an error bulletin says what to do, and the processor"
                            + " yields). The archive is unchanged; error.message says why")
            .build();

    public static final Relationship REL_RETRY = new Relationship.Builder()
            .name("retry")
            .description(
                    "Deltas that met a transient failure: another writer committed first, the storage throttled, timed out"
                            + " or was unreachable. The archive is unchanged, the FlowFile is penalised and the processor yields;"
                            + " configure retries on this relationship (Retry, with a count and backoff) and connect it to where"
                            + " failures go, so that a FlowFile still failing after the retries reaches an operator")
            .build();

    private static final Set<Relationship> RELATIONSHIPS = Set.of(REL_SUCCESS, REL_FAILURE, REL_RETRY);

    /** The configuration of one schedule. */
    private record Settings(
            Mode mode,
            String cellAttribute,
            String deleteMarker,
            String versionColumn,
            MissingFields missingFields,
            int batchSize) {

        static Settings of(PropertyContext context) {
            Mode mode = context.getProperty(WRITE_MODE).asAllowableValue(Mode.class);
            return new Settings(
                    mode,
                    context.getProperty(CELL_ATTRIBUTE).getValue(),
                    mode == Mode.UPSERT
                            ? trimmed(context.getProperty(DELETE_MARKER).getValue())
                            : null,
                    mode == Mode.UPSERT
                            ? trimmed(context.getProperty(VERSION_COLUMN).getValue())
                            : null,
                    context.getProperty(MISSING_FIELDS).asAllowableValue(MissingFields.class),
                    context.getProperty(BATCH_SIZE).asInteger());
        }

        private static String trimmed(String value) {
            return value == null || value.isBlank() ? null : value.strip();
        }
    }

    private volatile Settings settings;

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
        String marker = context.getProperty(DELETE_MARKER).getValue();
        String cellAttribute = context.getProperty(CELL_ATTRIBUTE).getValue();
        if (marker != null && marker.strip().equals(cellAttribute)) {
            results.add(new ValidationResult.Builder()
                    .subject(DELETE_MARKER.getDisplayName())
                    .valid(false)
                    .explanation(
                            "names a record field; it cannot also be the H3 Cell Attribute '" + cellAttribute + "'")
                    .build());
        }
        return results;
    }

    @OnScheduled
    public void onScheduled(ProcessContext context) {
        Settings configured = Settings.of(context);
        GeoParquetArchive archive = ProcessorSupport.archive(context, ARCHIVE_SERVICE);
        List<String> problems = archiveProblems(configured, archive);
        if (!problems.isEmpty()) {
            throw new IllegalStateException(String.join("; ", problems));
        }
        settings = configured;
    }

    /** What makes the configuration unusable against this archive; empty when it fits. */
    private static List<String> archiveProblems(Settings settings, GeoParquetArchive archive) {
        List<String> problems = new ArrayList<>();
        List<String> keys = archive.descriptor().keyColumns();
        if (settings.mode().writeMode().needsKey() && keys.isEmpty()) {
            problems.add("Write Mode " + settings.mode().getDisplayName() + " needs a feature key, and the archive at "
                    + archive.storage().describe()
                    + " has none (it is append-only); choose Append or Replace Partition");
        }
        String pinned = archive.descriptor().versionColumn();
        if (settings.versionColumn() != null && !settings.versionColumn().equals(pinned)) {
            problems.add("Version Column '" + settings.versionColumn() + "' differs from the archive's "
                    + (pinned == null ? "(it has no version column)" : "'" + pinned + "'")
                    + "; set it to the archive's or leave it empty");
        }
        if (settings.deleteMarker() != null && archive.schema().containsField(settings.deleteMarker())) {
            problems.add("Delete Marker Field '" + settings.deleteMarker()
                    + "' is a column of the archive; it must be a field that only the delta carries");
        }
        return problems;
    }

    @Override
    public List<ConfigVerificationResult> verify(
            ProcessContext context, ComponentLog verificationLogger, Map<String, String> attributes) {
        List<ConfigVerificationResult> results = new ArrayList<>();
        GeoParquetArchive archive = ProcessorSupport.archiveToVerify(context, ARCHIVE_SERVICE, results);
        if (archive == null) {
            return results;
        }
        results.add(ProcessorSupport.result(
                "Archive",
                Outcome.SUCCESSFUL,
                archive + ": H3 resolution " + archive.h3Resolution() + ", key columns "
                        + archive.descriptor().keyColumns() + ", version column "
                        + archive.descriptor().versionColumn()));
        List<String> problems = archiveProblems(Settings.of(context), archive);
        results.add(
                problems.isEmpty()
                        ? ProcessorSupport.result(
                                "Configuration against the archive",
                                Outcome.SUCCESSFUL,
                                "Write Mode, Version Column and Delete Marker Field fit")
                        : ProcessorSupport.result(
                                "Configuration against the archive", Outcome.FAILED, String.join("; ", problems)));
        String cellAttribute = context.getProperty(CELL_ATTRIBUTE).getValue();
        String cell = attributes.get(cellAttribute);
        if (cell != null) {
            try {
                archive.requireCell(cell);
                results.add(ProcessorSupport.result(
                        "H3 Cell Attribute",
                        Outcome.SUCCESSFUL,
                        "'" + cell + "' is a cell of the archive's resolution"));
            } catch (IllegalArgumentException e) {
                results.add(ProcessorSupport.result("H3 Cell Attribute", Outcome.FAILED, e.getMessage()));
            }
        }
        return results;
    }

    @Override
    public void onTrigger(ProcessContext context, ProcessSession session) {
        Settings current = settings;
        List<FlowFile> flowFiles = session.get(current.batchSize());
        if (flowFiles.isEmpty()) {
            return;
        }
        GeoParquetArchive archive = ProcessorSupport.archive(context, ARCHIVE_SERVICE);
        RecordReaderFactory readers = context.getProperty(RECORD_READER).asControllerService(RecordReaderFactory.class);

        // Group by the validated cell, keeping queue order inside each cell.
        Map<String, List<FlowFile>> byCell = new LinkedHashMap<>();
        for (FlowFile flowFile : flowFiles) {
            String raw = flowFile.getAttribute(current.cellAttribute());
            try {
                byCell.computeIfAbsent(archive.requireCell(raw), cell -> new ArrayList<>())
                        .add(flowFile);
            } catch (IllegalArgumentException e) {
                fail(
                        session,
                        flowFile,
                        "Attribute " + current.cellAttribute() + " is not a partition of the archive: "
                                + e.getMessage(),
                        null);
            }
        }
        DeltaRecords records = new DeltaRecords(
                archive,
                current.mode().writeMode(),
                current.deleteMarker(),
                current.missingFields().handling());
        List<ReadDelta> read = new ArrayList<>();
        for (Map.Entry<String, List<FlowFile>> group : byCell.entrySet()) {
            for (FlowFile flowFile : group.getValue()) {
                ReadDelta delta = read(context, session, readers, records, current, group.getKey(), flowFile);
                if (delta != null) {
                    read.add(delta);
                }
            }
        }
        List<Workers.Outcome<PartitionDelta>> prepared;
        try {
            prepared = PartitionDelta.prepareAll(
                    archive,
                    read.stream()
                            .map(delta -> new PartitionDelta.Request(
                                    delta.cell(),
                                    current.mode().writeMode(),
                                    delta.rows(),
                                    delta.givenId(),
                                    delta.sequence()))
                            .toList());
        } catch (InterruptedIOException e) {
            throw new ProcessException("Interrupted while the deltas were validated; nothing was written", e);
        }
        List<CellBatch> batches = batches(session, read, prepared);
        if (batches.isEmpty()) {
            return;
        }
        List<ArchiveWriter.BatchOutcome> outcomes = new ArchiveWriter(archive)
                .applyAll(batches.stream().map(CellBatch::deltas).toList());
        boolean yield = false;
        for (int i = 0; i < batches.size(); i++) {
            yield |= route(session, archive, batches.get(i), outcomes.get(i));
        }
        if (yield) {
            context.yield();
        }
    }

    /**
     * One cell's FlowFiles, read and validated, to be committed with one rewrite of the partition. Each delta keeps
     * its own id in the commit, so a FlowFile redelivered alone later is a replay.
     */
    private record CellBatch(
            String cell, List<FlowFile> flowFiles, List<FlowFile> repeated, List<PartitionDelta> deltas) {}

    /**
     * A FlowFile's delta, read on the task's thread, with its sequence and the id the FlowFile gives it (null: the engine
     * derives it from the rows).
     */
    private record ReadDelta(String cell, FlowFile flowFile, String givenId, List<DeltaRow> rows, Long sequence) {}

    /**
     * Reads one FlowFile of a partition; null, with the FlowFile sent to failure, when it cannot be read: content that
     * is not a delta of this archive is bad input.
     */
    private ReadDelta read(
            ProcessContext context,
            ProcessSession session,
            RecordReaderFactory readers,
            DeltaRecords records,
            Settings current,
            String cell,
            FlowFile flowFile) {
        try {
            Long sequence = sequenceOf(context, flowFile, current);
            String givenId = givenOperationId(current.mode(), flowFile.getAttribute(GeoParquetAttributes.DELTA_ID));
            return new ReadDelta(cell, flowFile, givenId, read(session, flowFile, readers, records), sequence);
        } catch (IOException | MalformedRecordException | SchemaNotFoundException | RuntimeException e) {
            failUnapplied(session, flowFile, ProcessorSupport.Failure.of(FailureKind.BAD_INPUT, unapplied(cell), e));
            return null;
        }
    }

    /** The FlowFile's Delta Sequence; null when the property is empty for it (or the mode takes none). */
    private static Long sequenceOf(ProcessContext context, FlowFile flowFile, Settings current) {
        if (current.mode() == Mode.REPLACE) {
            return null;
        }
        String value = context.getProperty(DELTA_SEQUENCE)
                .evaluateAttributeExpressions(flowFile)
                .getValue();
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            long sequence = Long.parseLong(value.strip());
            if (sequence >= 0) {
                return sequence;
            }
        } catch (NumberFormatException notANumber) {
            // reported below
        }
        throw new RejectedInputException(
                "Delta Sequence evaluated to '" + value + "' for this FlowFile, which is not an integer of 0 or more");
    }

    private static String unapplied(String cell) {
        return "Delta for partition " + cell + " cannot be applied";
    }

    /**
     * Groups the validated deltas by partition, in queue order; a FlowFile whose delta was rejected goes to failure,
     * and one whose id an earlier FlowFile of its partition carries is a replay of it. The id is the prepared one, not
     * a hash of the content, so the same rows written twice in different encodings are recognised too; a batch rarely
     * repeats a FlowFile, so validating the repeat before it is recognised costs little.
     */
    private List<CellBatch> batches(
            ProcessSession session, List<ReadDelta> read, List<Workers.Outcome<PartitionDelta>> prepared) {
        Map<String, CellBatch> byCell = new LinkedHashMap<>();
        Map<String, Set<String>> ids = new HashMap<>();
        for (int i = 0; i < read.size(); i++) {
            ReadDelta delta = read.get(i);
            Set<String> cellIds = ids.computeIfAbsent(delta.cell(), cell -> new HashSet<>());
            CellBatch batch = byCell.get(delta.cell());
            if (prepared.get(i).failed()) {
                failUnapplied(
                        session,
                        delta.flowFile(),
                        ProcessorSupport.Failure.of(
                                unapplied(delta.cell()), prepared.get(i).failure()));
            } else if (cellIds.contains(prepared.get(i).value().deltaId())) {
                batch.repeated().add(delta.flowFile()); // the same delta twice in one batch: applied once
            } else {
                if (batch == null) {
                    batch = new CellBatch(delta.cell(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
                    byCell.put(delta.cell(), batch);
                }
                batch.flowFiles().add(delta.flowFile());
                batch.deltas().add(prepared.get(i).value());
                cellIds.add(prepared.get(i).value().deltaId());
            }
        }
        return new ArrayList<>(byCell.values());
    }

    /** Sends a FlowFile that was not applied to failure, or, for a transient failure, to retry. */
    private void failUnapplied(ProcessSession session, FlowFile flowFile, ProcessorSupport.Failure failure) {
        Relationship to = failure.retried() ? REL_RETRY : REL_FAILURE;
        failure.log(getLogger(), flowFile, to.getName(), null);
        FlowFile failed = session.putAttribute(flowFile, GeoParquetAttributes.ERROR_MESSAGE, failure.reason());
        session.transfer(failure.retried() ? session.penalize(failed) : failed, to);
    }

    /**
     * Sends a cell's FlowFiles where their batch's outcome says: success with its counts, retry, or failure.
     *
     * @return whether the processor should yield: the batch failed for a reason the FlowFiles are not the cause of
     */
    private boolean route(
            ProcessSession session,
            GeoParquetArchive archive,
            CellBatch cellBatch,
            ArchiveWriter.BatchOutcome outcome) {
        String cell = cellBatch.cell();
        List<FlowFile> batch = cellBatch.flowFiles();
        List<FlowFile> repeated = cellBatch.repeated();
        if (outcome.failure() != null) {
            Exception e = outcome.failure();
            ProcessorSupport.Failure failure = ProcessorSupport.Failure.of("Partition " + cell + " was not changed", e);
            Relationship to = failure.retried() ? REL_RETRY : REL_FAILURE;
            List<FlowFile> all = new ArrayList<>(batch);
            all.addAll(repeated);
            failure.log(getLogger(), all.size() == 1 ? all.get(0) : all.size() + " FlowFiles", to.getName(), e);
            for (FlowFile flowFile : all) {
                FlowFile failed = session.putAttribute(flowFile, GeoParquetAttributes.ERROR_MESSAGE, failure.reason());
                session.transfer(failure.retried() ? session.penalize(failed) : failed, to);
            }
            return failure.yields();
        }
        OperationResult result = outcome.result();
        Map<String, String> cost = StorageCostAttributes.of(GeoParquetAttributes.UPSERT_STORAGE, outcome.cost());
        // Every FlowFile of the batch went into the same commit: each is reported as sent to the files it wrote.
        Map<String, List<String>> written = result.replay() ? Map.of() : writtenPaths(archive, result);
        for (FlowFile flowFile : batch) {
            Map<String, String> attributes = attributesOf(result);
            attributes.putAll(cost);
            attributes.put(GeoParquetAttributes.BATCH_DELTAS, String.valueOf(batch.size()));
            FlowFile done = session.putAllAttributes(flowFile, attributes);
            written.forEach((partition, paths) -> paths.forEach(path -> session.getProvenanceReporter()
                    .send(
                            done,
                            ProcessorSupport.transitUri(archive, path),
                            "Committed " + result.deltaId() + " to partition " + partition)));
            session.transfer(done, REL_SUCCESS);
        }
        for (FlowFile flowFile : repeated) {
            Map<String, String> attributes = attributesOf(result);
            attributes.put(GeoParquetAttributes.REPLAY, "true");
            attributes.put(GeoParquetAttributes.ROWS_BEFORE, String.valueOf(result.rowsAfter()));
            attributes.put(GeoParquetAttributes.ROWS_NET, "0");
            attributes.put(GeoParquetAttributes.ROWS_INSERTED, "0");
            attributes.put(GeoParquetAttributes.ROWS_UPDATED, "0");
            attributes.put(GeoParquetAttributes.ROWS_DELETED, "0");
            attributes.put(GeoParquetAttributes.ROWS_MOVED, "0");
            attributes.put(GeoParquetAttributes.ROWS_SKIPPED, "0");
            attributes.put(GeoParquetAttributes.COMMITS, "");
            attributes.put(GeoParquetAttributes.FILES_WRITTEN, "0");
            attributes.put(GeoParquetAttributes.BYTES_WRITTEN, "0");
            attributes.put(GeoParquetAttributes.FILES_REMOVED, "0");
            attributes.put(GeoParquetAttributes.BYTES_REMOVED, "0");
            attributes.putAll(StorageCostAttributes.of(
                    GeoParquetAttributes.UPSERT_STORAGE, StorageCost.NONE)); // the copy cost nothing of its own
            attributes.put(GeoParquetAttributes.BATCH_DELTAS, String.valueOf(batch.size()));
            session.transfer(session.putAllAttributes(flowFile, attributes), REL_SUCCESS);
        }
        session.adjustCounter("Deltas Replayed", repeated.size() + (result.replay() ? batch.size() : 0), false);
        session.adjustCounter(
                result.replay() ? "Deltas Replayed" : "Deltas Committed", result.replay() ? 0 : batch.size(), false);
        session.adjustCounter("Partition Rewrites", result.replay() ? 0 : 1, false);
        return false;
    }

    private void fail(ProcessSession session, FlowFile flowFile, String message, Throwable cause) {
        if (cause == null) {
            getLogger().error("{}: {}; routing to failure", flowFile, message);
        } else {
            getLogger().error("{}: {}; routing to failure", flowFile, message, cause);
        }
        session.transfer(session.putAttribute(flowFile, GeoParquetAttributes.ERROR_MESSAGE, message), REL_FAILURE);
    }

    /** A FlowFile's records as delta rows. */
    private List<DeltaRow> read(
            ProcessSession session, FlowFile flowFile, RecordReaderFactory readers, DeltaRecords records)
            throws IOException, MalformedRecordException, SchemaNotFoundException {
        List<DeltaRow> rows = new ArrayList<>();
        try (InputStream in = session.read(flowFile);
                RecordReader reader =
                        readers.createRecordReader(flowFile.getAttributes(), in, flowFile.getSize(), getLogger())) {
            records.requireArchiveCrs(reader, flowFile.getAttribute(CoreAttributes.FILENAME.key()));
            Record record;
            long index = 0;
            while ((record = reader.nextRecord()) != null) {
                try {
                    rows.add(records.toRow(record, index));
                } catch (RecordConversionException e) {
                    throw new IllegalArgumentException("record " + index + ": " + e.getMessage(), e);
                }
                index++;
            }
        }
        return rows;
    }

    /**
     * The id the partition's commit log remembers for a FlowFile that names its delta: the write mode (so the same
     * records deleted after being upserted are not mistaken for a replay) and the delta.id attribute. Null when the
     * attribute is absent or blank: the engine derives the id from the records (docs/archive-format.md, section 5.8).
     */
    static String givenOperationId(Mode mode, String deltaIdAttribute) {
        if (deltaIdAttribute == null || deltaIdAttribute.isBlank()) {
            return null;
        }
        String deltaId = deltaIdAttribute.strip();
        if (!DELTA_ID_PATTERN.matcher(deltaId).matches()) {
            throw new IllegalArgumentException(
                    "attribute " + GeoParquetAttributes.DELTA_ID + " must be 1 to 128 letters, digits or . _ : -");
        }
        return mode.writeMode().name().toLowerCase(Locale.ROOT) + ":" + deltaId;
    }

    private static Map<String, String> attributesOf(OperationResult result) {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put(GeoParquetAttributes.OPERATION_ID, result.deltaId());
        attributes.put(GeoParquetAttributes.REPLAY, String.valueOf(result.replay()));
        attributes.put(GeoParquetAttributes.ROWS_BEFORE, String.valueOf(result.rowsBefore()));
        attributes.put(GeoParquetAttributes.ROWS_AFTER, String.valueOf(result.rowsAfter()));
        attributes.put(GeoParquetAttributes.ROWS_NET, String.valueOf(result.netRows()));
        attributes.put(GeoParquetAttributes.ROWS_INSERTED, String.valueOf(result.inserted()));
        attributes.put(GeoParquetAttributes.ROWS_UPDATED, String.valueOf(result.updated()));
        attributes.put(GeoParquetAttributes.ROWS_DELETED, String.valueOf(result.deleted()));
        attributes.put(GeoParquetAttributes.ROWS_MOVED, String.valueOf(result.moved()));
        attributes.put(GeoParquetAttributes.ROWS_SKIPPED, String.valueOf(result.olderVersionsSkipped()));
        attributes.put(GeoParquetAttributes.PARTITIONS_TOUCHED, String.join(",", result.partitionsTouched()));
        attributes.put(
                GeoParquetAttributes.COMMITS,
                String.join(",", result.commits().stream().map(Object::toString).toList()));
        attributes.put(GeoParquetAttributes.FILES_WRITTEN, String.valueOf(result.filesWritten()));
        attributes.put(GeoParquetAttributes.BYTES_WRITTEN, String.valueOf(result.bytesWritten()));
        attributes.put(GeoParquetAttributes.FILES_REMOVED, String.valueOf(result.filesRemoved()));
        attributes.put(GeoParquetAttributes.BYTES_REMOVED, String.valueOf(result.bytesRemoved()));
        return attributes;
    }

    /**
     * The data files the operation wrote, by partition, for one SEND event each. When another writer committed the same
     * partition in between, the files cannot be told apart any more and the partition directory stands for them.
     */
    private static Map<String, List<String>> writtenPaths(GeoParquetArchive archive, OperationResult result) {
        Map<String, List<String>> written = new LinkedHashMap<>();
        for (String cell : result.partitionsTouched()) {
            List<String> paths = new ArrayList<>();
            try {
                PartitionCommit state = archive.partitionState(cell);
                if (result.deltaId().equals(state.operationId())) {
                    state.added().forEach(name -> paths.add(ArchiveLayout.dataFile(cell, name)));
                } else {
                    paths.add(ArchiveLayout.partitionDirectory(cell));
                }
            } catch (IOException | RuntimeException e) {
                paths.add(ArchiveLayout.partitionDirectory(cell));
            }
            written.put(cell, paths);
        }
        return written;
    }
}
