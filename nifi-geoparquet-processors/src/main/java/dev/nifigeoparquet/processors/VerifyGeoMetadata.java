package dev.nifigeoparquet.processors;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.storage.StorageMeter;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.CommittedOperation;
import dev.nifigeoparquet.archive.verify.Problem;
import dev.nifigeoparquet.archive.verify.ProblemKind;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.apache.nifi.annotation.behavior.InputRequirement;
import org.apache.nifi.annotation.behavior.InputRequirement.Requirement;
import org.apache.nifi.annotation.behavior.ReadsAttribute;
import org.apache.nifi.annotation.behavior.ReadsAttributes;
import org.apache.nifi.annotation.behavior.Restricted;
import org.apache.nifi.annotation.behavior.Restriction;
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
import org.apache.nifi.components.ValidationResult;
import org.apache.nifi.expression.AttributeExpression;
import org.apache.nifi.expression.ExpressionLanguageScope;
import org.apache.nifi.flowfile.FlowFile;
import org.apache.nifi.flowfile.attributes.CoreAttributes;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.processor.AbstractProcessor;
import org.apache.nifi.processor.ProcessContext;
import org.apache.nifi.processor.ProcessSession;
import org.apache.nifi.processor.Relationship;
import org.apache.nifi.processor.VerifiableProcessor;
import org.apache.nifi.processor.util.StandardValidators;

@InputRequirement(Requirement.INPUT_ALLOWED)
@Tags({"geoparquet", "parquet", "h3", "verify", "validate", "metadata", "crs", "audit", "archive"})
@CapabilityDescription("Verifies a GeoParquet archive: every live data file's 'geo' footer entry byte for"
        + " byte against the archive's canonical block (with a JSON-level diff when it differs), its CRS, its Parquet schema and"
        + " its other canonical footer entries; the files against the partition's commit log (missing, unpublished, superseded,"
        + " untracked, truncated or corrupt files, row counts); feature key uniqueness; and the row count against an expected"
        + " count. With an incoming connection it verifies the partitions each FlowFile names and reconciles the row count with"
        + " what UpsertGeoParquetPartition reported; when the only problems found are a commit whose publishing a stopped"
        + " writer left unfinished, it publishes those partitions as their next writer would and verifies again (its only"
        + " change to the archive). Without an incoming connection it verifies the whole archive on its schedule and changes"
        + " nothing. The JSON report becomes the FlowFile's content.")
@ReadsAttributes({
    @ReadsAttribute(
            attribute = GeoParquetAttributes.COMMITS,
            description = "With " + GeoParquetAttributes.OPERATION_ID
                    + " and " + GeoParquetAttributes.ROWS_NET
                    + ", when Expected Row Count is empty: the commit entries the upsert"
                    + " created, from which its row counts are reconciled"),
    @ReadsAttribute(attribute = GeoParquetAttributes.OPERATION_ID, description = "See " + GeoParquetAttributes.COMMITS),
    @ReadsAttribute(attribute = GeoParquetAttributes.ROWS_NET, description = "See " + GeoParquetAttributes.COMMITS)
})
@WritesAttributes({
    @WritesAttribute(
            attribute = GeoParquetAttributes.GEO_CONSISTENT,
            description = "true when verification found no problem of any kind (the FlowFile went to valid)"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.GEO_CRS,
            description = "The archive's CRS in short form, e.g. OGC:CRS84 or EPSG:4326"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ARCHIVE_ROW_COUNT,
            description = "Rows the verified partitions hold according to their"
                    + " commit logs (the whole archive on a sweep)"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.PARTITIONS_CHECKED,
            description = "How many partitions were verified"),
    @WritesAttribute(attribute = GeoParquetAttributes.FILES_CHECKED, description = "How many data files were verified"),
    @WritesAttribute(attribute = GeoParquetAttributes.GEO_PROBLEMS, description = "How many problems were found"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ARCHIVE_ROW_COUNT_EXPECTED,
            description = "The expected row count reconciled against, when any"),
    @WritesAttribute(
            attribute = GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.PUT_COUNT,
            description = StorageCostAttributes.PUT_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.GET_COUNT,
            description = StorageCostAttributes.GET_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.LIST_COUNT,
            description = StorageCostAttributes.LIST_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.DELETE_COUNT,
            description = StorageCostAttributes.DELETE_COUNT_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.BYTES_UPLOADED,
            description = StorageCostAttributes.BYTES_UPLOADED_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.BYTES_DOWNLOADED,
            description = StorageCostAttributes.BYTES_DOWNLOADED_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.OBJECTS_DELETED,
            description = StorageCostAttributes.OBJECTS_DELETED_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.YOUNGEST_DELETED_AGE,
            description = StorageCostAttributes.YOUNGEST_DELETED_AGE_DESCRIPTION),
    @WritesAttribute(
            attribute = GeoParquetAttributes.ERROR_MESSAGE,
            description = "On failure: why verification could not run"),
    @WritesAttribute(attribute = "mime.type", description = "application/json")
})
@SeeAlso(
        classNames = {
            "dev.nifigeoparquet.processors.UpsertGeoParquetPartition",
            "dev.nifigeoparquet.processors.CompactGeoParquetPartition",
            "dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService"
        })
