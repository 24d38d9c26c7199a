package dev.nifigeoparquet.archive.adoption;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.CanonicalFooters;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.H3Cells;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.commit.ArchiveLease;
import dev.nifigeoparquet.archive.commit.PartitionChange;
import dev.nifigeoparquet.archive.commit.PartitionCommitter;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.commit.PartitionRecovery;
import dev.nifigeoparquet.archive.commit.RollingFileWriter;
import dev.nifigeoparquet.archive.error.AdoptionRefusedException;
import dev.nifigeoparquet.archive.error.InvalidCellException;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.LeaseUnavailableException;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.format.AdoptionRecord;
import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.ProtocolSettings;
import dev.nifigeoparquet.archive.geo.GeoBlockDiff;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import dev.nifigeoparquet.archive.verify.FooterCheck;
import dev.nifigeoparquet.archive.verify.Problem;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.locationtech.jts.geom.Geometry;

/**
 * Adopts an archive written by pyarrow, GeoPandas or DuckDB in the {@code h3_cell=<cell>/*.parquet} layout:
 * derives the pinned settings from what the files hold, commits every partition's existing files as its first
 * state, and writes the descriptor last, so an interrupted adoption can simply be run again.
 * See docs/archive-format.md, section 8.
 */
public final class ArchiveAdopter {

    private static final String ADOPT_OPERATION_ID = "adopt";
    /** The id of the transaction that moves misplaced rows into their cells while adopting. */
    private static final String REHOME_OPERATION_ID = "adopt-rehome";

    private static final int FILES_NAMED_IN_ERRORS = 5;
    /** The lease adoption holds (docs/archive-format.md, section 5.12). */
    public static final String ADOPTION_LEASE = "adoption";
    /** How long the adoption lease lasts between renewals: a dead adopter's lease lapses after it. */
    static final Duration ADOPTION_LEASE_TIME = Duration.ofMinutes(10);

    private ArchiveAdopter() {}

    /** One data file found, with its footer. */
    private record FoundFile(String cell, StoredObject object, ParquetFooter footer) {
        String path() {
            return object.path();
        }

        String geo() {
            return footer.canonicalEntries().geo();
        }
    }

    /**
     * Adopts the directory under the archive's {@code adoption} lease (docs/archive-format.md, sections 5.12 and 8), so
     * that processes enabling at once on one directory (the nodes of a cluster) adopt it once: the others fail with
     * {@link LeaseUnavailableException} and, tried again, find the archive adopted. A directory no adoption has touched
     * is read and checked before the lease is taken, so that a refused adoption writes nothing at all; one an earlier
     * adoption left half done is recovered first, which only the lease's holder may do.
     *
     * @throws LeaseUnavailableException  when another process is adopting the directory
     * @throws FileAlreadyExistsException when it is an archive already
     */
    public static AdoptionReport adopt(ArchiveStorage storage, AdoptionOptions options, Clock clock)
            throws IOException {
        requireNoArchive(storage);
        Plan plan = earlierAttemptLeftPartitions(storage) ? null : plan(storage, options, clock);
        try (ArchiveLease.Held lease = new ArchiveLease(storage, ADOPTION_LEASE, clock)
                .acquire(ArchiveLease.holderName(), ADOPTION_LEASE_TIME, "adopting the directory")) {
            // Another process may have adopted the directory, or started to, before this one took the lease.
            requireNoArchive(storage);
            if (plan == null || earlierAttemptLeftPartitions(storage)) {
                completeEarlierAttempt(storage, clock);
                plan = plan(storage, options, clock);
                lease.renew(ADOPTION_LEASE_TIME);
            }
            AdoptionReport report = write(plan, lease, storage, clock);
            lease.done();
            return report;
        }
    }

    private static void requireNoArchive(ArchiveStorage storage) throws IOException {
        if (GeoParquetArchive.exists(storage)) {
            throw new FileAlreadyExistsException(
                    storage.describe(), null, "already an archive (it has a descriptor); open it instead");
        }
    }

    /**
     * What adoption found and decided, before it writes anything: every check that can refuse the directory has passed.
     */
    private record Plan(
            Map<String, List<StoredObject>> partitions,
            List<FoundFile> files,
            ArchiveDescriptor descriptor,
            AdoptionRecord record,
            RowScan rows) {}

