package dev.nifigeoparquet.archive.verify;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.LiveFiles;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.error.ArchiveException;
import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import dev.nifigeoparquet.archive.error.CorruptDataException;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.format.AdoptionRecord;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.ops.KeyScanner;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;

/**
 * Verifies an archive, or some of its partitions, against its descriptor and commit state without writing
 * anything (no recovery runs; only listings and reads):
 * <ul>
 *   <li>each live file's schema, canonical footer entries byte for byte, {@code geo} block (with a JSON-level diff
 *       when its bytes differ) and CRS;</li>
 *   <li>live files and row counts against the latest commit entry: files missing, committed but not yet published,
 *       superseded but not yet deleted, untracked {@code .parquet} files, unreadable (truncated, corrupt) files;</li>
 *   <li>uniqueness of feature keys across the verified partitions;</li>
 *   <li>when asked ({@link VerifyOptions#placement()}), that every row, or a sample, lies in the partition of its
 *       geometry's cell (format section 6.1);</li>
 *   <li>optionally, the total row count against an expected count.</li>
 * </ul>
 *
 * <p>Key uniqueness keeps only a 64-bit hash per row in a primitive set; rows whose hash was seen twice are compared
 * exactly in a second pass that reads the files again and keeps only those keys.
 */
public final class ArchiveVerifier {

    /** Passes over an archive that writers are changing, before its problems are believed. */
    private static final int ATTEMPTS = 5;

    private static final long PAUSE_MILLIS = 50;
    /**
     * What a writer between its commit and the end of its publishing leaves for a moment (format section 5.6), and a
     * file whose new content was published over it after its state was read (its size is the new content's).
     */
    private static final Set<ProblemKind> PUBLISHING_WINDOW = Set.of(
            ProblemKind.UNPUBLISHED_FILE,
            ProblemKind.SUPERSEDED_FILE,
            ProblemKind.UNTRACKED_FILE,
            ProblemKind.MISSING_FILE,
            ProblemKind.SIZE_MISMATCH);

    private final GeoParquetArchive archive;
    private final ArchiveStorage storage;
    private final FooterCheck footerCheck;
    private final Instant adoptedAt;

    public ArchiveVerifier(GeoParquetArchive archive) {
        this.archive = archive;
        this.storage = archive.storage();
        this.footerCheck = new FooterCheck(
                archive.schema(),
                archive.canonicalFooter(),
                archive.descriptor().geometryColumn(),
                archive.sourceCrs());
        AdoptionRecord adoption = archive.descriptor().adoption();
        this.adoptedAt = adoption == null ? null : adoption.adoptedAt();
    }

    /** Verifies the whole archive. */
    public VerificationReport verify() throws IOException {
        return verify(VerifyOptions.wholeArchive());
    }

    /**
     * Verifies the selected partitions. Writers may commit while this runs: the partitions' states are read first and
     * their files after, so a file superseded in between, a publish in progress, or a key moving between two
     * partitions read at different moments would show as a problem that no single state of the archive has. A pass
     * that finds problems is therefore repeated, after a short pause, while a partition it read has a newer commit
     * since; the problems that remain after {@value #ATTEMPTS} passes are reported. Within a pass, each partition's
     * state is settled against its directory first ({@link #settledState}). A pass without problems is reported as
     * it is.
     */
    public VerificationReport verify(VerifyOptions options) throws IOException {
        for (int attempt = 1; ; attempt++) {
            Pass pass = verifyOnce(options);
            if (pass.report().consistent() || attempt == ATTEMPTS || !mayBeTorn(pass)) {
                return pass.report();
            }
            sleep(PAUSE_MILLIS * attempt);
        }
    }

    /** One pass: its report and the commit versions it read. */
    private record Pass(VerificationReport report, Map<String, Long> versions) {}

