package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.compaction.CompactionOptions;
import dev.nifigeoparquet.archive.compaction.CompactionPolicy;
import dev.nifigeoparquet.archive.compaction.Compactor;
import dev.nifigeoparquet.archive.compaction.PartitionCompaction;
import dev.nifigeoparquet.archive.compaction.RowOrder;
import dev.nifigeoparquet.archive.compaction.SweepResult;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.storage.StorageCost;
import dev.nifigeoparquet.processors.migration.StoredChoice;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.nifi.annotation.behavior.InputRequirement;
import org.apache.nifi.annotation.behavior.InputRequirement.Requirement;
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
import org.apache.nifi.flowfile.FlowFile;
import org.apache.nifi.flowfile.attributes.CoreAttributes;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.processor.AbstractProcessor;
import org.apache.nifi.processor.DataUnit;
import org.apache.nifi.processor.ProcessContext;
import org.apache.nifi.processor.ProcessSession;
import org.apache.nifi.processor.Relationship;
import org.apache.nifi.processor.VerifiableProcessor;
import org.apache.nifi.processor.util.StandardValidators;

@InputRequirement(Requirement.INPUT_ALLOWED)
@Tags({"geoparquet", "parquet", "h3", "partition", "compaction", "small files", "archive", "maintenance"})
@CapabilityDescription(
        "Merges the small data files of H3 partitions of a GeoParquet archive into files of the target size,"
                + " keeping every row, its order, the archive's schema and its footer metadata byte for byte. With an incoming"
                + " connection it compacts the partitions each FlowFile names (for example UpsertGeoParquetPartition's 'success');"
                + " without one it sweeps the whole archive on its schedule, touching only the partitions that qualify. A partition"
                + " qualifies when it has more files than the threshold or at least two small files; the threshold, target size and"
                + " minimum file age come from the archive unless overridden here. Each partition is one or more atomic commits.")
@WritesAttributes({
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTED,
            description = "true when at least one partition was"
                    + " rewritten; false when every partition was below the threshold and passed through"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_FILES_BEFORE,
            description = "Live data files before, summed over the partitions"),
    @WritesAttribute(attribute = GeoParquetAttributes.COMPACTION_FILES_AFTER, description = "Live data files after"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_BYTES_READ,
            description = "Bytes of the files rewritten"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_BYTES_WRITTEN,
            description = "Bytes of the files written"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_SKIP_REASON,
            description = "Why a partition was not rewritten"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.PUT_COUNT,
            description = StorageCostAttributes.PUT_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.GET_COUNT,
            description = StorageCostAttributes.GET_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.LIST_COUNT,
            description = StorageCostAttributes.LIST_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.DELETE_COUNT,
            description = StorageCostAttributes.DELETE_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.BYTES_UPLOADED,
            description = StorageCostAttributes.BYTES_UPLOADED_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.BYTES_DOWNLOADED,
            description = StorageCostAttributes.BYTES_DOWNLOADED_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.OBJECTS_DELETED,
            description = StorageCostAttributes.OBJECTS_DELETED_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.YOUNGEST_DELETED_AGE,
            description = StorageCostAttributes.YOUNGEST_DELETED_AGE_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.H3_CELL,
            description = "On a sweep's FlowFiles: the partition compacted"),
    @WritesAttribute(attribute = GeoParquetAttributes.ERROR_MESSAGE, description = "On failure and retry: why"),
    @WritesAttribute(
            attribute = "mime.type",
            description = "application/json on a sweep's FlowFiles, whose content is the result")
})
@SeeAlso(
        classNames = {
            "dev.nifigeoparquet.processors.UpsertGeoParquetPartition",
            "dev.nifigeoparquet.processors.VerifyGeoMetadata",
            "dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService"
        })
@Restricted(
        restrictions = {
            @Restriction(
                    requiredPermission = RequiredPermission.READ_FILESYSTEM,
                    explanation = "Reads the data files and commit logs of the archive's partitions."),
            @Restriction(
                    requiredPermission = RequiredPermission.WRITE_FILESYSTEM,
                    explanation = "Writes merged data files and commit entries, and deletes the files they supersede.")
        })
@SystemResourceConsideration(
        resource = SystemResource.DISK,
        description = "A compaction reads a partition's small files and writes them again as files of the target size;"
                + " a sweep does so for every qualifying partition of the archive.")
@SystemResourceConsideration(
        resource = SystemResource.NETWORK,
        description = "On object storage a compaction downloads and uploads the files it merges, and a sweep lists"
                + " every partition: schedule sweeps once a day, as the sweep flow definition does.")
