package dev.nifigeoparquet.processors.service;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.adoption.AdoptionOptions;
import dev.nifigeoparquet.archive.adoption.AdoptionReport;
import dev.nifigeoparquet.archive.adoption.ArchiveAdopter;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.error.ArchiveNotFoundException;
import dev.nifigeoparquet.archive.error.FailureKind;
import dev.nifigeoparquet.archive.error.LeaseUnavailableException;
import dev.nifigeoparquet.archive.error.StorageTlsException;
import dev.nifigeoparquet.archive.format.AdoptionRecord;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.s3.S3ArchiveStorage;
import dev.nifigeoparquet.archive.s3.S3Location;
import dev.nifigeoparquet.archive.s3.S3StorageSettings;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import dev.nifigeoparquet.processors.migration.StoredChoices;
import dev.nifigeoparquet.services.GeoParquetArchiveService;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.nifi.annotation.behavior.Restricted;
import org.apache.nifi.annotation.behavior.Restriction;
import org.apache.nifi.annotation.documentation.CapabilityDescription;
import org.apache.nifi.annotation.documentation.SeeAlso;
import org.apache.nifi.annotation.documentation.Tags;
import org.apache.nifi.annotation.documentation.UseCase;
import org.apache.nifi.annotation.lifecycle.OnDisabled;
import org.apache.nifi.annotation.lifecycle.OnEnabled;
import org.apache.nifi.components.ConfigVerificationResult;
import org.apache.nifi.components.ConfigVerificationResult.Outcome;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.components.RequiredPermission;
import org.apache.nifi.components.ValidationContext;
import org.apache.nifi.components.ValidationResult;
import org.apache.nifi.context.PropertyContext;
import org.apache.nifi.controller.AbstractControllerService;
import org.apache.nifi.controller.ConfigurationContext;
import org.apache.nifi.controller.VerifiableControllerService;
import org.apache.nifi.expression.ExpressionLanguageScope;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.migration.PropertyConfiguration;
import org.apache.nifi.processor.util.StandardValidators;
import org.apache.nifi.reporting.InitializationException;
import org.apache.parquet.io.LocalInputFile;

@Tags({"geoparquet", "parquet", "archive", "h3", "geospatial", "partition"})
@CapabilityDescription(
        "Opens one H3-partitioned GeoParquet archive (<root>/h3_cell=<cell>/*.parquet) when enabled and shares it"
                + " with the processors that use it, with its pinned settings: the H3 resolution, the CRS, the geometry column, the schema and"
                + " the canonical footer ('geo' among it). The archive descriptor is read once; processors never re-read a file for these settings."
                + " A root that holds GeoParquet partitions written by another tool can be adopted, and a missing archive can be created from a"
                + " template GeoParquet file. Writers of one partition inside this NiFi node take turns through the engine's per-partition lock.")
@SeeAlso(classNames = {"dev.nifigeoparquet.processors.RouteByH3Cell"})
@Restricted(
        restrictions = {
            @Restriction(
                    requiredPermission = RequiredPermission.READ_FILESYSTEM,
                    explanation =
                            "Reads the archive descriptor, commit logs and data files under the Archive Root Directory, and the Template GeoParquet File."),
            @Restriction(
                    requiredPermission = RequiredPermission.WRITE_FILESYSTEM,
                    explanation =
                            "Creates or adopts an archive under the Archive Root Directory, writing its descriptor and commit logs.")
        })
@UseCase(
        description =
                "Point a flow at an existing H3-partitioned GeoParquet archive and make sure it is the one the flow was built for.",
        keywords = {"geoparquet", "archive", "h3", "resolution", "open"},
        configuration = """
                Set "Archive Root Directory" to the directory that holds the h3_cell=<cell> partition folders, for example \
                #{archive.root} from a Parameter Context, so that test and production flows differ only in their parameters.
                Set "Allowed Archive Roots" to the base directory your administrators allow archives in, for example /data/archives. \
                A root outside it makes the service invalid before it can be enabled.
                Set "H3 Resolution" to the resolution the flow expects, for example 7. If the archive was pinned at another \
                resolution, the service is invalid and says both numbers, instead of routing features to the wrong cells.
                Leave "Missing Archive Strategy" at "Require Existing Archive".
                Run "Verify Properties" before enabling: it reports the archive found, its resolution, CRS and any warning.
                """)