    /** Reads and checks the directory, writing nothing. */
    private static Plan plan(ArchiveStorage storage, AdoptionOptions options, Clock clock) throws IOException {
        Map<String, List<StoredObject>> partitions = findPartitions(storage, options.expectedResolution());
        int resolution = H3Cells.resolutionOf(partitions.keySet().iterator().next());

        List<FoundFile> files = new ArrayList<>();
        for (Map.Entry<String, List<StoredObject>> partition : partitions.entrySet()) {
            for (StoredObject object : partition.getValue()) {
                try (GeoParquetFileReader reader =
                        GeoParquetFileReader.open(storage.openInputFile(object.path()), object.path())) {
                    files.add(new FoundFile(partition.getKey(), object, reader.footer()));
                }
            }
        }
        if (files.isEmpty()) {
            throw new RejectedInputException("No data files under " + storage.describe() + ": nothing to adopt");
        }

        FoundFile reference = chooseReference(files, options.referenceFile(), storage);
        requireOneSchema(files, reference);
        List<String> derivation = new ArrayList<>();
        Map<String, Integer> distinctBlocks = countDistinctGeo(files);
        FooterEntries canonical = canonicalFooter(reference, files, distinctBlocks, derivation);
        JsonNode differences = geoDifferences(reference, distinctBlocks);

        WriterSettings writer = options.writer() != null ? options.writer() : inferWriterSettings(reference.footer());
        ArchiveSpec spec = ArchiveSpec.of(
                reference.footer().schema(),
                canonical,
                options.keyColumns(),
                options.versionColumn(),
                resolution,
                writer,
                reference.path());
        Instant now = clock.instant();
        ArchiveDescriptor provisional = descriptor(spec, canonical, writer, resolution, now, null);
        GeoParquetArchive archive = GeoParquetArchive.beforeDescriptor(storage, provisional, clock);

        // Everything that can refuse the directory is found before the first write, so a refusal changes nothing.
        requireFootersThatVerify(archive, files);
        RowScan rows = scanRows(archive, files, options.rehomeMisplacedRows());

        AdoptionRecord record = new AdoptionRecord(
                now,
                reference.path(),
                distinctBlocks.size(),
                !derivation.isEmpty(),
                derivation,
                differences,
                spec.warnings(),
                rows.misplacedRows);
        return new Plan(partitions, files, descriptor(spec, canonical, writer, resolution, now, record), record, rows);
    }

    /** Commits what the plan found, renewing the lease as it goes, and writes the descriptor last. */
    private static AdoptionReport write(Plan plan, ArchiveLease.Held lease, ArchiveStorage storage, Clock clock)
            throws IOException {
        ArchiveDescriptor descriptor = plan.descriptor();
        GeoParquetArchive archive = GeoParquetArchive.beforeDescriptor(storage, descriptor, clock);
        Instant renewed = clock.instant();
        for (String cell : plan.partitions().keySet()) {
            renewed = renewIfHalfGone(lease, renewed, clock);
            commitExistingFiles(storage, cell, plan.files(), descriptor.createdAt());
        }
        // Re-homing and the key index are each written at a stretch, so the lease is renewed in full before each.
        if (!plan.rows().misplaced.isEmpty()) {
            lease.renew(ADOPTION_LEASE_TIME);
            rehome(archive, plan.rows());
        }
        if (descriptor.hasKey()) {
            lease.renew(ADOPTION_LEASE_TIME);
            new KeyIndex(archive).build(plan.rows().cells);
        }
        // The descriptor is written only by the lease's holder: a holder that lost it stops here.
        lease.renew(ADOPTION_LEASE_TIME);
        GeoParquetArchive adopted = GeoParquetArchive.writeDescriptor(storage, descriptor, clock);
        long rowCount = plan.files().stream()
                .mapToLong(file -> file.footer().rowCount())
                .sum();
        return new AdoptionReport(
                adopted, plan.partitions().size(), plan.files().size(), rowCount, plan.record());
    }

    /** Renews the lease once half its time has gone since {@code renewed}; returns when it was last renewed. */
    private static Instant renewIfHalfGone(ArchiveLease.Held lease, Instant renewed, Clock clock) throws IOException {
        if (!clock.instant().isAfter(renewed.plus(ADOPTION_LEASE_TIME.dividedBy(2)))) {
            return renewed;
        }
        lease.renew(ADOPTION_LEASE_TIME);
        return clock.instant();
    }