@Restricted(
        restrictions = {
            @Restriction(
                    requiredPermission = RequiredPermission.READ_FILESYSTEM,
                    explanation = "Reads the commit logs and every data file of the partitions verified.")
        })
@UseCase(
        description =
                "Check after each upsert that the partitions written still carry the archive's exact GeoParquet metadata and the expected rows.",
        keywords = {"verify", "after upsert", "reconcile", "row count", "geo metadata"},
        configuration = """
                Connect UpsertGeoParquetPartition's "success" (or CompactGeoParquetPartition's) here and select the same \
                GeoParquet Archive Service. Leave "Partitions" and "Expected Row Count" at their defaults: the partitions the \
                upsert touched are verified, and their rows are reconciled from the commit records: the upsert's own commits \
                must add up to its net delta, and every commit since must explain the rows the partitions hold now, however \
                other FlowFiles, tasks or nodes interleaved.
                Route "invalid" to an alert: its content is the JSON report, each problem naming its file.
                """)
@UseCase(
        description = "Audit the whole archive every night, for example before a downstream export.",
        keywords = {"audit", "nightly", "whole archive", "schedule", "crs"},
        configuration = """
                Add the processor with no incoming connection, schedule it with CRON driven scheduling, and in a cluster set \
                Execution to "Primary node". Set "Expected Row Count" to a parameter such as #{expected.rows} when the total is \
                known, or leave it empty.
                "valid" and "invalid" FlowFiles carry geo.consistent, geo.crs, archive.row.count and partitions.checked.
                """)
public class VerifyGeoMetadata extends AbstractProcessor implements VerifiableProcessor {

    public static final PropertyDescriptor ARCHIVE_SERVICE =
            ProcessorSupport.archiveServiceProperty("The archive to verify.", true);

    public static final PropertyDescriptor PARTITIONS =
            ProcessorSupport.partitionsProperty("With an incoming connection: the"
                    + " comma-separated H3 cells to verify for each FlowFile. The default takes the partitions UpsertGeoParquetPartition"
                    + " touched, or the FlowFile's h3.cell. Each is validated as a canonical cell of the archive's resolution. Ignored"
                    + " without an incoming connection, when the whole archive is verified.");

    public static final PropertyDescriptor EXPECTED_ROW_COUNT = new PropertyDescriptor.Builder()
            .name("Expected Row Count")
            .description(
                    "The rows the verified partitions (the whole archive on a sweep) must hold. Empty: with an incoming"
                            + " FlowFile from UpsertGeoParquetPartition (it carries " + GeoParquetAttributes.COMMITS
                            + "), the rows"
                            + " are reconciled from the commit records instead: the upsert's commits add up to its net delta ("
                            + GeoParquetAttributes.ROWS_NET
                            + "), and each commit since explains the row count it left, so other"
                            + " writers interleaving cannot cause a false alarm. Otherwise the count is not reconciled.")
            .required(false)
            .expressionLanguageSupported(ExpressionLanguageScope.FLOWFILE_ATTRIBUTES)
            .addValidator(StandardValidators.createAttributeExpressionLanguageValidator(
                    AttributeExpression.ResultType.STRING, true))
            .build();

