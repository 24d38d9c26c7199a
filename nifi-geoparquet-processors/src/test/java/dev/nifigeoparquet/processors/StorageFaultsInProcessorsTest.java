package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionRecovery;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage.Fault;
import dev.nifigeoparquet.archive.testing.FaultPoints;
import dev.nifigeoparquet.archive.testing.TestFiles;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService;
import dev.nifigeoparquet.processors.testing.FaultyArchiveService;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.nifi.processor.Relationship;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage fault matrix through the processors: UpsertGeoParquetPartition and CompactGeoParquetPartition run in a
 * TestRunner on an archive service whose storage fails at one call ({@link FaultyArchiveService}). A clean run counts
 * the calls the processor makes for its FlowFile; then every one of them fails in turn (the default profile rotates
 * the fault kind over the calls, the heavy profile runs every kind at every call). For each point:
 * <ul>
 *   <li>the FlowFile goes to {@code retry} or {@code failure} with its content kept, or to {@code success} only when
 *       the archive holds the new state (a fault after the commit point that the engine completes itself);</li>
 *   <li>after recovery (what the next writer does, after the writer lease) DuckDB sees exactly the old or the new
 *       state, every row and the number of files of every partition, and the verifier finds nothing wrong;</li>
 *   <li>the same FlowFile delivered again to a freshly enabled service (a restarted node) goes to {@code success} and
 *       the archive then holds the new state exactly once.</li>
 * </ul>
 */
class StorageFaultsInProcessorsTest {

    @TempDir
    Path dir;

    /** A processor, the FlowFile it gets and the archive it starts from. */
    @SuppressWarnings("ArrayRecordComponent") // carries bytes along, never compared or hashed
    private record Case(String name, Path baseline, byte[] content, Map<String, String> attributes, Runner runner) {}

    @FunctionalInterface
    private interface Runner {
        TestRunner create(Path root, StandardGeoParquetArchiveService service) throws Exception;
    }

    /** Calls failed besides the commit points and the ends by default (see {@link FaultPoints#sample}). */
    private static final int SPREAD = 12;

    private static final Relationship SUCCESS = UpsertGeoParquetPartition.REL_SUCCESS;
    private static final Relationship RETRY = UpsertGeoParquetPartition.REL_RETRY;
    private static final Relationship FAILURE = UpsertGeoParquetPartition.REL_FAILURE;

    @Test
    void everyStorageCallOfAnUpsertFailsInTurn() throws Exception {
        exercise(upsertCase(), false);
    }

    @Test
    void everyStorageCallOfACompactionFailsInTurn() throws Exception {
        exercise(compactionCase(), false);
    }

    @Tag("heavy")
    @Test
    void everyStorageCallOfAnUpsertFailsWithEveryFaultKind() throws Exception {
        exercise(upsertCase(), true);
    }

    @Tag("heavy")
    @Test
    void everyStorageCallOfACompactionFailsWithEveryFaultKind() throws Exception {
        exercise(compactionCase(), true);
    }

    /** A routed GeoParquet delta for the largest cell: two edits, two new keys, one deletion. */
    private Case upsertCase() throws Exception {
        Path root = dir.resolve("upsert-baseline");
        ParcelArchives parcels = ParcelArchives.create(root, 200);
        Path delta = ChainFixtures.geoParquetDelta(dir.resolve("delta.parquet"), ChainFixtures.delta(parcels));
        MockFlowFile routed = ChainFixtures.routeGeoParquet(root, delta).stream()
                .filter(f ->
                        f.getAttribute("h3.cell").equals(parcels.cellsBySize().get(0)))
                .findFirst()
                .orElseThrow();
        return new Case(
                "upsert",
                root,
                routed.toByteArray(),
                routed.getAttributes(),
                (archive, service) -> ChainFixtures.upsert(archive, GeoParquetReader::new, service));
    }