@UseCase(
        description = "Keep the partitions a nightly upsert touched from piling up small files.",
        keywords = {"compaction", "small files", "upsert", "after"},
        configuration = """
                Connect UpsertGeoParquetPartition's "success" to this processor and select the same GeoParquet Archive Service.
                Leave "Partitions" at its default: it names the partitions the upsert touched, or the FlowFile's h3.cell.
                Leave the threshold and size properties empty to use the archive's settings.
                Connect "success" onward (for example to VerifyGeoMetadata): every FlowFile passes through with the files \
                before and after. Configure retries on "retry" (the relationship's Retry setting) and connect it with "failure" to \
                an operator.
                """)
@UseCase(
        description = "Compact a whole archive once a night.",
        keywords = {"sweep", "schedule", "nightly", "maintenance", "cron"},
        configuration = """
                Add the processor with no incoming connection and select the archive's GeoParquet Archive Service. It sweeps \
                the archive at most once per "Sweep Interval" (1 day by default), whatever its own schedule: a run before the \
                sweep is due reads nothing. For a fixed hour, schedule it with CRON driven scheduling, for example \
                0 0 3 * * ? for 03:00, and set "Sweep Interval" to 20 hours. In a cluster, set Execution to "Primary node"; \
                the archive's sweep lease also keeps any second node or task from sweeping at the same time.
                Set "Minimum File Age" when the storage charges for deleting young objects, for example 7 days.
                Each compacted partition becomes a FlowFile on "success" with its result as JSON; a partition that could not be \
                compacted becomes a FlowFile on "failure".
                """)
public class CompactGeoParquetPartition extends AbstractProcessor implements VerifiableProcessor {

    public static final PropertyDescriptor ARCHIVE_SERVICE =
            ProcessorSupport.archiveServiceProperty("The archive whose partitions are compacted.", true);

    public static final PropertyDescriptor PARTITIONS =
            ProcessorSupport.partitionsProperty("With an incoming connection: the"
                    + " comma-separated H3 cells to compact for each FlowFile. The default takes the partitions UpsertGeoParquetPartition"
                    + " touched, or the FlowFile's h3.cell for a replayed delta. Each cell is validated as a canonical cell of the archive's"
                    + " resolution. Ignored without an incoming connection.");

    public static final PropertyDescriptor MIN_FILES = new PropertyDescriptor.Builder()
            .name("Minimum Files")
            .description(
                    "A partition with more live files than this qualifies. Empty: the archive's compaction.minFiles (8 unless"
                            + " the archive was created otherwise).")
            .required(false)
            .addValidator(StandardValidators.POSITIVE_INTEGER_VALIDATOR)
            .build();

    public static final PropertyDescriptor TARGET_FILE_SIZE = new PropertyDescriptor.Builder()
            .name("Target File Size")
            .description(
                    "The size merged files are packed to. Empty: the archive's writer.targetFileBytes (128 MB unless the"
                            + " archive was created otherwise).")
            .required(false)
            .addValidator(StandardValidators.DATA_SIZE_VALIDATOR)
            .build();

    public static final PropertyDescriptor SMALL_FILE_FRACTION = new PropertyDescriptor.Builder()
            .name("Small File Fraction")
            .description(
                    "A file smaller than this fraction of the target size is small, and two small files make a partition"
                            + " qualify. Empty: the archive's compaction.smallFileFraction (0.25).")
            .required(false)
            .addValidator(StandardValidators.NUMBER_VALIDATOR)
            .build();

    public static final PropertyDescriptor MIN_FILE_AGE = new PropertyDescriptor.Builder()
            .name("Minimum File Age")
            .description(
                    "Files committed more recently than this are left alone (for storage that charges for deleting young"
                            + " objects). Read from the commit log, not from the storage. Empty: the archive's compaction.minFileAgeSeconds (0).")
            .required(false)
            .addValidator(StandardValidators.TIME_PERIOD_VALIDATOR)
            .build();

    /** The order rewritten rows are written in, as the canvas names it. */
    enum RowOrderChoice implements StoredChoice {
        INPUT(
                "Input Order",
                RowOrder.INPUT,
                "Rows keep their order, file after file: compaction only changes which files hold them."),
        HILBERT(
                "Hilbert Curve",
                RowOrder.HILBERT,
                "Rows are ordered along a Hilbert curve over their envelopes' centres, one row group after another, so"
                        + " each row group covers a compact area and readers that prune by the covering bbox statistics skip"
                        + " most row groups of a small query box. Reads the geometry column once more and the input files once"
                        + " per output row group."),
        TILES(
                "Spatial Tiles",
                RowOrder.TILES,
                "Rows are sorted into vertical slabs by the x of their envelopes' centres, then by y inside each slab, each"
                        + " row group one compact tile (sort-tile-recursive packing). Tiles overlap less than the pieces of a"
                        + " Hilbert curve, so a small query box meets fewer row groups; the cost is the Hilbert Curve's.");