    private static ArchiveDescriptor descriptor(
            ArchiveSpec spec,
            FooterEntries canonical,
            WriterSettings writer,
            int resolution,
            Instant now,
            AdoptionRecord record) {
        return new ArchiveDescriptor(
                ArchiveDescriptor.FORMAT_VERSION,
                now,
                resolution,
                spec.keyingRule(),
                spec.geometryColumn(),
                spec.keyColumns(),
                spec.versionColumn(),
                ArchiveDescriptor.schemaText(spec.schema()),
                ArchiveDescriptor.schemaJson(spec.schema()),
                ArchiveDescriptor.footerEntries(canonical),
                writer,
                ProtocolSettings.DEFAULT,
                spec.compaction(),
                record,
                spec.keyColumns().isEmpty() ? 0 : ArchiveDescriptor.DEFAULT_KEY_INDEX_SHARDS);
    }

    /**
     * An adoption that was interrupted after its first commit left partitions with commit entries, and perhaps staged
     * files, and no descriptor. Before the directory is read, each such partition (and key-index partition) is
     * recovered as format section 5.5 says, with a writer lease of zero: an undecided re-homing transaction is aborted
     * and staged files no entry names are deleted at once, rather than an hour later. Without a descriptor the only
     * writer of these partitions is adoption itself, and adoptions of one directory do not run at the same time: this
     * one holds the adoption lease (section 5.12). Then every partition directory holds exactly its committed files. A directory no adoption has
     * touched has neither entries nor staging, and nothing is done to it.
     */
    private static void completeEarlierAttempt(ArchiveStorage storage, Clock clock) throws IOException {
        PartitionRecovery recovery = new PartitionRecovery(storage, ProtocolSettings.DEFAULT.withWriterLeaseSeconds(0));
        for (String partition : partitionsOfEarlierAttempts(storage)) {
            recovery.recover(partition, clock.instant());
        }
    }

    /** Whether an earlier adoption committed or staged anything: then the directory is recovered before it is read. */
    private static boolean earlierAttemptLeftPartitions(ArchiveStorage storage) throws IOException {
        return !partitionsOfEarlierAttempts(storage).isEmpty();
    }

    /** The partitions (data and key index) with commit entries or staged files. */
    private static Set<String> partitionsOfEarlierAttempts(ArchiveStorage storage) throws IOException {
        Set<String> partitions = new TreeSet<>();
        for (String directory : List.of(ArchiveLayout.LOG_DIRECTORY, ArchiveLayout.STAGING_DIRECTORY)) {
            for (StoredObject entry : storage.list(directory)) {
                if (entry.directory()) {
                    partitions.add(entry.name());
                }
            }
        }
        return partitions;
    }

    /**
     * Refuses files in which verification would find a problem once the archive exists: anything beyond the per-file
     * variations GeoPandas and pyarrow write (the {@code geo} bbox and geometry_types, the {@code pandas}
     * RangeIndex, and their copies inside {@code ARROW:schema}), so that adoption and verification agree.
     */
    private static void requireFootersThatVerify(GeoParquetArchive archive, List<FoundFile> files) {
        FooterCheck check = FooterCheck.of(archive);
        List<String> examples = new ArrayList<>();
        int failing = 0;
        for (FoundFile file : files) {
            List<Problem> problems = check.problemsOf(file.path(), file.footer(), true);
            if (!problems.isEmpty()) {
                failing++;
                if (examples.size() < FILES_NAMED_IN_ERRORS) {
                    examples.add(problems.get(0).toString());
                }
            }
        }
        if (failing > 0) {
            throw new RejectedInputException(
                    failing + " file(s) have footers that differ from the canonical one beyond what "
                            + "writers put per file, e.g. " + examples + "; adopt a directory whose files agree");
        }
    }

    /** A row that lies outside the partition of its cell. */
    private record Misplaced(FoundFile file, long row, FeatureKey key, String cell, boolean crossesAntimeridian) {
        @Override
        public String toString() {
            return file.path() + " row " + row + (key == null ? "" : " (key " + key + ")") + ": in partition "
                    + file.cell() + ", its geometry's cell is " + cell
                    + (crossesAntimeridian ? " (it crosses the antimeridian)" : "");
        }
    }

    /**
     * What one pass over every row found: each key's cell (after re-homing), rows outside their cell by file and row
     * (only kept when they are to be moved), and counts.
     */
    private static final class RowScan {
        Map<FeatureKey, String> cells = new HashMap<>();
        Map<FoundFile, Map<Long, String>> misplaced = new LinkedHashMap<>();
        long misplacedRows;
    }