    /** The largest cell's two files merged into one. */
    private Case compactionCase() throws Exception {
        Path root = dir.resolve("compaction-baseline");
        ParcelArchives parcels = ParcelArchives.create(root, 200);
        return new Case(
                "compaction",
                root,
                new byte[0],
                Map.of("h3.cell", parcels.cellsBySize().get(0)),
                (archive, service) -> {
                    TestRunner runner = ChainFixtures.compact(archive, service);
                    runner.setProperty(CompactGeoParquetPartition.MIN_FILES, "1");
                    return runner;
                });
    }

    private void exercise(Case operation, boolean everyKind) throws Exception {
        Snapshot old = Snapshot.of(operation.baseline());
        Path healthy = TestFiles.copyTree(operation.baseline(), dir.resolve(operation.name() + "-healthy"));
        FaultyArchiveService counter = FaultyArchiveService.counting();
        TestRunner clean = operation.runner().create(healthy, counter);
        int enabling = counter.storage().callCount();
        clean.enqueue(operation.content(), operation.attributes());
        clean.run();
        clean.assertAllFlowFilesTransferred(SUCCESS, 1);
        int calls = counter.storage().callCount() - enabling;
        Snapshot updated = Snapshot.of(healthy);
        assertNotEquals(old, updated, operation.name() + " changes the archive");

        Map<String, Integer> routedTo = new TreeMap<>();
        List<String> failures = new ArrayList<>();
        int points = 0;
        int oldStates = 0;
        List<String> operationCalls = counter.storage().calls().subList(enabling, enabling + calls);
        List<FaultPoints.Point> sample =
                everyKind ? FaultPoints.every(operationCalls) : FaultPoints.sample(operationCalls, SPREAD);
        for (FaultPoints.Point point : sample) {
            int failAt = point.failAt();
            Fault fault = point.fault();
            Path root = TestFiles.copyTree(
                    operation.baseline(), dir.resolve(operation.name() + "-" + fault + "-" + failAt));
            FaultyArchiveService service = new FaultyArchiveService(enabling + failAt, fault);
            TestRunner runner = operation.runner().create(root, service);
            assertEquals(
                    enabling, service.storage().callCount(), "enabling the service makes the same calls every time");
            runner.enqueue(operation.content(), operation.attributes());
            runner.run();
            String call = service.storage().calls().size() >= enabling + failAt
                    ? service.storage().calls().get(enabling + failAt - 1)
                    : "not reached";
            String where = operation.name() + ", " + fault + " at call " + failAt + " of " + calls + " (" + call + ")";

            Relationship landed = landed(runner, where);
            routedTo.merge(landed.getName(), 1, Integer::sum);
            if (!landed.equals(SUCCESS)) {
                MockFlowFile kept = runner.getFlowFilesForRelationship(landed).get(0);
                assertArrayEquals(operation.content(), kept.toByteArray(), where + ": the FlowFile's content is kept");
                if (landed.equals(FAILURE)) {
                    failures.add(where + ": " + kept.getAttribute("error.message"));
                }
            }

            recoverEverything(root);
            Snapshot state = Snapshot.of(root);
            assertTrue(
                    state.equals(old) || state.equals(updated),
                    where + " -> " + landed.getName() + ": neither the old nor the new state: " + state + "\nold: "
                            + old + "\nnew: " + updated);
            if (landed.equals(SUCCESS)) {
                assertEquals(updated, state, where + ": success only with the new state");
            }
            if (state.equals(old)) {
                oldStates++;
            }
            VerificationReport report =
                    new ArchiveVerifier(GeoParquetArchive.open(new LocalArchiveStorage(root))).verify();
            assertTrue(report.consistent(), where + ": " + report);

            TestRunner restarted = operation.runner().create(root, new StandardGeoParquetArchiveService());
            restarted.enqueue(operation.content(), operation.attributes());
            restarted.run();
            restarted.assertAllFlowFilesTransferred(SUCCESS, 1);
            assertEquals(updated, Snapshot.of(root), where + ": the redelivered FlowFile lands exactly once");
            deleteTree(root);
            points++;
        }
        assertTrue(oldStates > 0, operation.name() + ": some faults come before the commit point");
        System.out.println(
                "processor fault matrix, " + operation.name() + (everyKind ? " (every kind)" : "") + ": " + points
                        + " fault points (" + calls + " storage calls after " + enabling + " to enable the service"
                        + (everyKind
                                ? " x " + Fault.values().length + " fault kinds"
                                : ", sampled, kinds rotating, rotation " + FaultPoints.rotation())
                        + "); FlowFiles routed to "
                        + routedTo + "; " + oldStates + " left the old state, " + (points - oldStates) + " the new");
        failures.forEach(failure -> System.out.println("  to failure: " + failure));
    }