    /** Whether a concurrent writer may have made a pass see problems that no state of the archive has. */
    private boolean mayBeTorn(Pass pass) throws IOException {
        for (Map.Entry<String, Long> read : pass.versions().entrySet()) {
            if (new PartitionLog(storage, read.getKey()).latestVersion() != read.getValue()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Lets a failure through when it is the storage's, not the archive's: one that is down, refuses access or holds an
     * archived object says nothing about the archive, and reporting it as damage would be a false alarm. Damage (data
     * or metadata that cannot be used as the commit log describes it) and failures of no known kind are the file's
     * problem, reported.
     */
    private static void requireDamage(Exception failure) throws IOException {
        for (Throwable cause = failure; cause != null; cause = cause.getCause() == cause ? null : cause.getCause()) {
            if (cause instanceof CorruptDataException || cause instanceof ArchiveFormatException) {
                return;
            }
            if (cause instanceof ArchiveException
                    || cause instanceof InterruptedIOException
                    || cause instanceof AccessDeniedException) {
                throw Workers.rethrowable(failure);
            }
        }
    }

    private Pass verifyOnce(VerifyOptions options) throws IOException {
        Findings findings = new Findings();
        List<String> cells = options.wholeArchiveSelected()
                ? archive.partitionCells()
                : options.cells().stream().map(archive::requireCell).toList();

        Map<String, PartitionCommit> states = new LinkedHashMap<>();
        for (String cell : cells) {
            try {
                states.put(cell, archive.partitionState(cell));
            } catch (IOException | RuntimeException e) {
                requireDamage(e);
                findings.problem(new Problem(
                        ArchiveLayout.logDirectory(cell),
                        ProblemKind.CORRUPT_LOG,
                        "the partition's latest commit entry cannot be read: " + e.getMessage(),
                        null));
            }
        }
        if (options.wholeArchiveSelected()) {
            findPartitionsWithoutLog(new HashSet<>(cells), findings);
        }

        KeyScan keys = archive.descriptor().hasKey()
                ? new KeyScan(
                        states.values().stream()
                                .mapToLong(PartitionCommit::rowCount)
                                .sum(),
                        !options.wholeArchiveSelected())
                : null;
        PlacementScan placement = options.placement().enabled()
                ? new PlacementScan(
                        options.placement()
                                .stride(states.values().stream()
                                        .mapToLong(PartitionCommit::rowCount)
                                        .sum()),
                        options.maxDuplicateKeysReported())
                : null;
        List<ReadableFile> readable = new ArrayList<>();
        int files = 0;
        long rowsRead = 0;
        for (String cell : List.copyOf(states.keySet())) {
            PartitionCommit state = settledState(states.get(cell));
            states.put(cell, state);
            files += state.files().size();
            for (ReadableFile file : checkPartitionFiles(state, findings)) {
                Long rows = scan(file, keys, placement, findings);
                if (rows != null) {
                    rowsRead += rows;
                    readable.add(file);
                }
            }
        }
        long committedRows =
                states.values().stream().mapToLong(PartitionCommit::rowCount).sum();
        CommitReconciliation reconciliation = new CommitReconciliation(storage);
        states.values().forEach(state -> reconciliation.checkEntry(state, findings));
        for (CommittedOperation operation : options.operations()) {
            reconciliation.checkOperation(operation, states, findings);
        }
        if (keys != null && !keys.colliding.isEmpty()) {
            findDuplicates(readable, keys.colliding, options.maxDuplicateKeysReported(), findings);
        }
        if (keys != null && keys.partitionOf != null && !keys.partitionOf.isEmpty()) {
            findDuplicatesOutside(keys.partitionOf, states, options.maxDuplicateKeysReported(), findings);
        }
        if (options.expectedRows().isPresent() && options.expectedRows().getAsLong() != committedRows) {
            findings.problem(new Problem(
                    storage.describe(),
                    ProblemKind.TOTAL_MISMATCH,
                    "the archive holds " + committedRows + " rows, "
                            + options.expectedRows().getAsLong() + " were expected",
                    null));
        }
        if (placement != null) {
            placement.summarise(storage.describe(), findings);
        }
        Map<String, Long> versions = new LinkedHashMap<>();
        states.forEach((cell, state) -> versions.put(cell, state.version()));
        return new Pass(
                new VerificationReport(
                        storage.describe(),
                        archive.sourceCrs().toString(),
                        states.size(),
                        files,
                        committedRows,
                        rowsRead,
                        options.expectedRows(),
                        keys != null,
                        findings.problems,
                        findings.knownVariations,
                        placement == null ? OptionalLong.empty() : OptionalLong.of(placement.checked)),
                versions);
    }

    /**
     * The partition's state as its directory shows it. Between reading the state and listing the directory a writer
     * may commit and publish: the listing then holds files the state does not know, or lacks files it names. While
     * that is so and the partition has a newer commit, or a writer may be inside its publishing window, the state is
     * read again, a few times at most; whatever remains is reported by the check that follows.
     */
    private PartitionCommit settledState(PartitionCommit state) throws IOException {
        PartitionCommit current = state;
        boolean waited = false;
        for (int attempt = 1; attempt < ATTEMPTS; attempt++) {
            Findings probe = new Findings();
            checkPartitionFiles(current, probe);
            if (probe.problems.stream().noneMatch(problem -> PUBLISHING_WINDOW.contains(problem.kind()))) {
                return current;
            }
            PartitionCommit latest = archive.partitionState(current.cell());
            if (latest.version() == current.version()) {
                if (waited) {
                    return current; // no writer moved it on: what the check finds is the partition's real state
                }
                waited = true;
                sleep(PAUSE_MILLIS);
            }
            current = latest;
        }
        return current;
    }

    /** Pauses before looking again; an interrupt ends the verification instead of the pause alone. */
    private static void sleep(long millis) throws InterruptedIOException {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while verifying");
        }
    }

    /** A live file that exists (published or staged) and can be opened for reading. */
    private record ReadableFile(PartitionCommit state, String path, DataFileEntry entry) {

        String cell() {
            return state.cell();
        }
    }

    /**
     * Compares the partition's directory with its commit state and returns the live files that exist and are to
     * be read.
     */
    private List<ReadableFile> checkPartitionFiles(PartitionCommit state, Findings findings) throws IOException {
        String cell = state.cell();
        // Staging first, as recovery lists them: a file being published is then seen in at least one listing.
        Set<String> staged = new HashSet<>();
        for (StoredObject object : storage.list(ArchiveLayout.stagingDirectory(cell))) {
            staged.add(object.name());
        }
        Map<String, StoredObject> present = new HashMap<>();
        for (StoredObject object : storage.list(ArchiveLayout.partitionDirectory(cell))) {
            if (!object.directory()) {
                present.put(object.name(), object);
            }
        }
        List<ReadableFile> files = new ArrayList<>();
        for (DataFileEntry entry : state.files()) {
            String path = ArchiveLayout.dataFile(cell, entry.name());
            StoredObject object = present.get(entry.name());
            if (entry.stagedAs() != null && staged.contains(entry.stagedAs() + ArchiveLayout.REPLACEMENT_SUFFIX)) {
                findings.problem(new Problem(
                        path,
                        ProblemKind.UNPUBLISHED_FILE,
                        "is committed with new content (version "
                                + state.version()
                                + ") not yet published; plain readers see the content it replaces until the next"
                                + " writer of the partition publishes it",
                        null));
            } else if (object != null) {
                if (object.size() != entry.bytes()) {
                    findings.problem(new Problem(
                            path,
                            ProblemKind.SIZE_MISMATCH,
                            "is " + object.size() + " bytes, its commit entry (version " + state.version() + ") says "
                                    + entry.bytes(),
                            null));
                }
            } else if (staged.contains(entry.name() + ArchiveLayout.STAGED_SUFFIX)) {
                findings.problem(new Problem(
                        path,
                        ProblemKind.UNPUBLISHED_FILE,
                        "is committed (version " + state.version()
                                + ") but not yet published; plain readers miss its " + entry.rows()
                                + " rows until the next writer of the partition publishes it",
                        null));
            } else {
                findings.problem(new Problem(
                        path,
                        ProblemKind.MISSING_FILE,
                        "is committed (version " + state.version() + ") but neither published nor staged",
                        null));
                continue;
            }
            files.add(new ReadableFile(state, path, entry));
        }
        Set<String> live = new HashSet<>(state.fileNames());
        for (StoredObject object : present.values()) {
            String name = object.name();
            if (live.contains(name) || !name.endsWith(ArchiveLayout.DATA_FILE_SUFFIX)) {
                continue;
            }
            String path = ArchiveLayout.partitionDirectory(cell) + "/" + name;
            if (state.removed().contains(name)) {
                findings.problem(new Problem(
                        path,
                        ProblemKind.SUPERSEDED_FILE,
                        "was superseded by version " + state.version()
                                + " but is not deleted yet; plain readers read its rows too until the next writer deletes it",
                        null));
            } else {
                findings.problem(new Problem(
                        path,
                        ProblemKind.UNTRACKED_FILE,
                        "is in the partition directory but in no commit (version " + state.version()
                                + "); plain readers read it, the engine does not",
                        null));
            }
        }
        return files;
    }

    private void findPartitionsWithoutLog(Set<String> tracked, Findings findings) throws IOException {
        for (StoredObject directory : storage.list("")) {
            String cell = directory.directory() ? ArchiveLayout.cellOfPartitionDirectory(directory.name()) : null;
            if (cell == null || tracked.contains(cell)) {
                continue;
            }
            for (StoredObject object : storage.list(directory.name())) {
                if (!object.directory() && object.name().endsWith(ArchiveLayout.DATA_FILE_SUFFIX)) {
                    findings.problem(new Problem(
                            directory.name() + "/" + object.name(),
                            ProblemKind.UNTRACKED_FILE,
                            "is in a partition directory that has no commit log; plain readers read it, the engine does not",
                            null));
                }
            }
        }
    }

    /**
     * Checks a file's footer and reads every row, hashing keys and, when asked, keying rows again; returns rows read,
     * or null when unreadable.
     */
    private Long scan(ReadableFile file, KeyScan keys, PlacementScan placement, Findings findings) throws IOException {
        try (GeoParquetFileReader reader = LiveFiles.openAsIs(storage, file.state, file.entry)) {
            footerCheck.check(file.path, reader.footer(), predatesAdoption(file.entry), findings);
            FeatureKey.Extractor extractor = keys == null ? null : keyExtractor(reader);
            boolean placing = placement != null && reader.footer().schema().equals(archive.schema());
            FeatureKey.Extractor placementKeys =
                    placing && archive.descriptor().hasKey() ? archive.keyExtractor() : null;
            GeometryCodec codec = placing ? archive.geometryCodec() : null;
            long rows = 0;
            for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                Group row = it.next();
                long index = rows++;
                if (extractor != null) {
                    FeatureKey key = extractor.keyOf(row);
                    if (key != null) {
                        keys.add(key, file.cell());
                    }
                }
                if (placing && placement.selects()) {
                    placement.check(file, row, index, codec, placementKeys, findings);
                }
            }
            if (rows != file.entry.rows()) {
                findings.problem(new Problem(
                        file.path,
                        ProblemKind.ROW_COUNT_MISMATCH,
                        "holds " + rows + " rows, its commit entry says " + file.entry.rows(),
                        null));
            }
            return rows;
        } catch (NoSuchFileException superseded) {
            findings.problem(new Problem(
                    file.path,
                    ProblemKind.MISSING_FILE,
                    "was superseded while it was read: " + superseded.getMessage(),
                    null));
            return null;
        } catch (IOException | RuntimeException e) {
            requireDamage(e);
            String reason = e instanceof UncheckedIOException unchecked
                    ? unchecked.getCause().getMessage()
                    : e.getMessage();
            findings.problem(new Problem(file.path, ProblemKind.CORRUPT_FILE, "cannot be read: " + reason, null));
            return null;
        }
    }

    private FeatureKey.Extractor keyExtractor(GeoParquetFileReader reader) {
        try {
            return FeatureKey.extractor(
                    reader.footer().schema(), archive.descriptor().keyColumns());
        } catch (IllegalArgumentException e) {
            // Already reported as a schema mismatch; its keys cannot be compared.
            return null;
        }
    }

    private boolean predatesAdoption(DataFileEntry entry) {
        return adoptedAt != null && !entry.committedAt().isAfter(adoptedAt);
    }

    /** Second pass: exact keys, only for rows whose hash was seen more than once. */
    private void findDuplicates(List<ReadableFile> files, LongHashSet colliding, int maxReported, Findings findings)
            throws IOException {
        Map<FeatureKey, String> firstSeen = new HashMap<>();
        long duplicates = 0;
        for (ReadableFile file : files) {
            try (GeoParquetFileReader reader = LiveFiles.openAsIs(storage, file.state, file.entry)) {
                FeatureKey.Extractor extractor = FeatureKey.extractor(
                        reader.footer().schema(), archive.descriptor().keyColumns());
                for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                    FeatureKey key = extractor.keyOf(it.next());
                    if (key == null || !colliding.contains(KeyHashes.hash(key))) {
                        continue;
                    }
                    String first = firstSeen.putIfAbsent(key, file.path);
                    if (first != null) {
                        duplicates++;
                        if (duplicates <= maxReported) {
                            findings.problem(new Problem(
                                    file.path,
                                    ProblemKind.DUPLICATE_KEY,
                                    "key " + key + " ("
                                            + String.join(
                                                    ", ", archive.descriptor().keyColumns()) + ") also occurs in "
                                            + (first.equals(file.path) ? "this file" : first),
                                    null));
                        }
                    }
                }
            } catch (IOException | RuntimeException e) {
                requireDamage(e);
                findings.problem(new Problem(
                        file.path,
                        ProblemKind.CORRUPT_FILE,
                        "cannot be read again to compare keys: " + e.getMessage(),
                        null));
            }
        }
        if (duplicates > maxReported) {
            findings.problem(new Problem(
                    storage.describe(),
                    ProblemKind.DUPLICATE_KEY,
                    (duplicates - maxReported) + " more duplicate key occurrences not listed (" + duplicates
                            + " in all)",
                    null));
        }
    }