    /**
     * Reads the key and geometry columns of every file, one row group at a time, and keys every row (format section
     * 6.1). Refuses null keys, keys that occur twice, rows that cannot be keyed, and (unless they are to be re-homed)
     * rows outside the partition of their cell, naming examples of each. Memory: the key-to-cell map the key index is
     * built from, and the position of each row to re-home; geometries are decoded one at a time.
     */
    private static RowScan scanRows(GeoParquetArchive archive, List<FoundFile> files, boolean rehome)
            throws IOException {
        List<String> keyColumns = archive.descriptor().keyColumns();
        String geometryColumn = archive.descriptor().geometryColumn();
        List<String> columns = new ArrayList<>(keyColumns);
        if (!columns.contains(geometryColumn)) {
            columns.add(geometryColumn);
        }
        RowScan scan = new RowScan();
        List<String> duplicates = new ArrayList<>();
        List<String> nullKeyRows = new ArrayList<>();
        List<String> unkeyable = new ArrayList<>();
        List<Misplaced> misplacedExamples = new ArrayList<>();
        long nullKeys = 0;
        long duplicateCount = 0;
        long unkeyableCount = 0;
        for (FoundFile file : files) {
            try (GeoParquetFileReader reader =
                    GeoParquetFileReader.open(archive.storage().openInputFile(file.path()), file.path())) {
                reader.project(columns);
                FeatureKey.Extractor extractor =
                        keyColumns.isEmpty() ? null : FeatureKey.extractor(reader.readSchema(), keyColumns);
                GeometryCodec codec = archive.geometryCodec(reader.readSchema());
                long index = 0;
                for (var rows = reader.rows(); rows.hasNext(); index++) {
                    Group row = rows.next();
                    FeatureKey key = extractor == null ? null : extractor.keyOf(row);
                    if (extractor != null && key == null && nullKeys++ < FILES_NAMED_IN_ERRORS) {
                        nullKeyRows.add(file.path() + " row " + index);
                    }
                    String cell;
                    Geometry geometry;
                    try {
                        geometry = codec.decode(row, index);
                        cell = archive.keyer().cellOf(geometry, archive.sourceCrs());
                    } catch (KeyingException | IllegalArgumentException e) {
                        if (unkeyableCount++ < FILES_NAMED_IN_ERRORS) {
                            unkeyable.add(file.path() + " row " + index + (key == null ? "" : " (key " + key + ")")
                                    + ": " + e.getMessage());
                        }
                        continue;
                    }
                    if (!cell.equals(file.cell())) {
                        scan.misplacedRows++;
                        if (misplacedExamples.size() < FILES_NAMED_IN_ERRORS) {
                            misplacedExamples.add(new Misplaced(
                                    file,
                                    index,
                                    key,
                                    cell,
                                    archive.sourceCrs().isWgs84LonLat() && H3Keyer.crossesAntimeridian(geometry)));
                        }
                        if (rehome) {
                            scan.misplaced
                                    .computeIfAbsent(file, f -> new TreeMap<>())
                                    .put(index, cell);
                        }
                    }
                    if (key != null) {
                        String placed = rehome ? cell : file.cell();
                        String previous = scan.cells.put(key, placed);
                        if (previous != null && duplicateCount++ < FILES_NAMED_IN_ERRORS * 2) {
                            duplicates.add(
                                    key + " (" + file.path() + " row " + index + ", already in " + previous + ")");
                        }
                    }
                }
            }
        }
        List<String> refusals = new ArrayList<>();
        if (nullKeys > 0 || duplicateCount > 0) {
            refusals.add("Key " + keyColumns + " does not identify features: " + nullKeys + " null key(s)"
                    + (nullKeyRows.isEmpty() ? "" : " such as " + nullKeyRows)
                    + (duplicates.isEmpty() ? "" : ", " + duplicateCount + " duplicate(s) such as " + duplicates)
                    + "; adopt with another key, or without a key for an append-only archive");
        }
        if (unkeyableCount > 0) {
            refusals.add(unkeyableCount + " row(s) have no geometry that can be keyed, e.g. " + unkeyable
                    + "; remove or fix them first");
        }
        if (scan.misplacedRows > 0 && !rehome) {
            refusals.add(scan.misplacedRows + " row(s) lie outside the partition of their geometry's cell, e.g. "
                    + misplacedExamples
                    + "; adopting with re-homing moves them into their cells as the archive is adopted");
        }
        if (!refusals.isEmpty()) {
            throw new AdoptionRefusedException(
                    "Nothing was adopted: " + String.join("; ", refusals), rehome ? 0 : scan.misplacedRows);
        }
        return scan;
    }