    public static final PropertyDescriptor PLACEMENT_CHECK = new PropertyDescriptor.Builder()
            .name("Placement Check")
            .description(
                    "Whether to key rows again and report rows outside the partition of their geometry's H3 cell"
                            + " (MISPLACED_ROW) or without a keyable geometry (UNKEYABLE_ROW): 'none', 'all' (every row of the verified"
                            + " partitions; it decodes every geometry), or a number N (a sample of about N rows spread evenly).")
            .required(true)
            .defaultValue("none")
            .addValidator((subject, value, context) -> {
                boolean valid;
                try {
                    valid = placementOf(value) != null;
                } catch (IllegalArgumentException e) {
                    valid = false;
                }
                return new ValidationResult.Builder()
                        .subject(subject)
                        .input(value)
                        .valid(valid)
                        .explanation("must be 'none', 'all' or a positive number of rows")
                        .build();
            })
            .build();

    public static final PropertyDescriptor SWEEP_INTERVAL = SweepSchedule.SWEEP_INTERVAL;

    private static final List<PropertyDescriptor> PROPERTY_DESCRIPTORS =
            List.of(ARCHIVE_SERVICE, PARTITIONS, EXPECTED_ROW_COUNT, PLACEMENT_CHECK, SWEEP_INTERVAL);

    /** The lease a verification of the whole archive holds (docs/archive-format.md, section 5.12). */
    static final String SWEEP_LEASE = "sweep-verification";

    private final SweepSchedule sweeps = new SweepSchedule(SWEEP_LEASE);

    /** The placement check a property value asks for. */
    static VerifyOptions.Placement placementOf(String value) {
        return VerifyOptions.Placement.parse(value);
    }

    public static final Relationship REL_VALID = new Relationship.Builder()
            .name("valid")
            .description("Verification found no problem; the content is the JSON report")
            .build();

    public static final Relationship REL_INVALID = new Relationship.Builder()
            .name("invalid")
            .description("Verification found problems; the content is the JSON report, problems listed per file")
            .build();

    public static final Relationship REL_FAILURE = new Relationship.Builder()
            .name("failure")
            .description(
                    "Verification could not run: the FlowFile named a cell that is not a partition of the archive or an"
                            + " expected count that is not a number, or the archive needs an operator (permission denied, an"
                            + " archived S3 object, damaged metadata: an error bulletin says what to do, and the processor"
                            + " yields). The content is unchanged. A transient failure (the storage throttled, timed out or was"
                            + " unreachable) puts the FlowFile back in its queue, penalised, instead")
            .build();

    private static final Set<Relationship> RELATIONSHIPS = Set.of(REL_VALID, REL_INVALID, REL_FAILURE);

    @Override
    protected List<PropertyDescriptor> getSupportedPropertyDescriptors() {
        return PROPERTY_DESCRIPTORS;
    }

    @Override
    public Set<Relationship> getRelationships() {
        return RELATIONSHIPS;
    }

    @Override
    public List<ConfigVerificationResult> verify(
            ProcessContext context, ComponentLog verificationLogger, Map<String, String> attributes) {
        List<ConfigVerificationResult> results = new ArrayList<>();
        try {
            GeoParquetArchive archive = ProcessorSupport.archive(context, ARCHIVE_SERVICE);
            List<String> cells = archive.partitionCells();
            results.add(ProcessorSupport.result(
                    "Archive",
                    Outcome.SUCCESSFUL,
                    archive + " holds " + cells.size() + " partitions in " + archive.sourceCrs()));
        } catch (IOException | RuntimeException e) {
            results.add(ProcessorSupport.result(
                    "Archive",
                    Outcome.FAILED,
                    "Cannot list the archive's partitions: " + ProcessorSupport.describe(e)));
        }
        return results;
    }

    @OnScheduled
    public void onScheduled() {
        sweeps.reset();
    }

    /**
     * Routes a verification that could not run by the failure's kind: a transient one back to the queue, penalised (or,
     * on a sweep, due again at once), anything else to failure; the processor yields unless the FlowFile was the
     * trouble.
     */
    private void fail(
            ProcessContext context, ProcessSession session, GeoParquetArchive archive, FlowFile flowFile, Exception e) {
        ProcessorSupport.Failure failure = ProcessorSupport.Failure.of("Cannot verify " + archive, e);
        if (flowFile == null) {
            failure.log(getLogger(), archive, "no relationship (the sweep is due again at once)", e);
        } else if (failure.retried()) {
            failure.log(getLogger(), flowFile, "its queue, penalised", e);
            session.rollback(true);
        } else {
            failure.log(getLogger(), flowFile, REL_FAILURE.getName(), e);
            session.transfer(
                    session.putAttribute(flowFile, GeoParquetAttributes.ERROR_MESSAGE, failure.reason()), REL_FAILURE);
        }
        if (failure.yields()) {
            context.yield();
        }
    }