    /**
     * Keys of the verified partitions that a partition outside them holds too (section 9: keys are unique across the
     * archive, whatever the scope). The key index names the other partitions that hold a key; each is confirmed by
     * reading that partition's key columns, so only the partitions the index names are opened.
     */
    private void findDuplicatesOutside(
            Map<FeatureKey, String> partitionOf,
            Map<String, PartitionCommit> verified,
            int maxReported,
            Findings findings)
            throws IOException {
        Map<String, Set<FeatureKey>> wantedIn = new TreeMap<>();
        new KeyIndex(archive)
                .candidates(partitionOf.keySet())
                .forEach((key, cells) -> cells.stream()
                        .filter(cell -> !verified.containsKey(cell))
                        .forEach(cell -> wantedIn.computeIfAbsent(cell, c -> new HashSet<>())
                                .add(key)));
        KeyScanner scanner = new KeyScanner(archive);
        long duplicates = 0;
        for (Map.Entry<String, Set<FeatureKey>> wanted : wantedIn.entrySet()) {
            String cell = wanted.getKey();
            KeyScanner.Result found;
            PartitionCommit outside;
            try {
                outside = archive.partitionState(cell);
                found = scanner.scan(outside, wanted.getValue());
            } catch (IOException | RuntimeException e) {
                requireDamage(e);
                findings.problem(new Problem(
                        ArchiveLayout.partitionDirectory(cell),
                        ProblemKind.CORRUPT_FILE,
                        "cannot be read to compare keys with the verified partitions: " + e.getMessage(),
                        null));
                continue;
            }
            for (FeatureKey key : found.found()) {
                // The partitions were read at different moments: a key a concurrent writer moved between them in the
                // meantime is in both readings, though never in both partitions at once. Only when neither partition
                // has moved on since it was read do both readings hold together.
                String home = partitionOf.get(key);
                if (!unchangedSince(cell, outside) || !unchangedSince(home, verified.get(home))) {
                    continue;
                }
                if (++duplicates <= maxReported) {
                    findings.problem(new Problem(
                            ArchiveLayout.dataFile(cell, found.fileOf().get(key)),
                            ProblemKind.DUPLICATE_KEY,
                            "key " + key + " ("
                                    + String.join(", ", archive.descriptor().keyColumns())
                                    + ") also occurs in verified partition " + partitionOf.get(key)
                                    + " (this partition was not verified; the key index names it)",
                            null));
                }
            }
        }
        if (duplicates > maxReported) {
            findings.problem(new Problem(
                    storage.describe(),
                    ProblemKind.DUPLICATE_KEY,
                    (duplicates - maxReported)
                            + " more keys also occurring outside the verified partitions not listed (" + duplicates
                            + " in all)",
                    null));
        }
    }