    /**
     * Moves the misplaced rows into their cells, before the archive exists: one transaction (format section 5.9)
     * over every partition that loses or gains rows. A file holding misplaced rows is replaced by one holding the
     * rows that stay; each receiving partition gains one file with the rows that arrive.
     */
    private static void rehome(GeoParquetArchive archive, RowScan scan) throws IOException {
        Set<String> cells = new TreeSet<>();
        scan.misplaced.forEach((file, rows) -> {
            cells.add(file.cell());
            cells.addAll(rows.values());
        });
        Map<String, PartitionCommitter.Participant> participants = new LinkedHashMap<>();
        for (String cell : cells) {
            participants.put(cell, new PartitionCommitter.Participant(OperationType.ADOPT, (current, stager) -> {
                List<String> removed = new ArrayList<>();
                try (RollingFileWriter writer = new RollingFileWriter(
                        stager,
                        archive.schema(),
                        archive.canonicalFooter(),
                        archive.descriptor().writer())) {
                    for (Map.Entry<FoundFile, Map<Long, String>> file : scan.misplaced.entrySet()) {
                        boolean own = file.getKey().cell().equals(cell);
                        if (own) {
                            removed.add(file.getKey().object().name());
                        }
                        if (own || file.getValue().containsValue(cell)) {
                            copyRows(archive, file.getKey(), file.getValue(), own ? null : cell, writer);
                        }
                    }
                    return new PartitionChange(writer.finish(), removed);
                }
            }));
        }
        archive.committer().commitAll(REHOME_OPERATION_ID, participants);
    }

    /**
     * Copies rows of a file in order: with {@code arriving} null the rows that stay (not misplaced), otherwise the
     * misplaced rows whose cell is {@code arriving}.
     */
    private static void copyRows(
            GeoParquetArchive archive,
            FoundFile file,
            Map<Long, String> misplaced,
            String arriving,
            RollingFileWriter writer)
            throws IOException {
        try (GeoParquetFileReader reader =
                GeoParquetFileReader.open(archive.storage().openInputFile(file.path()), file.path())) {
            long index = 0;
            for (var rows = reader.rows(); rows.hasNext(); index++) {
                Group row = rows.next();
                String moving = misplaced.get(index);
                if (arriving == null ? moving == null : arriving.equals(moving)) {
                    writer.write(row);
                }
            }
        }
    }

    /** Partition directories by cell, validated as H3 cells of one resolution, with their data files. */
    private static Map<String, List<StoredObject>> findPartitions(ArchiveStorage storage, Integer expectedResolution)
            throws IOException {
        Map<String, List<StoredObject>> partitions = new TreeMap<>();
        List<String> invalid = new ArrayList<>();
        List<String> unnamable = new ArrayList<>();
        Map<Integer, Integer> partitionsByResolution = new TreeMap<>();
        for (StoredObject entry : storage.list("")) {
            String cell = entry.directory() ? ArchiveLayout.cellOfPartitionDirectory(entry.name()) : null;
            if (cell == null) {
                continue;
            }
            try {
                int resolution = H3Cells.resolutionOf(cell);
                H3Cells.requireCanonical(cell, resolution);
                partitionsByResolution.merge(resolution, 1, Integer::sum);
            } catch (InvalidCellException e) {
                invalid.add(entry.name() + " (" + e.getMessage() + ")");
                continue;
            }
            List<StoredObject> dataFiles = new ArrayList<>();
            for (StoredObject file : storage.list(entry.path())) {
                if (!file.directory()
                        && file.name().endsWith(ArchiveLayout.DATA_FILE_SUFFIX)
                        && !file.name().startsWith(".")) {
                    if (!ArchiveLayout.isDataFileName(file.name())) {
                        // Every later read or write of the file builds its path from the name, and refuses it then.
                        unnamable.add(file.path());
                    }
                    dataFiles.add(file);
                }
            }
            partitions.put(cell, dataFiles);
        }
        if (!invalid.isEmpty()) {
            throw new RejectedInputException("Partition directories that are not canonical H3 cells: " + invalid);
        }
        if (!unnamable.isEmpty()) {
            throw new IllegalArgumentException(
                    "Data file names may hold only the characters A-Z a-z 0-9 . _ = -; rename "
                            + unnamable.subList(0, Math.min(FILES_NAMED_IN_ERRORS, unnamable.size()))
                            + (unnamable.size() > FILES_NAMED_IN_ERRORS
                                    ? " and " + (unnamable.size() - FILES_NAMED_IN_ERRORS) + " more"
                                    : "")
                            + " before adopting");
        }
        if (partitions.isEmpty()) {
            throw new RejectedInputException("No " + ArchiveLayout.PARTITION_PREFIX + "<cell> directories under "
                    + storage.describe() + ": not an H3-partitioned archive");
        }
        if (partitionsByResolution.size() > 1) {
            throw new RejectedInputException("Partition names mix H3 resolutions (resolution: partitions) "
                    + partitionsByResolution + "; an archive has one pinned resolution");
        }
        int found = partitionsByResolution.keySet().iterator().next();
        if (expectedResolution != null && expectedResolution != found) {
            throw new RejectedInputException("Configured H3 resolution " + expectedResolution
                    + " differs from resolution " + found + " that the archive's partition names encode");
        }
        return partitions;
    }