    @Override
    public void onTrigger(ProcessContext context, ProcessSession session) {
        GeoParquetArchive archive = ProcessorSupport.archive(context, ARCHIVE_SERVICE);
        if (!context.hasIncomingConnection()) {
            sweep(context, session, archive);
            return;
        }
        FlowFile flowFile = session.get();
        if (flowFile == null) {
            return;
        }
        try {
            VerifyOptions options = optionsFor(context, archive, flowFile);
            StorageMeter.Measured<VerificationReport> measured =
                    StorageMeter.measure(() -> verifyAfterWrite(archive, options));
            emit(session, archive, flowFile, options, measured);
        } catch (IOException | RuntimeException e) {
            fail(context, session, archive, flowFile, e);
        }
    }

    /**
     * Verifies the partitions a write touched. A partition whose only problems are an unfinished publishing (a writer
     * on this or another node stopped between its commit and its publishing, format section 5.6) is published as its
     * next writer would publish it, and verified again: the write being verified is committed, and quarantining its
     * report would stop the night for another writer's crash. The sweep reports such a partition as it finds it.
     */
    private VerificationReport verifyAfterWrite(GeoParquetArchive archive, VerifyOptions options) throws IOException {
        ArchiveVerifier verifier = new ArchiveVerifier(archive);
        VerificationReport report = verifier.verify(options);
        if (report.consistent()
                || options.wholeArchiveSelected()
                || !report.problems().stream()
                        .allMatch(problem -> problem.kind().publishingUnfinished())) {
            return report;
        }
        Set<String> finished = archive.finishPublishing(options.cells());
        getLogger()
                .info("Finished the publishing that a stopped writer left in partitions {} of {}", finished, archive);
        return verifier.verify(options);
    }

    /** Verifies the whole archive when its sweep is due ({@link SweepSchedule}), one report FlowFile per sweep. */
    private void sweep(ProcessContext context, ProcessSession session, GeoParquetArchive archive) {
        try {
            boolean ran = sweeps.runIfDue(context, archive, getLogger(), () -> {
                VerifyOptions options = optionsFor(context, archive, null);
                emit(
                        session,
                        archive,
                        null,
                        options,
                        StorageMeter.measure(() -> new ArchiveVerifier(archive).verify(options)));
            });
            if (!ran) {
                context.yield();
            }
        } catch (IOException | RuntimeException e) {
            fail(context, session, archive, null, e);
        }
    }

    /** The report as the FlowFile's content and attributes, to valid or invalid. */
    private void emit(
            ProcessSession session,
            GeoParquetArchive archive,
            FlowFile flowFile,
            VerifyOptions options,
            StorageMeter.Measured<VerificationReport> measured) {
        VerificationReport report = measured.result();
        FlowFile output = flowFile == null ? session.create() : flowFile;
        byte[] json = reportJson(report).toPrettyString().getBytes(StandardCharsets.UTF_8);
        output = session.write(output, out -> out.write(json));
        output = session.putAllAttributes(output, attributesOf(report));
        output = session.putAllAttributes(
                output, StorageCostAttributes.of(GeoParquetAttributes.VERIFICATION_STORAGE, measured.cost()));
        if (flowFile == null) {
            session.getProvenanceReporter()
                    .create(output, "Verified " + report.partitions() + " partitions of " + archive);
        } else {
            session.getProvenanceReporter().modifyContent(output, "Verified partitions " + options.cells());
        }
        if (!report.consistent()) {
            getLogger().warn("{} is not consistent: {}", archive, problemSummary(report));
        }
        session.transfer(output, report.consistent() ? REL_VALID : REL_INVALID);
    }

    /**
     * What an operator reads in the bulletin: each kind of problem with its count and its first instance, so the kind
     * says what to look at before the report is opened.
     */
    static String problemSummary(VerificationReport report) {
        Map<ProblemKind, List<Problem>> byKind = new TreeMap<>();
        report.problems()
                .forEach(problem -> byKind.computeIfAbsent(problem.kind(), kind -> new ArrayList<>())
                        .add(problem));
        List<String> kinds = new ArrayList<>();
        byKind.forEach((kind, problems) -> kinds.add(kind + " x" + problems.size() + " (first: "
                + problems.get(0).file() + ": " + problems.get(0).message() + ")"));
        return report.problems().size() + " problems in " + report.partitions() + " partitions: "
                + String.join("; ", kinds);
    }

