package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.edited;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.key;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.withNewKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.adoption.AdoptionOptions;
import dev.nifigeoparquet.archive.adoption.ArchiveAdopter;
import dev.nifigeoparquet.archive.commit.ArchiveLease;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.compaction.Compactor;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage.Fault;
import dev.nifigeoparquet.archive.testing.FaultPoints;
import dev.nifigeoparquet.archive.testing.NextWriter;
import dev.nifigeoparquet.archive.testing.StorageBackend;
import dev.nifigeoparquet.archive.testing.TestFiles;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault matrix: every operation that changes an archive (append, upsert, a batch of upserts, delete in a cell and
 * by key alone, replace, a key that moves to another cell, compaction, creation, adoption, and the key index's journal
 * fold) runs once through a counting storage to learn how many storage calls it makes, and then once more per call and
 * with that call failing (in the heavy profile, once per fault kind). New storage calls are therefore covered without
 * editing this test.
 *
 * <p>After each fault the archive is recovered as the next writer would recover it (after the writer lease), and then:
 * <ul>
 *   <li>DuckDB, reading the directory as any plain reader does, sees exactly the old or exactly the new state: every
 *       row's content, the number of files of every partition, and whether a descriptor exists;</li>
 *   <li>every partition directory and index directory holds exactly the files its latest commit lists (no orphan, no
 *       superseded file), nothing is left in staging, nothing but entries in the logs;</li>
 *   <li>the committed row counts add up to what DuckDB counts;</li>
 *   <li>the verifier finds no problem: every live file carries the canonical footer (the {@code geo} block byte for
 *       byte) and schema, and no key is held twice;</li>
 *   <li>the key index names the cell of every key the archive holds;</li>
 *   <li>running the operation again lands the new state exactly once.</li>
 * </ul>
 *
 * <p>Runs on the local filesystem; a subclass overriding {@link #backend()} runs the same matrix on another storage.
 * The baselines are built on the local filesystem and imported into the backend, so every backend starts from the
 * same archives.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FaultMatrixTest {

    /** The storage the matrix runs on. */
    StorageBackend backend() {
        return StorageBackend.LOCAL;
    }

    /**
     * Points per operation the default profile picks besides the commit points (see {@link FaultPoints#sample}): about
     * 4 on the local filesystem.
     */
    int sampledPointsPerOperation() {
        return 4;
    }

    /**
     * Commit points per operation the default profile fails: every one on the local filesystem up to 6, which only the
     * key index's fold and merge exceed (they commit one entry per shard, the same calls at each).
     */
    int sampledCommitPointsPerOperation() {
        return 6;
    }

    /**
     * Parcels in the baseline archive: enough for a few partitions with a few rows each. Every fault point copies,
     * recovers, reads and verifies the whole archive, so its size sets the matrix's pace.
     */
    int parcels() {
        return 48;
    }

    private static final String REHOMING_ADOPTION = "adoption with re-homing";

    private final AtomicInteger exercised = new AtomicInteger();
    private final Map<String, String> summary = new TreeMap<>();

    @TempDir
    Path temp;

    /** An operation of the matrix: its baseline archive on the backend and what runs against it. */
    private record Operation(String name, Path baseline, Action action) {}

    @FunctionalInterface
    private interface Action {
        void run(ArchiveStorage storage) throws IOException;
    }

    /**
     * The default profile: every commit point of every operation and an even spread of its other storage calls fail
     * once each, the fault kind rotating (see {@link FaultPoints#sample}). The full product, every call of every operation with
     * every fault kind, runs in the heavy profile ({@link #everyStorageCallFailsWithEveryFaultKind}).
     */
    @TestFactory
    Stream<DynamicTest> everyStorageCallOfEveryOperationFailsInTurn() throws IOException {
        return operations().stream()
                .map(operation -> DynamicTest.dynamicTest(operation.name(), () -> exercise(operation, false)));
    }

    @Tag("heavy")
    @TestFactory
    Stream<DynamicTest> everyStorageCallFailsWithEveryFaultKind() throws IOException {
        return operations().stream()
                .map(operation -> DynamicTest.dynamicTest(operation.name(), () -> exercise(operation, true)));
    }

    @AfterAll
    void report() {
        System.out.println("fault matrix on " + backend() + ": " + exercised.get() + " fault points exercised over "
                + summary.size() + " operations");
        summary.forEach((operation, line) -> System.out.println("  " + operation + ": " + line));
    }

    // ---- the operations

    /** Whether the default run exercises this operation on the backend: every one on the local filesystem. */
    boolean exercisedByDefault(String operation) {
        return true;
    }

    /** The operations, their baselines built on the local filesystem and imported into the backend. */
    private List<Operation> operations() throws IOException {
        Path built = Files.createTempDirectory(temp, "built");
        List<Operation> operations = new ArrayList<>();
        Path baselines = Files.createTempDirectory(temp, "baselines");
        for (Operation local : localOperations(built, parcels())) {
            if (!FaultPoints.everyPoint() && !exercisedByDefault(local.name())) {
                continue;
            }
            Path baseline = backend()
                    .importTree(local.baseline(), baselines.resolve(local.name().replace(' ', '-')));
            operations.add(new Operation(local.name(), baseline, local.action()));
        }
        return operations;
    }

    private static List<Operation> localOperations(Path baselines, int parcelCount) throws IOException {
        ParcelArchive parcels = ParcelArchive.create(baselines.resolve("parcels"), parcelCount);
        List<String> cells = parcels.initial.entrySet().stream()
                .sorted(Comparator.comparingInt((Map.Entry<String, List<Group>> e) ->
                                -e.getValue().size())
                        .thenComparing(Map.Entry::getKey))
                .map(Map.Entry::getKey)
                .toList();
        String cell = cells.get(0);
        String other = cells.get(1);
        List<Group> rows = parcels.initial.get(cell);
        assertTrue(rows.size() >= 3, "the largest cell has a few rows: " + rows.size());
        Path base = parcels.root;

        List<Operation> operations = new ArrayList<>();
        operations.add(keyed(
                "append", base, cell, WriteMode.APPEND, List.of(DeltaRow.upsert(withNewKey(rows.get(0), "appended")))));
        operations.add(keyed(
                "upsert",
                base,
                cell,
                WriteMode.UPSERT,
                List.of(
                        DeltaRow.upsert(edited(rows.get(0), 123.0, BASE_TIME.plusSeconds(1))),
                        DeltaRow.upsert(withNewKey(rows.get(1), "inserted")))));
        operations.add(
                keyed("delete", base, cell, WriteMode.DELETE, List.of(DeltaRow.deletion(keyOnly(key(rows.get(0)))))));
        operations.add(keyed(
                "delete by key alone",
                base,
                null,
                WriteMode.DELETE,
                List.of(DeltaRow.deletion(keyOnly(key(rows.get(1)))))));
        operations.add(keyed(
                "replace",
                base,
                cell,
                WriteMode.REPLACE,
                List.of(
                        DeltaRow.upsert(edited(rows.get(0), 321.0, BASE_TIME.plusSeconds(1))),
                        DeltaRow.upsert(withNewKey(rows.get(1), "replacement")))));
        operations.add(keyed(
                "moved key",
                base,
                other,
                WriteMode.UPSERT,
                List.of(DeltaRow.upsert(ParcelArchive.movedTo(
                        rows.get(0), parcels.initial.get(other).get(0))))));
        operations.add(new Operation("batch of two upserts", base, storage -> {
            GeoParquetArchive archive = GeoParquetArchive.open(storage);
            new ArchiveWriter(archive)
                    .applyBatch(List.of(
                            PartitionDelta.prepare(
                                    archive,
                                    cell,
                                    WriteMode.UPSERT,
                                    List.of(DeltaRow.upsert(edited(rows.get(0), 11.0, BASE_TIME.plusSeconds(2)))),
                                    "batch-a"),
                            PartitionDelta.prepare(
                                    archive,
                                    cell,
                                    WriteMode.UPSERT,
                                    List.of(DeltaRow.upsert(withNewKey(rows.get(2), "batched"))),
                                    "batch-b")));
        }));

        Path compactable = TestFiles.copyTree(base, baselines.resolve("compaction"));
        GeoParquetArchive smallFiles = GeoParquetArchive.open(new LocalArchiveStorage(compactable));
        for (int i = 0; i < 3; i++) {
            ParcelArchive.apply(
                    smallFiles,
                    cell,
                    WriteMode.APPEND,
                    List.of(DeltaRow.upsert(withNewKey(rows.get(i), "small-" + i))));
        }
        operations.add(new Operation(
                "compaction", compactable, storage -> new Compactor(GeoParquetArchive.open(storage)).compact(cell)));

        Path foldable = TestFiles.copyTree(base, baselines.resolve("fold"));
        GeoParquetArchive journaled = GeoParquetArchive.open(new LocalArchiveStorage(foldable));
        for (int i = 0; journalFiles(foldable) != 15; i++) {
            assertTrue(i < 40, "the journal reaches 15 files");
            ParcelArchive.apply(
                    journaled,
                    cell,
                    WriteMode.APPEND,
                    List.of(DeltaRow.upsert(withNewKey(rows.get(0), "journal-" + i))));
        }
        operations.add(keyed(
                "index journal fold",
                foldable,
                cell,
                WriteMode.APPEND,
                List.of(DeltaRow.upsert(withNewKey(rows.get(1), "folds")))));

        // The journal one file short of its fold, and the shard the next key folds into one file short of its merge:
        // an append then commits, folds the journal and merges that shard's files.
        Path mergeable = TestFiles.copyTree(foldable, baselines.resolve("merge"));
        GeoParquetArchive indexed = GeoParquetArchive.open(new LocalArchiveStorage(mergeable));
        KeyIndex index = new KeyIndex(indexed);
        String mergingKey = "merges";
        String shard = index.shardOf(new FeatureKey(List.of(mergingKey)));
        for (int i = 0; shardFiles(indexed, shard) < 7; i++) {
            FeatureKey filler = new FeatureKey(List.of("filler-" + i));
            if (index.shardOf(filler).equals(shard)) {
                index.build(Map.of(filler, cell)); // an extra candidate: harmless by the index's superset rule
            }
        }
        operations.add(keyed(
                "index shard merge",
                mergeable,
                cell,
                WriteMode.APPEND,
                List.of(DeltaRow.upsert(withNewKey(rows.get(1), mergingKey)))));

        Path empty = Files.createDirectories(baselines.resolve("empty"));
        operations.add(new Operation("creation", empty, storage -> {
            if (!GeoParquetArchive.exists(storage)) {
                ArchiveCreator.create(
                        storage,
                        SyntheticParcels.archiveSpec(
                                ParcelArchive.RESOLUTION, WriterSettings.defaults(), "synthetic parcels"),
                        Clock.systemUTC());
            }
            GeoParquetArchive.open(storage);
        }));

        Path foreign = baselines.resolve("adoption");
        for (String c : cells.subList(0, 3)) {
            ArchiveFixtures.writeFile(
                    foreign.resolve("h3_cell=" + c).resolve("written-by-another-tool.parquet"),
                    SyntheticParcels.schema(),
                    SyntheticParcels.footer(),
                    parcels.initial.get(c));
        }
        operations.add(new Operation("adoption", foreign, storage -> {
            if (!GeoParquetArchive.exists(storage)) {
                ArchiveAdopter.adopt(
                        storage,
                        AdoptionOptions.withKey(SyntheticParcels.KEY).expectingResolution(ParcelArchive.RESOLUTION),
                        afterTheAdoptionLease(storage));
            }
            GeoParquetArchive.open(storage);
        }));

        // The same files, but the first row of the largest cell written under the second cell's directory: adoption
        // re-homes it in a transaction over both partitions before the descriptor is written.
        Path misplaced = baselines.resolve("adoption-rehome");
        List<Group> stray = List.of(parcels.initial.get(cells.get(0)).get(0));
        for (String c : cells.subList(0, 3)) {
            List<Group> cellRows = new ArrayList<>(parcels.initial.get(c));
            if (c.equals(cells.get(0))) {
                cellRows.removeAll(stray);
            } else if (c.equals(cells.get(1))) {
                cellRows.addAll(stray);
            }
            ArchiveFixtures.writeFile(
                    misplaced.resolve("h3_cell=" + c).resolve("written-by-another-tool.parquet"),
                    SyntheticParcels.schema(),
                    SyntheticParcels.footer(),
                    cellRows);
        }
        operations.add(new Operation(REHOMING_ADOPTION, misplaced, storage -> {
            if (!GeoParquetArchive.exists(storage)) {
                ArchiveAdopter.adopt(
                        storage,
                        AdoptionOptions.withKey(SyntheticParcels.KEY)
                                .expectingResolution(ParcelArchive.RESOLUTION)
                                .rehomingMisplacedRows(),
                        afterTheAdoptionLease(storage));
            }
            GeoParquetArchive.open(storage);
        }));
        return operations;
    }

    private static int shardFiles(GeoParquetArchive archive, String shard) throws IOException {
        return new PartitionLog(archive.storage(), shard).latest().files().size();
    }

    private static Operation keyed(String name, Path baseline, String cell, WriteMode mode, List<DeltaRow> delta) {
        return new Operation(
                name, baseline, storage -> ParcelArchive.apply(GeoParquetArchive.open(storage), cell, mode, delta));
    }

    // ---- the matrix

    private void exercise(Operation operation, boolean everyKind) throws IOException {
        StorageBackend backend = backend();
        Path work = Files.createDirectories(
                temp.resolve("run-" + operation.name().replace(' ', '-') + (everyKind ? "-all" : "")));
        Snapshot old = snapshot(operation.baseline());
        Path healthy = backend.copy(operation.baseline(), work.resolve("healthy"));
        FaultInjectingStorage counter = FaultInjectingStorage.counting(backend.storage(healthy));
        operation.action().run(counter);
        Snapshot updated = snapshot(healthy);
        assertNotEquals(old, updated, operation.name() + " changes the archive");
        assertConsistent(healthy, operation.name() + " without a fault");
        int calls = counter.callCount();

        int points = 0;
        int oldStates = 0;
        int failures = 0;
        List<FaultPoints.Point> sample = everyKind
                ? FaultPoints.every(counter.calls())
                : FaultPoints.sample(counter.calls(), sampledPointsPerOperation(), sampledCommitPointsPerOperation());
        for (FaultPoints.Point point : sample) {
            Fault fault = point.fault();
            int failAt = point.failAt();
            Path root = backend.copy(operation.baseline(), work.resolve(fault + "-" + failAt));
            FaultInjectingStorage faulty = new FaultInjectingStorage(backend.storage(root), failAt, fault);
            try {
                operation.action().run(faulty);
            } catch (IOException | RuntimeException injected) {
                failures++;
            }
            String where =
                    operation.name() + ", " + fault + " at call " + failAt + " of " + calls + " (" + point.call() + ")";
            recoverEverything(root);
            Snapshot state = snapshot(root);
            // Re-homing moves rows before the descriptor exists: the directory may hold the new rows without being
            // an archive yet, which the adoption run again completes (checked below).
            boolean rowsMovedBeforeTheDescriptor = operation.name().equals(REHOMING_ADOPTION)
                    && state.equals(new Snapshot(false, updated.rows(), updated.files()));
            assertTrue(
                    state.equals(old) || state.equals(updated) || rowsMovedBeforeTheDescriptor,
                    where + ": neither the old nor the new state: " + state + "\nold: " + old + "\nnew: " + updated);
            if (state.equals(old)) {
                oldStates++;
            }
            assertConsistent(root, where);

            operation.action().run(backend.storage(root));
            assertEquals(updated, snapshot(root), where + ": the retried operation lands exactly once");
            backend.delete(root);
            points++;
        }
        assertTrue(oldStates > 0, operation.name() + ": some faults come before the commit point");
        exercised.addAndGet(points);
        String line = points + " fault points (" + calls + " calls"
                + (everyKind
                        ? " x " + Fault.values().length + " fault kinds"
                        : " sampled, kinds rotating, rotation " + FaultPoints.rotation())
                + "; " + failures
                + " made the operation fail, " + oldStates + " left the old state, " + (points - oldStates)
                + " the new)";
        summary.put(operation.name() + (everyKind ? " (every kind)" : ""), line);
        System.out.println(operation.name() + " on " + backend + ": " + line);
    }

    /**
     * What the next writer does, for every partition and index partition: recovery after the writer lease. Before a
     * descriptor exists, the next writer is the adoption run again, which completes the publishing of every partition
     * an interrupted adoption committed.
     */
    private void recoverEverything(Path root) throws IOException {
        NextWriter.recoverEverything(backend().storage(root));
    }

    /**
     * The clock of the next adopter: an adoption that crashed left its lease held until it lapses, and the adoption run
     * again (like every next writer here, after the lease) comes after that.
     */
    private static Clock afterTheAdoptionLease(ArchiveStorage storage) throws IOException {
        Instant now = Instant.now();
        return new ArchiveLease(storage, ArchiveAdopter.ADOPTION_LEASE, Clock.systemUTC())
                .latest()
                .filter(lease -> lease.heldAt(now))
                .map(lease -> Clock.offset(
                        Clock.systemUTC(),
                        Duration.between(now, lease.expiresAt()).plusSeconds(1)))
                .orElse(Clock.systemUTC());
    }

    /** The invariants every recovered archive satisfies, whatever state it is in. */
    private void assertConsistent(Path root, String where) throws IOException {
        StorageBackend backend = backend();
        ArchiveStorage storage = backend.storage(root);
        if (!GeoParquetArchive.exists(storage)) {
            return;
        }
        Path view = backend.plainReaderView(root);
        GeoParquetArchive archive = GeoParquetArchive.open(storage);
        Set<String> cells = new TreeSet<>(archive.partitionCells());
        for (StoredObject entry : storage.list("")) {
            String cell = entry.directory() ? ArchiveLayout.cellOfPartitionDirectory(entry.name()) : null;
            if (cell != null) {
                cells.add(cell);
            }
        }
        long committedRows = 0;
        for (String cell : cells) {
            PartitionCommit state = new PartitionLog(storage, cell).latest();
            committedRows += state.rowCount();
            assertEquals(
                    new TreeSet<>(state.fileNames()),
                    backend.names(root, ArchiveLayout.partitionDirectory(cell)),
                    where + ": partition " + cell + " holds exactly its committed files");
            assertLogHoldsOnlyEntries(root, cell, where);
        }
        List<String> indexPartitions = new ArrayList<>();
        for (StoredObject log : storage.list(ArchiveLayout.LOG_DIRECTORY)) {
            if (log.directory()
                    && (ArchiveLayout.isIndexShard(log.name()) || log.name().equals(ArchiveLayout.INDEX_JOURNAL))) {
                indexPartitions.add(log.name());
            }
        }
        for (String id : indexPartitions) {
            PartitionCommit state = new PartitionLog(storage, id).latest();
            assertEquals(
                    new TreeSet<>(state.fileNames()),
                    backend.names(root, ArchiveLayout.INDEX_DIRECTORY + "/" + id),
                    where + ": index partition " + id + " holds exactly its committed files");
            assertLogHoldsOnlyEntries(root, id, where);
        }
        for (StoredObject staging : storage.list(ArchiveLayout.STAGING_DIRECTORY)) {
            assertTrue(
                    staging.directory(),
                    where + ": nothing but partitions' staging directories in staging: " + staging.name());
            assertEquals(
                    Set.of(),
                    backend.names(root, ArchiveLayout.STAGING_DIRECTORY + "/" + staging.name()),
                    where + ": staging of " + staging.name() + " is empty after recovery");
        }
        assertEquals(
                committedRows, duckDbRows(view), where + ": committed row counts add up to what a plain reader counts");

        VerificationReport report = new ArchiveVerifier(archive).verify();
        assertTrue(report.consistent(), where + ": " + report);

        Map<FeatureKey, String> truth = new TreeMap<>(Comparator.comparing(FeatureKey::indexText));
        for (List<Object> row : duckDb(
                view, "SELECT " + SyntheticParcels.KEY + ", h3_cell FROM read_parquet(?, hive_partitioning = true)")) {
            truth.put(new FeatureKey(List.of((String) row.get(0))), (String) row.get(1));
        }
        Map<FeatureKey, Set<String>> candidates = new KeyIndex(archive).candidates(truth.keySet());
        truth.forEach((key, cell) -> assertTrue(
                candidates.get(key).contains(cell),
                where + ": the key index finds " + key + " in " + cell + ", has " + candidates.get(key)));
    }

    private void assertLogHoldsOnlyEntries(Path root, String id, String where) throws IOException {
        for (String name : backend().names(root, ArchiveLayout.logDirectory(id))) {
            assertTrue(ArchiveLayout.logEntryVersion(name) > 0, where + ": debris in the log of " + id + ": " + name);
        }
    }

    /** What a plain reader of the archive {@code root} on the backend observes. */
    private Snapshot snapshot(Path root) throws IOException {
        boolean descriptor = backend().storage(root).exists(ArchiveLayout.DESCRIPTOR);
        return Snapshot.of(backend().plainReaderView(root), descriptor);
    }

    /**
     * What a plain reader observes: whether the archive has a descriptor, every row's content by partition (as DuckDB
     * renders it, sorted), and the number of data files in each partition directory.
     */
    private record Snapshot(boolean descriptor, Map<String, List<String>> rows, Map<String, Integer> files) {

        /** The snapshot of a plain reader's local view of an archive. */
        static Snapshot of(Path view, boolean descriptor) throws IOException {
            Map<String, List<String>> rows = new TreeMap<>();
            for (List<Object> row : duckDb(
                    view, "SELECT h3_cell, CAST(t AS VARCHAR) FROM read_parquet(?, hive_partitioning = true) t")) {
                rows.computeIfAbsent((String) row.get(0), c -> new ArrayList<>())
                        .add((String) row.get(1));
            }
            rows.values().forEach(list -> list.sort(null));
            Map<String, Integer> files = new TreeMap<>();
            if (Files.isDirectory(view)) {
                try (Stream<Path> children = Files.list(view)) {
                    Stream<Path> partitions =
                            children.filter(p -> p.getFileName().toString().startsWith(ArchiveLayout.PARTITION_PREFIX));
                    for (Path partition : (Iterable<Path>) partitions::iterator) {
                        int count = (int) TestFiles.names(partition).stream()
                                .filter(n -> n.endsWith(ArchiveLayout.DATA_FILE_SUFFIX))
                                .count();
                        if (count > 0) {
                            files.put(partition.getFileName().toString(), count);
                        }
                    }
                }
            }
            return new Snapshot(descriptor, rows, files);
        }

        @Override
        public String toString() {
            return "descriptor " + descriptor + ", rows per partition "
                    + rows.entrySet().stream()
                            .map(e -> e.getKey() + "=" + e.getValue().size())
                            .toList() + ", files " + files;
        }
    }

    private static List<List<Object>> duckDb(Path root, String sql) throws IOException {
        if (!hasDataFiles(root)) {
            return List.of();
        }
        return DuckDb.query(sql, root + "/*/*.parquet");
    }

    private static long duckDbRows(Path root) throws IOException {
        return hasDataFiles(root)
                ? ((Number) duckDb(root, "SELECT count(*) FROM read_parquet(?)")
                                .get(0)
                                .get(0))
                        .longValue()
                : 0;
    }

    private static boolean hasDataFiles(Path root) throws IOException {
        if (!Files.isDirectory(root)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(root, 2)) {
            return files.anyMatch(p -> p.getFileName().toString().endsWith(ArchiveLayout.DATA_FILE_SUFFIX)
                    && p.getParent().getFileName().toString().startsWith(ArchiveLayout.PARTITION_PREFIX));
        }
    }

    private static int journalFiles(Path root) throws IOException {
        return new PartitionLog(new LocalArchiveStorage(root), ArchiveLayout.INDEX_JOURNAL)
                .latest()
                .files()
                .size();
    }

    private static Group keyOnly(String id) {
        Group row = new SimpleGroup(SyntheticParcels.schema());
        row.add(SyntheticParcels.KEY, id);
        return row;
    }
}