    private static FoundFile chooseReference(List<FoundFile> files, String requested, ArchiveStorage storage) {
        if (requested != null) {
            return files.stream()
                    .filter(file -> file.path().equals(requested))
                    .findFirst()
                    .orElseThrow(() -> new RejectedInputException("Reference file '" + requested
                            + "' is not a data file of the archive at " + storage.describe()));
        }
        Map<String, Integer> counts = countDistinctGeo(files);
        return files.stream()
                .min(Comparator.comparingInt((FoundFile file) -> -counts.getOrDefault(String.valueOf(file.geo()), 0))
                        .thenComparing(FoundFile::path))
                .orElseThrow();
    }

    private static void requireOneSchema(List<FoundFile> files, FoundFile reference) {
        List<String> different = files.stream()
                .filter(file ->
                        !file.footer().schema().equals(reference.footer().schema()))
                .map(FoundFile::path)
                .toList();
        if (!different.isEmpty()) {
            throw new RejectedInputException(
                    different.size() + " file(s) have a schema different from the reference file "
                            + reference.path() + ", e.g. "
                            + different.subList(0, Math.min(FILES_NAMED_IN_ERRORS, different.size()))
                            + "; schema evolution is not supported");
        }
    }

    /** Distinct raw geo values (the string "null" for files without one) and how many files carry each. */
    private static Map<String, Integer> countDistinctGeo(List<FoundFile> files) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (FoundFile file : files) {
            counts.merge(String.valueOf(file.geo()), 1, Integer::sum);
        }
        return counts;
    }

    /**
     * The reference file's canonical entries, with the {@code geo} block derived when the files do not share one
     * block without a file-level bbox: per-column bbox removed, geometry_types the union found. Any other
     * difference between the files' blocks is refused.
     */
    private static FooterEntries canonicalFooter(
            FoundFile reference, List<FoundFile> files, Map<String, Integer> distinct, List<String> derivation)
            throws IOException {
        FooterEntries entries = reference.footer().canonicalEntries();
        if (reference.geo() == null) {
            if (distinct.size() > 1) {
                throw new RejectedInputException("Some files carry 'geo' metadata and some do not (reference "
                        + reference.path() + " has none); adopt an archive whose files agree");
            }
            return entries;
        }
        ObjectNode referenceBlock = (ObjectNode) ArchiveJson.mapper().readTree(reference.geo());
        ObjectNode derived = referenceBlock.deepCopy();
        Map<String, Set<String>> typeUnion = new LinkedHashMap<>();
        for (String geo : distinct.keySet()) {
            if ("null".equals(geo)) {
                throw new RejectedInputException(
                        "Some files carry 'geo' metadata and some do not; adopt an archive whose files agree");
            }
            ObjectNode block = (ObjectNode) ArchiveJson.mapper().readTree(geo);
            List<GeoBlockDiff.Difference> differences =
                    GeoBlockDiff.differences(stripPerFile(referenceBlock.deepCopy()), stripPerFile(block.deepCopy()));
            if (!differences.isEmpty()) {
                throw new RejectedInputException(
                        "Files disagree on their geo metadata beyond per-file bbox and geometry_types: "
                                + GeoBlockDiff.toJson(differences) + "; the archive has no single canonical block");
            }
            block.path("columns").properties().forEach(column -> {
                Set<String> types = typeUnion.computeIfAbsent(column.getKey(), key -> new LinkedHashSet<>());
                column.getValue().path("geometry_types").forEach(type -> types.add(type.asText()));
            });
        }
        boolean bboxFound = false;
        boolean typesWidened = false;
        for (var column : derived.path("columns").properties()) {
            ObjectNode columnNode = (ObjectNode) column.getValue();
            if (columnNode.remove("bbox") != null) {
                bboxFound = true;
            }
            ArrayNode types = JsonNodeFactory.instance.arrayNode();
            typeUnion.getOrDefault(column.getKey(), Set.of()).forEach(types::add);
            if (!types.equals(columnNode.path("geometry_types"))) {
                typesWidened = true;
                columnNode.set("geometry_types", types);
            }
        }
        if (!bboxFound && !typesWidened) {
            return entries; // one block, no per-file bbox: it is canonical as it is, byte for byte
        }
        if (bboxFound) {
            derivation.add(
                    "removed the per-file 'bbox' of each geometry column (it describes one file, not the archive)");
        }
        if (typesWidened) {
            derivation.add("set 'geometry_types' to the union found in " + files.size() + " files: " + typeUnion);
        }
        return CanonicalFooters.withGeo(entries, CanonicalFooters.compact(derived), derivation);
    }

    private static ObjectNode stripPerFile(ObjectNode block) {
        block.path("columns").forEach(column -> {
            ((ObjectNode) column).remove("bbox");
            ((ObjectNode) column).remove("geometry_types");
        });
        return block;
    }

    private static JsonNode geoDifferences(FoundFile reference, Map<String, Integer> distinct) throws IOException {
        ArrayNode all = JsonNodeFactory.instance.arrayNode();
        if (reference.geo() == null) {
            return all;
        }
        JsonNode referenceBlock = ArchiveJson.mapper().readTree(reference.geo());
        for (Map.Entry<String, Integer> block : distinct.entrySet()) {
            if (block.getKey().equals(reference.geo())) {
                continue;
            }
            ObjectNode entry = JsonNodeFactory.instance.objectNode();
            entry.put("files", block.getValue());
            entry.set(
                    "differences",
                    GeoBlockDiff.toJson(GeoBlockDiff.differences(
                            referenceBlock, ArchiveJson.mapper().readTree(block.getKey()))));
            all.add(entry);
        }
        return all;
    }

    /** Codec and row-group size as the reference file was written; the ZSTD level cannot be read back. */
    private static WriterSettings inferWriterSettings(ParquetFooter footer) {
        WriterSettings settings = WriterSettings.defaults();
        List<BlockMetaData> rowGroups = footer.rowGroups();
        if (!rowGroups.isEmpty() && !rowGroups.get(0).getColumns().isEmpty()) {
            CompressionCodecName codec = rowGroups.get(0).getColumns().get(0).getCodec();
            if (WriterSettings.SUPPORTED_CODECS.contains(codec)) {
                settings = settings.withCodec(codec);
            }
        }
        if (rowGroups.size() > 1) {
            settings = settings.withRowGroupRowCountLimit((int) rowGroups.get(0).getRowCount());
        }
        return settings;
    }

    /** Commits a partition's existing files as version 1; a version 1 left by an interrupted adoption is kept. */
    private static void commitExistingFiles(ArchiveStorage storage, String cell, List<FoundFile> files, Instant now)
            throws IOException {
        PartitionLog log = new PartitionLog(storage, cell);
        if (log.latestVersion() > 0) {
            PartitionCommit existing = log.read(1);
            if (existing.operationType() != OperationType.ADOPT) {
                throw new IllegalStateException("Partition " + cell + " already has commits that are not an adoption");
            }
            return;
        }
        List<DataFileEntry> entries = files.stream()
                .filter(file -> file.cell().equals(cell))
                .map(file -> new DataFileEntry(
                        file.object().name(),
                        file.footer().rowCount(),
                        file.object().size(),
                        file.object().lastModified()))
                .toList();
        PartitionCommit empty = PartitionCommit.empty(cell);
        log.commit(empty.next(
                ADOPT_OPERATION_ID,
                OperationType.ADOPT,
                now,
                entries,
                entries.stream().map(DataFileEntry::name).toList(),
                List.of(),
                ProtocolSettings.DEFAULT.operationIdRetention()));
    }
}