    /** What to verify for this FlowFile (or, without one, the whole archive) and the row count to expect. */
    private static VerifyOptions optionsFor(ProcessContext context, GeoParquetArchive archive, FlowFile flowFile) {
        VerifyOptions options = VerifyOptions.wholeArchive();
        if (flowFile != null) {
            String named = context.getProperty(PARTITIONS)
                    .evaluateAttributeExpressions(flowFile)
                    .getValue();
            options = VerifyOptions.partitions(ProcessorSupport.partitions(archive, named));
        }
        options = options.checkingPlacement(
                placementOf(context.getProperty(PLACEMENT_CHECK).getValue()));
        OptionalLong expected = expectedRows(context, flowFile);
        if (expected.isPresent()) {
            return options.expectingRows(expected.getAsLong());
        }
        CommittedOperation committed = flowFile == null ? null : committedOperation(flowFile);
        return committed == null ? options : options.reconciling(List.of(committed));
    }

    private static OptionalLong expectedRows(ProcessContext context, FlowFile flowFile) {
        String configured = flowFile == null
                ? context.getProperty(EXPECTED_ROW_COUNT)
                        .evaluateAttributeExpressions()
                        .getValue()
                : context.getProperty(EXPECTED_ROW_COUNT)
                        .evaluateAttributeExpressions(flowFile)
                        .getValue();
        if (configured != null && !configured.isBlank()) {
            return OptionalLong.of(parseCount(EXPECTED_ROW_COUNT.getDisplayName(), configured));
        }
        return OptionalLong.empty();
    }

    /** The upsert a FlowFile reports, to reconcile from its commits; null when it reports none (a replay, or no upsert). */
    private static CommittedOperation committedOperation(FlowFile flowFile) {
        String commits = flowFile.getAttribute(GeoParquetAttributes.COMMITS);
        String operation = flowFile.getAttribute(GeoParquetAttributes.OPERATION_ID);
        String net = flowFile.getAttribute(GeoParquetAttributes.ROWS_NET);
        if (commits == null || commits.isBlank() || operation == null || operation.isBlank() || net == null) {
            return null;
        }
        try {
            // A batch of deltas committed together is recorded under all their ids; any one of them finds its record.
            return new CommittedOperation(
                    operation.split(",", -1)[0].strip(),
                    CommittedOperation.parseCommits(commits),
                    Long.parseLong(net.strip()));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    GeoParquetAttributes.ROWS_NET + " is not a whole number: '" + net + "'", e);
        }
    }

    private static long parseCount(String what, String value) {
        try {
            long count = Long.parseLong(value.strip());
            if (count < 0) {
                throw new IllegalArgumentException(what + " must not be negative, was " + count);
            }
            return count;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + " is not a whole number: '" + value + "'", e);
        }
    }

    /** The engine's report with its problems also grouped by file, for readers who start from a file. */
    static ObjectNode reportJson(VerificationReport report) {
        ObjectNode json = report.toJson();
        Map<String, List<Problem>> byFile = new LinkedHashMap<>();
        report.problems()
                .forEach(problem -> byFile.computeIfAbsent(problem.file(), file -> new ArrayList<>())
                        .add(problem));
        ObjectNode files = json.putObject("problemsByFile");
        byFile.forEach((file, problems) -> {
            ArrayNode list = files.putArray(file);
            problems.forEach(problem -> list.add(problem.toJson()));
        });
        return json;
    }

    private static Map<String, String> attributesOf(VerificationReport report) {
        Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put(GeoParquetAttributes.GEO_CONSISTENT, String.valueOf(report.consistent()));
        attributes.put(GeoParquetAttributes.GEO_CRS, report.crs());
        attributes.put(GeoParquetAttributes.ARCHIVE_ROW_COUNT, String.valueOf(report.rows()));
        attributes.put(GeoParquetAttributes.PARTITIONS_CHECKED, String.valueOf(report.partitions()));
        attributes.put(GeoParquetAttributes.FILES_CHECKED, String.valueOf(report.files()));
        attributes.put(
                GeoParquetAttributes.GEO_PROBLEMS,
                String.valueOf(report.problems().size()));
        report.expectedRows()
                .ifPresent(expected ->
                        attributes.put(GeoParquetAttributes.ARCHIVE_ROW_COUNT_EXPECTED, String.valueOf(expected)));
        attributes.put(CoreAttributes.MIME_TYPE.key(), "application/json");
        return attributes;
    }
}