    /** The one relationship the FlowFile went to; never lost, never duplicated. */
    private static Relationship landed(TestRunner runner, String where) {
        List<Relationship> landed = new ArrayList<>();
        for (Relationship relationship : List.of(SUCCESS, RETRY, FAILURE)) {
            for (int i = 0; i < runner.getFlowFilesForRelationship(relationship).size(); i++) {
                landed.add(relationship);
            }
        }
        assertEquals(1, landed.size(), where + ": the FlowFile went to exactly one relationship: " + landed);
        assertEquals(0, runner.getQueueSize().getObjectCount(), where + ": nothing is left in the queue");
        return landed.get(0);
    }

    /** What the next writer does for every partition and index partition: recovery after the writer lease. */
    private static void recoverEverything(Path root) throws IOException {
        LocalArchiveStorage storage = new LocalArchiveStorage(root);
        GeoParquetArchive archive = GeoParquetArchive.open(storage);
        Set<String> partitions = new TreeSet<>();
        for (String directory : List.of(ArchiveLayout.LOG_DIRECTORY, ArchiveLayout.STAGING_DIRECTORY)) {
            for (StoredObject child : storage.list(directory)) {
                if (child.directory()) {
                    partitions.add(child.name());
                }
            }
        }
        Instant afterLease = Instant.now().plus(Duration.ofDays(1));
        for (String partition : partitions) {
            new PartitionRecovery(storage, archive.descriptor().protocol()).recover(partition, afterLease);
        }
    }

    /** What a plain reader observes: every row's content by partition (as DuckDB renders it) and the data files per partition. */
    private record Snapshot(Map<String, List<String>> rows, Map<String, Integer> files) {

        static Snapshot of(Path root) throws IOException {
            Map<String, List<String>> rows = new TreeMap<>();
            for (List<Object> row : DuckDb.query(
                    "SELECT h3_cell, CAST(t AS VARCHAR) FROM read_parquet(?, hive_partitioning = true) t",
                    root + "/*/*.parquet")) {
                rows.computeIfAbsent((String) row.get(0), c -> new ArrayList<>())
                        .add((String) row.get(1));
            }
            rows.values().forEach(list -> list.sort(null));
            Map<String, Integer> files = new TreeMap<>();
            try (Stream<Path> partitions = Files.list(root)) {
                for (Path partition : (Iterable<Path>) partitions.filter(
                        p -> p.getFileName().toString().startsWith(ArchiveLayout.PARTITION_PREFIX))::iterator) {
                    files.put(partition.getFileName().toString(), (int) TestFiles.names(partition).stream()
                            .filter(n -> n.endsWith(ArchiveLayout.DATA_FILE_SUFFIX))
                            .count());
                }
            }
            files.values().removeIf(count -> count == 0);
            return new Snapshot(rows, files);
        }

        @Override
        public String toString() {
            return "rows per partition "
                    + rows.entrySet().stream()
                            .map(e -> e.getKey() + "=" + e.getValue().size())
                            .toList() + ", files " + files;
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        }
    }
}