@UseCase(
        description = "Start managing a partitioned GeoParquet dataset that GeoPandas, pyarrow or DuckDB wrote.",
        keywords = {"adopt", "geopandas", "pyarrow", "duckdb", "existing"},
        configuration = """
                Set "Archive Root Directory" to the dataset's root, whose folders are named h3_cell=<cell>.
                Set "Missing Archive Strategy" to "Adopt Existing Partitions" and "Key Columns" to the column(s) that identify a \
                feature, for example id. Set "H3 Resolution" to the resolution the cell names should have; adoption refuses a \
                dataset whose cells disagree with it.
                Enable the service. Adoption runs once and records the archive's settings; bulletins report what it had to derive \
                (for example when the files carry different per-file bbox values in their geo metadata).
                """)
public class StandardGeoParquetArchiveService extends AbstractControllerService
        implements GeoParquetArchiveService, VerifiableControllerService {

    public static final PropertyDescriptor ARCHIVE_STORAGE = S3StorageProperties.ARCHIVE_STORAGE;

    public static final PropertyDescriptor ARCHIVE_ROOT = new PropertyDescriptor.Builder()
            .name("Archive Root Directory")
            .description(
                    "The directory that holds the archive: its h3_cell=<cell> partition folders and its _geoparquet_archive folder;"
                            + " or an object-store location s3://bucket/prefix (with Archive Storage set to S3), configured with the S3 properties."
                            + " Expression Language sees parameters and environment variables only; FlowFile attributes are not available to a"
                            + " controller service.")
            .required(true)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .build();

    public static final PropertyDescriptor ALLOWED_ROOTS = new PropertyDescriptor.Builder()
            .name("Allowed Archive Roots")
            .description(
                    "Comma-separated base directories the Archive Root Directory must lie under (after resolving '..' and symbolic"
                            + " links); for an s3:// root, s3://bucket/prefix bases it must start with. Leave empty to allow any directory the NiFi user can write.")
            .required(false)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .build();

    public static final PropertyDescriptor H3_RESOLUTION = new PropertyDescriptor.Builder()
            .name("H3 Resolution")
            .description(
                    "The H3 resolution (0 to 15) the flow expects. An existing archive must be pinned at exactly this resolution,"
                            + " otherwise the service is invalid. Required to create an archive; checked against the cell names when adopting."
                            + " Leave empty to accept the archive's pinned resolution.")
            .required(false)
            .addValidator(StandardValidators.createLongValidator(0, 15, true))
            .build();

    public static final PropertyDescriptor MISSING_ARCHIVE_STRATEGY = new PropertyDescriptor.Builder()
            .name("Missing Archive Strategy")
            .description("What to do when the Archive Root Directory holds no archive descriptor.")
            .required(true)
            .allowableValues(MissingArchiveStrategy.class)
            .defaultValue(MissingArchiveStrategy.FAIL)
            .build();

    public static final PropertyDescriptor TEMPLATE_FILE = new PropertyDescriptor.Builder()
            .name("Template GeoParquet File")
            .description(
                    "A GeoParquet file whose schema and footer metadata (the geo block among them) every data file of the new archive"
                            + " will carry. Only its footer is read. A file-level bbox in its geo block (GeoPandas writes one) is left out,"
                            + " and reported as a warning.")
            .required(true)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(MISSING_ARCHIVE_STRATEGY, MissingArchiveStrategy.CREATE)
            .build();

    public static final PropertyDescriptor KEY_COLUMNS = new PropertyDescriptor.Builder()
            .name("Key Columns")
            .description(
                    "Comma-separated column(s) whose values identify a feature, used by upserts and deletes. Leave empty for an"
                            + " append-only archive.")
            .required(false)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(MISSING_ARCHIVE_STRATEGY, MissingArchiveStrategy.CREATE, MissingArchiveStrategy.ADOPT)
            .build();

    public static final PropertyDescriptor VERSION_COLUMN = new PropertyDescriptor.Builder()
            .name("Version Column")
            .description(
                    "Optional column holding a feature's version; an upsert keeps the row with the higher version.")
            .required(false)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(MISSING_ARCHIVE_STRATEGY, MissingArchiveStrategy.CREATE, MissingArchiveStrategy.ADOPT)
            .build();

    /**
     * Properties of earlier versions that no component used: {@link #migrateProperties} drops them from flows that still
     * set them.
     */
    static final List<String> REMOVED_PROPERTIES =
            List.of("Partition State Cache Size", "Partition State Cache Expiration");

    public static final PropertyDescriptor WORKER_THREADS = new PropertyDescriptor.Builder()
            .name("Worker Threads")
            .description(
                    "How many threads an operation on the archive uses for its independent parts: scanning the keys of and rewriting"
                            + " the partitions a run of UpsertGeoParquetPartition changes (compaction does not use them yet). Every processor"
                            + " using this service shares these threads, so two concurrent tasks never run more of them. Leave empty for one per"
                            + " core available to NiFi; 1 does everything on the task's own thread.")
            .required(false)
            .addValidator(StandardValidators.POSITIVE_INTEGER_VALIDATOR)
            .build();

    private static final List<PropertyDescriptor> PROPERTY_DESCRIPTORS = Stream.concat(
                    Stream.of(
                            ARCHIVE_STORAGE,
                            ARCHIVE_ROOT,
                            ALLOWED_ROOTS,
                            H3_RESOLUTION,
                            MISSING_ARCHIVE_STRATEGY,
                            TEMPLATE_FILE,
                            KEY_COLUMNS,
                            VERSION_COLUMN,
                            WORKER_THREADS),
                    S3StorageProperties.PROPERTIES.stream())
            .toList();

    /** The archive an enabled service serves, opened once. */
    private record Opened(GeoParquetArchive archive) {
        void close() {
            if (archive.storage() instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception ignored) {
                    // the connection pool is released either way
                }
            }
        }
    }

    private volatile Opened opened;

    @Override
    protected List<PropertyDescriptor> getSupportedPropertyDescriptors() {
        return PROPERTY_DESCRIPTORS;
    }

    @Override
    public void migrateProperties(PropertyConfiguration config) {
        REMOVED_PROPERTIES.forEach(config::removeProperty);
        StoredChoices.migrateConstantName(config, MISSING_ARCHIVE_STRATEGY, MissingArchiveStrategy.class);
        // Flows from before Archive Storage told S3 from local storage by the root alone.
        if (!config.hasProperty(ARCHIVE_STORAGE.getName())
                && config.getPropertyValue(ARCHIVE_ROOT.getName())
                        .filter(S3Location::isS3)
                        .isPresent()) {
            config.setProperty(ARCHIVE_STORAGE.getName(), ArchiveStorageType.S3.getValue());
        }
        // Flows from before S3 Authentication Strategy took keys when they were set, the default chain otherwise.
        if (!config.hasProperty(S3StorageProperties.AUTHENTICATION_STRATEGY.getName())
                && config.isPropertySet(S3StorageProperties.ACCESS_KEY_ID.getName())) {
            config.setProperty(
                    S3StorageProperties.AUTHENTICATION_STRATEGY.getName(),
                    S3AuthenticationStrategy.ACCESS_KEYS.getValue());
        }
    }

    @Override
    protected Collection<ValidationResult> customValidate(ValidationContext context) {
        List<ValidationResult> results = new ArrayList<>();
        String root =
                context.getProperty(ARCHIVE_ROOT).evaluateAttributeExpressions().getValue();
        boolean onS3 = context.getProperty(ARCHIVE_STORAGE).asAllowableValue(ArchiveStorageType.class)
                == ArchiveStorageType.S3;
        if (root != null && S3Location.isS3(root) != onS3) {
            results.add(new ValidationResult.Builder()
                    .subject(ARCHIVE_STORAGE.getDisplayName())
                    .valid(false)
                    .explanation(
                            onS3
                                    ? "Archive Storage is '" + ArchiveStorageType.S3.getDisplayName()
                                            + "' but Archive Root Directory " + root + " is not an s3://bucket/prefix"
                                            + " location"
                                    : "Archive Root Directory " + root + " is on S3: set Archive Storage to '"
                                            + ArchiveStorageType.S3.getDisplayName() + "'")
                    .build());
            return results;
        }
        if (S3Location.isS3(root)) {
            try {
                S3Location.parse(root);
            } catch (IllegalArgumentException e) {
                results.add(new ValidationResult.Builder()
                        .subject(ARCHIVE_ROOT.getDisplayName())
                        .valid(false)
                        .explanation(e.getMessage())
                        .build());
                return results;
            }
        }
        Settings settings;
        try {
            settings = Settings.of(context);
        } catch (RuntimeException e) {
            return results; // a property's own validator already explains the bad value
        }
        // Validation runs often: an object store is only contacted by Verify Properties and when enabling.
        for (Finding finding : inspect(settings, settings.s3() == null)) {
            if (finding.outcome() == Outcome.FAILED) {
                results.add(new ValidationResult.Builder()
                        .subject(finding.step())
                        .valid(false)
                        .explanation(finding.explanation())
                        .build());
            }
        }
        return results;
    }

    @Override
    public List<ConfigVerificationResult> verify(
            ConfigurationContext context, ComponentLog verificationLogger, Map<String, String> variables) {
        Settings configured = Settings.of(context);
        Settings settings;
        try {
            settings = configured.connecting(context);
        } catch (RuntimeException e) {
            return List.of(verificationResult(new Finding(
                    STEP_SSL_CONTEXT,
                    Outcome.FAILED,
                    "The SSL Context Service gives no trust material (is it enabled?): " + e.getMessage())));
        }
        return inspect(settings, true).stream()
                .map(StandardGeoParquetArchiveService::verificationResult)
                .toList();
    }

    private static ConfigVerificationResult verificationResult(Finding finding) {
        return new ConfigVerificationResult.Builder()
                .verificationStepName(finding.step())
                .outcome(finding.outcome())
                .explanation(finding.explanation())
                .build();
    }

    @OnEnabled
    public void onEnabled(ConfigurationContext context) throws InitializationException {
        Settings settings = Settings.of(context).connecting(context);
        List<String> warnings = new ArrayList<>();
        GeoParquetArchive archive;
        try {
            archive = openOrInitialise(settings, warnings);
        } catch (LeaseUnavailableException adoptingElsewhere) {
            // Another node of the cluster adopts the directory right now; NiFi enables the service again shortly, and
            // then
            // finds the archive adopted.
            throw new InitializationException(
                    "Not enabled yet: " + adoptingElsewhere.getMessage() + "; NiFi retries enabling the service",
                    adoptingElsewhere);
        } catch (IOException | RuntimeException e) {
            // Validation catches configuration mistakes first; what is left here is the archive changing under us.
            String advice = FailureKind.adviceFor(e);
            throw new InitializationException(
                    "Cannot open the GeoParquet archive at " + settings.location() + ": " + e.getMessage()
                            + (advice == null ? "" : ". " + advice),
                    e);
        }
        if (settings.resolution() != null && settings.resolution() != archive.h3Resolution()) {
            throw new InitializationException(
                    "H3 Resolution " + settings.resolution() + " does not match the resolution "
                            + archive.h3Resolution() + " pinned by the archive at " + settings.location());
        }
        if (settings.threads() != null) {
            archive.useThreads(settings.threads());
        }
        archive.sourceCrs().conformanceWarning().ifPresent(warnings::add);
        AdoptionRecord adoption = archive.descriptor().adoption();
        if (adoption != null) {
            adoption.warnings().stream().filter(w -> !warnings.contains(w)).forEach(warnings::add);
            if (adoption.canonicalDerived()) {
                warnings.add("The archive's canonical geo block was derived at adoption, not copied from a file: "
                        + String.join("; ", adoption.derivation()));
            }
        }
        opened = new Opened(archive);
        for (String warning : warnings) {
            getLogger().warn("GeoParquet archive at {}: {}", settings.location(), warning);
        }
        getLogger()
                .info(
                        "Opened {} (geometry column '{}', CRS {}, key columns {})",
                        archive,
                        archive.descriptor().geometryColumn(),
                        archive.sourceCrs(),
                        archive.descriptor().keyColumns());
    }

    @OnDisabled
    public void onDisabled() {
        Opened current = opened;
        opened = null;
        if (current != null) {
            current.close();
        }
    }

    /**
     * The storage the archive is opened on, each time the service is enabled: the configured directory or object
     * store as is. A subclass may wrap it to observe or fail its calls; the service closes what this returns.
     */
    protected ArchiveStorage decorateStorage(ArchiveStorage storage) {
        return storage;
    }

    private GeoParquetArchive openOrInitialise(Settings settings, List<String> warnings) throws IOException {
        ArchiveStorage storage = decorateStorage(settings.storage());
        try {
            return openOrInitialise(settings, storage, warnings);
        } catch (IOException | RuntimeException e) {
            closeQuietly(storage);
            throw e;
        }
    }

    private static void closeQuietly(ArchiveStorage storage) {
        if (storage instanceof AutoCloseable closeable) {
            try {
                closeable.close();
            } catch (Exception ignored) {
                // nothing more to release
            }
        }
    }

    private static GeoParquetArchive openOrInitialise(Settings settings, ArchiveStorage storage, List<String> warnings)
            throws IOException {
        if (GeoParquetArchive.exists(storage)) {
            return GeoParquetArchive.open(storage);
        }
        return switch (settings.strategy()) {
            case FAIL -> throw new ArchiveNotFoundException(storage.describe());
            case ADOPT -> {
                AdoptionOptions options = new AdoptionOptions(
                        settings.keyColumns(), settings.versionColumn(), settings.resolution(), null, null);
                try {
                    AdoptionReport report = ArchiveAdopter.adopt(storage, options, Clock.systemUTC());
                    warnings.add("Adopted " + report.files() + " files with " + report.rows() + " rows in "
                            + report.partitions() + " partitions");
                    yield report.archive();
                } catch (FileAlreadyExistsException adoptedMeanwhile) {
                    // Another node adopted the directory between the check above and this adoption.
                    if (!GeoParquetArchive.exists(storage)) {
                        throw adoptedMeanwhile;
                    }
                    yield GeoParquetArchive.open(storage);
                }
            }
            case CREATE -> {
                ArchiveSpec spec = ArchiveSpec.fromTemplate(
                        new LocalInputFile(settings.template()),
                        settings.template().toString(),
                        settings.keyColumns(),
                        settings.versionColumn(),
                        settings.resolution(),
                        WriterSettings.defaults());
                warnings.addAll(spec.warnings());
                if (settings.s3() == null) {
                    Files.createDirectories(settings.root());
                }
                yield ArchiveCreator.create(storage, spec, Clock.systemUTC());
            }
        };
    }

    /** One checked aspect of the configuration, shared by validation and verification. */
    record Finding(String step, Outcome outcome, String explanation) {}

    /** The configuration, resolved. */
    record Settings(
            Path root,
            List<Path> allowedBases,
            Integer resolution,
            MissingArchiveStrategy strategy,
            Path template,
            List<String> keyColumns,
            String versionColumn,
            S3StorageSettings s3,
            S3AuthenticationStrategy s3Authentication,
            List<String> allowedS3Bases,
            Integer threads) {

        /** The root as the operator wrote it: a directory, or s3://bucket/prefix. */
        String location() {
            return s3 != null ? s3.location().toString() : String.valueOf(root);
        }

        /**
         * The settings with what referenced services give, for connecting to the store: an SSL Context Service's
         * trust and key material. Validation works without them, since only an enabled service gives them.
         */
        Settings connecting(PropertyContext context) {
            if (s3 == null) {
                return this;
            }
            return new Settings(
                    root,
                    allowedBases,
                    resolution,
                    strategy,
                    template,
                    keyColumns,
                    versionColumn,
                    S3StorageProperties.withServices(context, s3),
                    s3Authentication,
                    allowedS3Bases,
                    threads);
        }

        /** A new storage for the root; an object store's storage holds a client to close. */
        ArchiveStorage storage() {
            return s3 != null ? S3ArchiveStorage.open(s3) : new LocalArchiveStorage(root);
        }

        static Settings of(PropertyContext context) {
            String root = context.getProperty(ARCHIVE_ROOT)
                    .evaluateAttributeExpressions()
                    .getValue();
            String bases = context.getProperty(ALLOWED_ROOTS)
                    .evaluateAttributeExpressions()
                    .getValue();
            Integer resolution = context.getProperty(H3_RESOLUTION).asInteger();
            MissingArchiveStrategy strategy =
                    context.getProperty(MISSING_ARCHIVE_STRATEGY).asAllowableValue(MissingArchiveStrategy.class);
            String template = strategy == MissingArchiveStrategy.CREATE
                    ? context.getProperty(TEMPLATE_FILE)
                            .evaluateAttributeExpressions()
                            .getValue()
                    : null;
            String keys = strategy == MissingArchiveStrategy.FAIL
                    ? null
                    : context.getProperty(KEY_COLUMNS).getValue();
            String version = strategy == MissingArchiveStrategy.FAIL
                    ? null
                    : context.getProperty(VERSION_COLUMN).getValue();
            boolean s3 = S3Location.isS3(root);
            return new Settings(
                    root == null || root.isBlank() || s3
                            ? null
                            : Path.of(root.strip()).toAbsolutePath().normalize(),
                    s3 ? List.of() : ArchiveLocation.parseBases(bases),
                    resolution,
                    strategy,
                    template == null || template.isBlank() ? null : Path.of(template.strip()),
                    keys == null
                            ? List.of()
                            : Arrays.stream(keys.split(","))
                                    .map(String::strip)
                                    .filter(k -> !k.isEmpty())
                                    .toList(),
                    version == null || version.isBlank() ? null : version.strip(),
                    s3 ? S3StorageProperties.settings(context, root.strip()) : null,
                    s3 ? S3StorageProperties.strategy(context) : null,
                    s3 ? ArchiveLocation.parseS3Bases(bases) : List.of(),
                    context.getProperty(WORKER_THREADS).asInteger());
        }
    }

    static final String STEP_ROOT = "Archive Root Directory";
    static final String STEP_ARCHIVE = "Archive";
    static final String STEP_RESOLUTION = "H3 Resolution";
    static final String STEP_KEY_COLUMNS = "Key Columns";

    /**
     * Checks the configuration against the file system without changing anything: the root against the allowed bases,
     * the archive (or what would be adopted or created), and the resolution against the pinned one.
     */
    static List<Finding> inspect(Settings settings, boolean touchStorage) {
        if (settings.s3() != null) {
            return inspectS3(settings, touchStorage);
        }
        List<Finding> findings = new ArrayList<>();
        if (settings.root() == null) {
            findings.add(new Finding(STEP_ROOT, Outcome.FAILED, "Archive Root Directory is empty"));
            return findings;
        }
        Optional<String> outside = ArchiveLocation.outsideAllowedBases(settings.root(), settings.allowedBases());
        if (outside.isPresent()) {
            findings.add(new Finding(STEP_ROOT, Outcome.FAILED, outside.get()));
            return findings;
        }
        findings.add(new Finding(
                STEP_ROOT,
                Outcome.SUCCESSFUL,
                settings.root()
                        + (settings.allowedBases().isEmpty()
                                ? ""
                                : " lies under the allowed bases " + settings.allowedBases())));

        inspectArchive(settings, new LocalArchiveStorage(settings.root()), findings);
        return findings;
    }

    static final String STEP_S3 = "S3 Location";
    static final String STEP_SSL_CONTEXT = "SSL Context Service";

    /** The object-store root: the location and settings always; the bucket's content only when {@code touchStorage}. */
    private static List<Finding> inspectS3(Settings settings, boolean touchStorage) {
        List<Finding> findings = new ArrayList<>();
        String location = settings.location();
        if (!settings.allowedS3Bases().isEmpty()
                && settings.allowedS3Bases().stream().noneMatch(base -> (location + "/").startsWith(base + "/"))) {
            findings.add(new Finding(
                    STEP_ROOT,
                    Outcome.FAILED,
                    "Archive Root Directory " + location + " lies outside every s3:// base of"
                            + " Allowed Archive Roots " + settings.allowedS3Bases()
                            + "; choose a root under one of them or add its base"));
            return findings;
        }
        findings.add(new Finding(
                STEP_S3, Outcome.SUCCESSFUL, S3StorageProperties.describe(settings.s3(), settings.s3Authentication())));
        if (!touchStorage) {
            return findings;
        }
        try (S3ArchiveStorage storage = S3ArchiveStorage.open(settings.s3())) {
            inspectArchive(settings, storage, findings);
            List<StoredObject> cold = storage.objectsNeedingRestore("");
            if (!cold.isEmpty()) {
                findings.add(new Finding(
                        STEP_S3,
                        Outcome.FAILED,
                        cold.size() + " objects need a restore before they can be read (first: "
                                + cold.get(0).path() + "); operations that read them fail until they are restored"));
            }
        } catch (IOException | RuntimeException e) {
            findings.add(new Finding(
                    STEP_ARCHIVE, Outcome.FAILED, "Cannot reach " + location + ": " + failure(settings, e)));
        }
        return findings;
    }

    /** Checks the archive at the storage (or what would be adopted or created), adding what was found. */
    private static void inspectArchive(Settings settings, ArchiveStorage storage, List<Finding> findings) {
        String where = settings.location();
        GeoParquetArchive archive = null;
        try {
            if (GeoParquetArchive.exists(storage)) {
                archive = GeoParquetArchive.open(storage);
            }
        } catch (IOException | RuntimeException e) {
            findings.add(new Finding(
                    STEP_ARCHIVE,
                    Outcome.FAILED,
                    "Cannot read the archive descriptor at " + where + ": " + failure(settings, e)));
            return;
        }
        if (archive != null) {
            findings.add(new Finding(
                    STEP_ARCHIVE,
                    Outcome.SUCCESSFUL,
                    "Found an archive at " + where + " pinned at H3 resolution "
                            + archive.h3Resolution() + ", geometry column '"
                            + archive.descriptor().geometryColumn() + "' in " + archive.sourceCrs()
                            + archive.sourceCrs()
                                    .conformanceWarning()
                                    .map(w -> " (warning: " + w + ")")
                                    .orElse("")
                            + ", key columns " + archive.descriptor().keyColumns()));
            findings.add(resolutionFinding(settings.resolution(), archive.h3Resolution(), where));
            if (!settings.keyColumns().isEmpty()) {
                findings.add(keyColumnsFinding(
                        settings.keyColumns(), archive.descriptor().keyColumns(), where));
            }
            return;
        }
        switch (settings.strategy()) {
            case FAIL ->
                findings.add(new Finding(
                        STEP_ARCHIVE,
                        Outcome.FAILED,
                        "No archive at " + where
                                + " (it has no _geoparquet_archive/descriptor.json) and Missing Archive Strategy is '"
                                + MissingArchiveStrategy.FAIL.getDisplayName()
                                + "'; point the service at an existing archive, or choose '"
                                + MissingArchiveStrategy.ADOPT.getDisplayName() + "' or '"
                                + MissingArchiveStrategy.CREATE.getDisplayName() + "'"));
            case ADOPT ->
                findings.add(
                        holdsSomethingToAdopt(settings, storage)
                                ? new Finding(
                                        STEP_ARCHIVE,
                                        Outcome.SUCCESSFUL,
                                        "No archive descriptor at " + where
                                                + "; its h3_cell=<cell> partitions will be adopted when the service is enabled")
                                : new Finding(
                                        STEP_ARCHIVE,
                                        Outcome.FAILED,
                                        "Nothing to adopt: " + where
                                                + (settings.s3() != null
                                                        ? " holds no objects"
                                                        : " is not a directory")));
            case CREATE -> findings.add(templateFinding(settings));
        }
    }

    /** A failed request's message, with what to do when the endpoint refused the TLS handshake. */
    private static String failure(Settings settings, Exception e) {
        if (settings.s3() == null || !refusedTls(e)) {
            return e.getMessage();
        }
        return e.getMessage()
                + (settings.s3().trustManager() == null
                        ? ". The JVM's default trust store does not trust the endpoint's certificate: set SSL Context"
                                + " Service to one whose trust store holds the certificate authority that signed it"
                        : ". Check that the SSL Context Service's trust store holds the certificate authority that signed"
                                + " the endpoint's certificate, that the certificate names the endpoint's host, and, if the"
                                + " store asks for a client certificate, that it accepts the key store's");
    }

    private static boolean refusedTls(Throwable failure) {
        for (Throwable current = failure; current != null; current = current.getCause()) {
            if (current instanceof StorageTlsException) {
                return true;
            }
            if (current.getCause() == current) {
                return false;
            }
        }
        return false;
    }

    private static boolean holdsSomethingToAdopt(Settings settings, ArchiveStorage storage) {
        if (settings.s3() == null) {
            return Files.isDirectory(settings.root());
        }
        try {
            return !storage.list("").isEmpty();
        } catch (IOException e) {
            return false;
        }
    }

    private static Finding resolutionFinding(Integer configured, int pinned, String root) {
        if (configured == null) {
            return new Finding(
                    STEP_RESOLUTION, Outcome.SUCCESSFUL, "Using the archive's pinned H3 resolution " + pinned);
        }
        if (configured != pinned) {
            return new Finding(
                    STEP_RESOLUTION,
                    Outcome.FAILED,
                    "H3 Resolution " + configured + " does not match the resolution " + pinned
                            + " pinned by the archive at " + root + "; set H3 Resolution to " + pinned
                            + " or leave it empty");
        }
        return new Finding(
                STEP_RESOLUTION,
                Outcome.SUCCESSFUL,
                "H3 Resolution " + configured + " matches the archive's pinned resolution");
    }

    /**
     * Key Columns are pinned by the archive like its resolution: a flow that states other keys (for example through a
     * parameter shared with adoption) is told so instead of silently upserting on the archive's.
     */
    private static Finding keyColumnsFinding(List<String> configured, List<String> pinned, String root) {
        if (!configured.equals(pinned)) {
            return new Finding(
                    STEP_KEY_COLUMNS,
                    Outcome.FAILED,
                    "Key Columns " + configured + " differ from the key columns " + pinned
                            + " pinned by the archive at " + root + "; set Key Columns to " + String.join(",", pinned)
                            + " or leave it empty");
        }
        return new Finding(
                STEP_KEY_COLUMNS,
                Outcome.SUCCESSFUL,
                "Key Columns " + configured + " match the archive's pinned key columns");
    }

    private static Finding templateFinding(Settings settings) {
        if (settings.resolution() == null) {
            return new Finding(
                    STEP_ARCHIVE,
                    Outcome.FAILED,
                    "Creating an archive at " + settings.location()
                            + " needs H3 Resolution: the resolution is pinned for the archive's lifetime");
        }
        if (settings.template() == null || !Files.isRegularFile(settings.template())) {
            return new Finding(
                    STEP_ARCHIVE,
                    Outcome.FAILED,
                    "Template GeoParquet File " + settings.template() + " is not a readable file");
        }
        try {
            ArchiveSpec spec = ArchiveSpec.fromTemplate(
                    new LocalInputFile(settings.template()),
                    settings.template().toString(),
                    settings.keyColumns(),
                    settings.versionColumn(),
                    settings.resolution(),
                    WriterSettings.defaults());
            return new Finding(
                    STEP_ARCHIVE,
                    Outcome.SUCCESSFUL,
                    "No archive at " + settings.location() + "; one will be created at H3 resolution "
                            + spec.h3Resolution() + " from " + settings.template() + " (geometry column '"
                            + spec.geometryColumn() + "')"
                            + (spec.warnings().isEmpty() ? "" : "; warnings: " + spec.warnings()));
        } catch (IOException | RuntimeException e) {
            return new Finding(
                    STEP_ARCHIVE,
                    Outcome.FAILED,
                    "Template GeoParquet File " + settings.template() + " cannot pin an archive: " + e.getMessage());
        }
    }

    private Opened requireOpened() {
        Opened current = opened;
        if (current == null) {
            throw new IllegalStateException("The GeoParquet archive service is not enabled");
        }
        return current;
    }

    @Override
    public GeoParquetArchive archive() {
        return requireOpened().archive();
    }

    @Override
    public String location() {
        return archive().storage().describe();
    }

    @Override
    public int h3Resolution() {
        return archive().h3Resolution();
    }

    @Override
    public H3Keyer keyer() {
        return archive().keyer();
    }

    @Override
    public SourceCrs crs() {
        return archive().sourceCrs();
    }

    @Override
    public String geometryColumn() {
        return archive().descriptor().geometryColumn();
    }
}