    /** Whether no commit entry has been created in the partition since {@code read}, its state then. */
    private boolean unchangedSince(String cell, PartitionCommit read) throws IOException {
        return new PartitionLog(storage, cell).latestVersion() == read.version();
    }

    /** The placement check's state: which rows it keys again, how many it checked, how many it found wrong. */
    private final class PlacementScan {
        private final long stride;
        private final int maxReported;
        private long seen;
        private long checked;
        private long misplaced;
        private long unkeyable;

        PlacementScan(long stride, int maxReported) {
            this.stride = stride;
            this.maxReported = maxReported;
        }

        /** Whether the next row of the pass is one to check. */
        boolean selects() {
            return seen++ % stride == 0;
        }

        void check(
                ReadableFile file,
                Group row,
                long index,
                GeometryCodec codec,
                FeatureKey.Extractor keys,
                Findings findings) {
            checked++;
            FeatureKey key = keys == null ? null : keys.keyOf(row);
            String label = "row " + index + (key == null ? "" : " (key " + key + ")");
            String computed;
            try {
                computed = archive.keyer().cellOf(codec.decode(row, index), archive.sourceCrs());
            } catch (KeyingException | IllegalArgumentException e) {
                if (++unkeyable <= maxReported) {
                    findings.problem(new Problem(
                            file.path, ProblemKind.UNKEYABLE_ROW, label + " cannot be keyed: " + e.getMessage(), null));
                }
                return;
            }
            if (!computed.equals(file.cell()) && ++misplaced <= maxReported) {
                ObjectNode detail = JsonNodeFactory.instance.objectNode();
                detail.put("row", index);
                if (key != null) {
                    detail.put("key", key.toString());
                }
                detail.put("partition", file.cell());
                detail.put("computedCell", computed);
                findings.problem(new Problem(
                        file.path,
                        ProblemKind.MISPLACED_ROW,
                        label + ": its geometry's centroid lies in cell " + computed + ", not in this partition ("
                                + file.cell() + ")",
                        detail));
            }
        }