        private final String displayName;
        private final RowOrder order;
        private final String description;

        RowOrderChoice(String displayName, RowOrder order, String description) {
            this.displayName = displayName;
            this.order = order;
            this.description = description;
        }

        RowOrder order() {
            return order;
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

    public static final PropertyDescriptor ROW_ORDER = new PropertyDescriptor.Builder()
            .name("Row Order")
            .description("The order the rows of a compacted partition are written in.")
            .required(true)
            .allowableValues(RowOrderChoice.class)
            .defaultValue(RowOrderChoice.INPUT)
            .build();

    public static final PropertyDescriptor SWEEP_INTERVAL = SweepSchedule.SWEEP_INTERVAL;

    private static final List<PropertyDescriptor> PROPERTY_DESCRIPTORS = List.of(
            ARCHIVE_SERVICE,
            PARTITIONS,
            MIN_FILES,
            TARGET_FILE_SIZE,
            SMALL_FILE_FRACTION,
            MIN_FILE_AGE,
            ROW_ORDER,
            SWEEP_INTERVAL);

    /** The lease a compaction sweep holds (docs/archive-format.md, section 5.12). */
    static final String SWEEP_LEASE = "sweep-compaction";

    public static final Relationship REL_SUCCESS = new Relationship.Builder()
            .name("success")
            .description(
                    "Incoming FlowFiles once their partitions are compacted or found below the threshold; on a sweep, one"
                            + " FlowFile per compacted partition")
            .build();

    public static final Relationship REL_FAILURE = new Relationship.Builder()
            .name("failure")
            .description(
                    "FlowFiles naming a partition that is not a cell of the archive, and those whose compaction needs an"
                            + " operator (a corrupt data file, permission denied, an archived S3 object, a full disk: an error"
                            + " bulletin says what to do, and the processor yields); on a sweep, one FlowFile per partition that"
                            + " failed. The archive is unchanged")
            .build();

    public static final Relationship REL_RETRY = new Relationship.Builder()
            .name("retry")
            .description(
                    "Incoming FlowFiles whose compaction met a transient failure (another writer committed first, the"
                            + " storage throttled, timed out or was unreachable), penalised; the processor yields. Configure"
                            + " retries on this relationship and connect it to where failures go")
            .build();

    private final SweepSchedule sweeps = new SweepSchedule(SWEEP_LEASE);

    private static final Set<Relationship> RELATIONSHIPS = Set.of(REL_SUCCESS, REL_FAILURE, REL_RETRY);

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
        if (context.getProperty(SMALL_FILE_FRACTION).isSet()) {
            double fraction = Double.parseDouble(
                    context.getProperty(SMALL_FILE_FRACTION).getValue().strip());
            if (!(fraction > 0 && fraction <= 1)) {
                results.add(new ValidationResult.Builder()
                        .subject(SMALL_FILE_FRACTION.getDisplayName())
                        .valid(false)
                        .explanation("must be above 0 and at most 1, was " + fraction)
                        .build());
            } else if (context.getProperty(TARGET_FILE_SIZE).isSet()
                    && fraction * context.getProperty(TARGET_FILE_SIZE).asDataSize(DataUnit.B) < 1) {
                results.add(new ValidationResult.Builder()
                        .subject(SMALL_FILE_FRACTION.getDisplayName())
                        .valid(false)
                        .explanation(fraction + " of Target File Size "
                                + context.getProperty(TARGET_FILE_SIZE).getValue()
                                + " is less than one byte, so no file could ever count as small")
                        .build());
            }
        }
        return results;
    }

    /** The overrides set on the processor; the rest comes from the archive. */
    static CompactionOptions optionsOf(PropertyContext context) {
        CompactionOptions options = CompactionOptions.archiveDefaults();
        if (context.getProperty(MIN_FILES).isSet()) {
            options = options.withMinFiles(context.getProperty(MIN_FILES).asInteger());
        }
        if (context.getProperty(TARGET_FILE_SIZE).isSet()) {
            options = options.withTargetFileBytes(
                    context.getProperty(TARGET_FILE_SIZE).asDataSize(DataUnit.B).longValue());
        }
        if (context.getProperty(SMALL_FILE_FRACTION).isSet()) {
            options = options.withSmallFileFraction(Double.parseDouble(
                    context.getProperty(SMALL_FILE_FRACTION).getValue().strip()));
        }
        if (context.getProperty(MIN_FILE_AGE).isSet()) {
            options = options.withMinFileAge(
                    Duration.ofMillis(context.getProperty(MIN_FILE_AGE).asTimePeriod(TimeUnit.MILLISECONDS)));
        }
        return options.withRowOrder(context.getProperty(ROW_ORDER)
                .asAllowableValue(RowOrderChoice.class)
                .order());
    }