        /** The rows of each kind found beyond those listed one by one, as one problem of that kind. */
        void summarise(String archive, Findings findings) {
            summarise(archive, ProblemKind.MISPLACED_ROW, misplaced, "misplaced", findings);
            summarise(archive, ProblemKind.UNKEYABLE_ROW, unkeyable, "unkeyable", findings);
        }

        private void summarise(String archive, ProblemKind kind, long found, String what, Findings findings) {
            if (found > maxReported) {
                findings.problem(new Problem(
                        archive,
                        kind,
                        (found - maxReported) + " more " + what + " rows not listed (" + found + " in all)",
                        null));
            }
        }
    }

    /**
     * First pass of key uniqueness: every key's hash, and the hashes seen more than once. A verification of some
     * partitions also keeps each key with its partition, to look for it outside them.
     */
    private static final class KeyScan {
        private final LongHashSet seen;
        private final LongHashSet colliding = new LongHashSet(16);
        private final Map<FeatureKey, String> partitionOf;

        KeyScan(long expectedRows, boolean keepKeys) {
            this.seen = new LongHashSet(expectedRows);
            this.partitionOf = keepKeys ? new HashMap<>() : null;
        }

        void add(FeatureKey key, String cell) {
            long hash = KeyHashes.hash(key);
            if (!seen.add(hash)) {
                colliding.add(hash);
            }
            if (partitionOf != null) {
                partitionOf.putIfAbsent(key, cell);
            }
        }
    }
}