    @Override
    public List<ConfigVerificationResult> verify(
            ProcessContext context, ComponentLog verificationLogger, Map<String, String> attributes) {
        List<ConfigVerificationResult> results = new ArrayList<>();
        GeoParquetArchive archive = ProcessorSupport.archiveToVerify(context, ARCHIVE_SERVICE, results);
        if (archive == null) {
            return results;
        }
        try {
            CompactionPolicy policy = optionsOf(context).resolve(archive.descriptor());
            results.add(ProcessorSupport.result(
                    "Compaction policy",
                    Outcome.SUCCESSFUL,
                    "A partition of " + archive + " qualifies with more than "
                            + policy.minFiles() + " files or two files under " + policy.smallFileBytes()
                            + " bytes; files are packed to "
                            + policy.targetFileBytes() + " bytes and must be at least " + policy.minFileAge()
                            + " old"));
        } catch (RuntimeException e) {
            results.add(ProcessorSupport.result("Compaction policy", Outcome.FAILED, ProcessorSupport.describe(e)));
            return results;
        }
        try {
            Compactor compactor = new Compactor(archive, optionsOf(context));
            long qualifying = compactor.planArchive().stream()
                    .filter(plan -> plan.qualifies())
                    .count();
            results.add(ProcessorSupport.result(
                    "Plan", Outcome.SUCCESSFUL, qualifying + " partitions qualify for compaction now"));
        } catch (IOException | RuntimeException e) {
            results.add(ProcessorSupport.result(
                    "Plan", Outcome.FAILED, "Cannot plan the archive's compaction: " + ProcessorSupport.describe(e)));
        }
        return results;
    }

    @OnScheduled
    public void onScheduled() {
        sweeps.reset();
    }

    @Override
    public void onTrigger(ProcessContext context, ProcessSession session) {
        GeoParquetArchive archive = ProcessorSupport.archive(context, ARCHIVE_SERVICE);
        if (context.hasIncomingConnection()) {
            FlowFile flowFile = session.get();
            if (flowFile != null) {
                compactNamed(context, session, archive, flowFile);
            }
        } else {
            sweep(context, session, archive);
        }
    }

    /** Compacts the partitions one FlowFile names, and routes the FlowFile with what happened. */
    private void compactNamed(
            ProcessContext context, ProcessSession session, GeoParquetArchive archive, FlowFile flowFile) {
        String named = context.getProperty(PARTITIONS)
                .evaluateAttributeExpressions(flowFile)
                .getValue();
        List<String> cells;
        try {
            cells = ProcessorSupport.partitions(archive, named);
        } catch (IllegalArgumentException e) {
            route(
                    session,
                    flowFile,
                    REL_FAILURE,
                    "Partitions '" + named + "' do not name cells of the archive: " + e.getMessage());
            return;
        }
        List<PartitionCompaction> results = new ArrayList<>();
        try {
            Compactor compactor = new Compactor(archive, optionsOf(context));
            for (String cell : cells) {
                results.add(compactor.compact(cell));
            }
        } catch (IOException | RuntimeException e) {
            ProcessorSupport.Failure failure =
                    ProcessorSupport.Failure.of("Compacting partitions " + cells + " failed", e);
            Relationship to = failure.retried() ? REL_RETRY : REL_FAILURE;
            failure.log(getLogger(), flowFile, to.getName(), e);
            FlowFile failed = session.putAttribute(flowFile, GeoParquetAttributes.ERROR_MESSAGE, failure.reason());
            session.transfer(failure.retried() ? session.penalize(failed) : failed, to);
            if (failure.yields()) {
                context.yield();
            }
            return;
        }
        FlowFile done = session.putAllAttributes(flowFile, attributesOf(results));
        // The FlowFile's content goes nowhere: the archive was asked to rewrite a partition, a remote invocation.
        for (PartitionCompaction result : results) {
            if (result.compacted()) {
                session.getProvenanceReporter()
                        .invokeRemoteProcess(
                                done,
                                ProcessorSupport.transitUri(archive, ArchiveLayout.partitionDirectory(result.cell())),
                                "Compacted " + result.filesBefore() + " files into " + result.filesAfter());
            }
        }
        session.adjustCounter(
                "Partitions Compacted",
                results.stream().filter(PartitionCompaction::compacted).count(),
                false);
        session.transfer(done, REL_SUCCESS);
    }

    /**
     * When the sweep is due ({@link SweepSchedule}), plans the whole archive and compacts the partitions that qualify;
     * one FlowFile per compacted or failed partition.
     */
    private void sweep(ProcessContext context, ProcessSession session, GeoParquetArchive archive) {
        SweepResult[] swept = new SweepResult[1];
        try {
            if (!sweeps.runIfDue(
                    context,
                    archive,
                    getLogger(),
                    () -> swept[0] = new Compactor(archive, optionsOf(context)).sweep())) {
                context.yield();
                return;
            }
        } catch (IOException | RuntimeException e) {
            ProcessorSupport.Failure failure =
                    ProcessorSupport.Failure.of("Cannot sweep " + archive + " for compaction", e);
            failure.log(getLogger(), archive, "no relationship (the sweep is due again at once)", e);
            context.yield();
            return;
        }
        SweepResult sweep = swept[0];
        for (PartitionCompaction result : sweep.partitions()) {
            if (!result.compacted() && !result.failed()) {
                continue;
            }
            FlowFile flowFile = session.create();
            flowFile = session.write(
                    flowFile, out -> out.write(result.toJson().toString().getBytes(StandardCharsets.UTF_8)));
            Map<String, String> attributes = attributesOf(List.of(result));
            attributes.put(GeoParquetAttributes.H3_CELL, result.cell());
            attributes.put(CoreAttributes.MIME_TYPE.key(), "application/json");
            flowFile = session.putAllAttributes(flowFile, attributes);
            String uri = ProcessorSupport.transitUri(archive, ArchiveLayout.partitionDirectory(result.cell()));
            if (result.failed()) {
                flowFile = session.putAttribute(flowFile, GeoParquetAttributes.ERROR_MESSAGE, result.failureMessage());
                session.getProvenanceReporter().create(flowFile, "Compaction of " + uri + " failed");
                getLogger().error("Compacting partition {} failed", result.cell(), result.failure());
                session.transfer(flowFile, REL_FAILURE);
            } else {
                session.getProvenanceReporter()
                        .create(
                                flowFile,
                                "Compacted " + uri + ": " + result.filesBefore() + " files into "
                                        + result.filesAfter());
                session.transfer(flowFile, REL_SUCCESS);
            }
        }
        session.adjustCounter("Partitions Compacted", sweep.compacted().size(), false);
    }

    private static Map<String, String> attributesOf(List<PartitionCompaction> results) {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put(
                GeoParquetAttributes.COMPACTED,
                String.valueOf(results.stream().anyMatch(PartitionCompaction::compacted)));
        attributes.put(
                GeoParquetAttributes.COMPACTION_FILES_BEFORE,
                String.valueOf(results.stream()
                        .mapToLong(PartitionCompaction::filesBefore)
                        .sum()));
        attributes.put(
                GeoParquetAttributes.COMPACTION_FILES_AFTER,
                String.valueOf(results.stream()
                        .mapToLong(PartitionCompaction::filesAfter)
                        .sum()));
        attributes.put(
                GeoParquetAttributes.COMPACTION_BYTES_READ,
                String.valueOf(results.stream()
                        .mapToLong(PartitionCompaction::bytesRead)
                        .sum()));
        attributes.put(
                GeoParquetAttributes.COMPACTION_BYTES_WRITTEN,
                String.valueOf(results.stream()
                        .mapToLong(PartitionCompaction::bytesWritten)
                        .sum()));
        String skipped = String.join(
                "; ",
                results.stream()
                        .filter(r -> r.skipReason() != null)
                        .map(r -> r.cell() + ": " + r.skipReason())
                        .toList());
        if (!skipped.isEmpty()) {
            attributes.put(GeoParquetAttributes.COMPACTION_SKIP_REASON, skipped);
        }
        attributes.putAll(StorageCostAttributes.of(
                GeoParquetAttributes.COMPACTION_STORAGE,
                results.stream().map(PartitionCompaction::cost).reduce(StorageCost.NONE, StorageCost::plus)));
        return attributes;
    }

    private void route(ProcessSession session, FlowFile flowFile, Relationship relationship, String message) {
        getLogger().error("{}: {}; routing to {}", flowFile, message, relationship.getName());
        session.transfer(session.putAttribute(flowFile, GeoParquetAttributes.ERROR_MESSAGE, message), relationship);
    }
}
