package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage.Fault;
import dev.nifigeoparquet.archive.testing.FaultPoints;
import dev.nifigeoparquet.archive.testing.ForwardingStorage;
import dev.nifigeoparquet.archive.testing.NextWriter;
import dev.nifigeoparquet.archive.testing.TestFiles;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault matrix over the steps that only run when another writer gets in the way of a transaction: the key index's
 * journal entry rebased over another writer's journal commit, and a plan refused because another writer changed a
 * partition it read, then made again. A moved-key upsert (A) runs while a second writer (B, another engine, never
 * faulty) commits at the worst moment; every storage call of A then fails in turn. After recovery the archive must be
 * what B alone, A after B, or neither made (never A's plan on a state it did not read), and applying both again must
 * land exactly A after B.
 */
class ConcurrentCommitFaultTest {

    /** Storage calls sampled besides the commit points (the heavy profile runs every call with every fault). */
    private static final int SPREAD = 12;

    @TempDir
    Path temp;

    /** B records another key in the journal just before A creates its journal entry: A rebases its entry over B's. */
    @Test
    void theJournalEntryRebasedOverAnotherWritersCommitSurvivesEveryFault() throws IOException {
        exercise("rebase", false, ArchiveLayout.logDirectory(ArchiveLayout.INDEX_JOURNAL) + "/");
    }

    /** B updates A's key in place, with a newer version, just before A creates its entries: A must plan again. */
    @Test
    void aPlanMadeStaleByAnotherWriterSurvivesEveryFault() throws IOException {
        exercise("replan", true, ArchiveLayout.LOG_DIRECTORY + "/8");
    }

    /** Fails the sampled storage calls of A's run (see {@link FaultPoints}) while B commits in the middle of it. */
    private void exercise(String name, boolean sameKey, String triggerPrefix) throws IOException {
        ParcelArchive base = ParcelArchive.create(temp.resolve(name + "-base"), 60);
        List<String> cells = base.largestCells(3);
        Group moving = base.initial.get(cells.get(0)).get(0);
        List<DeltaRow> a = List.of(DeltaRow.upsert(
                ParcelArchive.movedTo(moving, base.initial.get(cells.get(1)).get(0))));
        String aTarget = cells.get(1);
        List<DeltaRow> b;
        String bTarget;
        if (sameKey) {
            // Newer than A's row: once B is in, A's older row is skipped wherever it would go.
            b = List.of(DeltaRow.upsert(ParcelArchive.edited(moving, 555.0, BASE_TIME.plusSeconds(3600))));
            bTarget = cells.get(0);
        } else {
            b = List.of(DeltaRow.upsert(
                    ParcelArchive.withNewKey(base.initial.get(cells.get(2)).get(0), "by-the-other-writer")));
            bTarget = cells.get(2);
        }

        Map<String, String> old = table(base.root);
        Map<String, String> bOnly = afterApplying(base.root, temp.resolve(name + "-b"), List.of(bTarget), List.of(b));
        Map<String, String> bThenA =
                afterApplying(base.root, temp.resolve(name + "-ba"), List.of(bTarget, aTarget), List.of(b, a));
        assertTrue(
                !bOnly.equals(old) && (sameKey ? bThenA.equals(bOnly) : !bThenA.equals(bOnly)),
                "the three states differ as expected");

        Path counted = TestFiles.copyTree(base.root, temp.resolve(name + "-counted"));
        FaultInjectingStorage counter = FaultInjectingStorage.counting(new LocalArchiveStorage(counted));
        Interfering interfering = new Interfering(counter, triggerPrefix, counted, bTarget, b);
        ParcelArchive.apply(GeoParquetArchive.open(interfering), aTarget, WriteMode.UPSERT, a);
        assertTrue(interfering.fired, "the other writer committed in the middle of the operation");
        assertEquals(bThenA, table(counted), "without a fault, A lands after B");
        List<String> calls = counter.calls();

        List<FaultPoints.Point> points = FaultPoints.of(calls, SPREAD);
        for (FaultPoints.Point point : points) {
            Fault fault = point.fault();
            int failAt = point.failAt();
            Path root = TestFiles.copyTree(base.root, temp.resolve(name + "-" + fault + "-" + failAt));
            FaultInjectingStorage faulty = new FaultInjectingStorage(new LocalArchiveStorage(root), failAt, fault);
            try {
                ParcelArchive.apply(
                        GeoParquetArchive.open(new Interfering(faulty, triggerPrefix, root, bTarget, b)),
                        aTarget,
                        WriteMode.UPSERT,
                        a);
            } catch (IOException | RuntimeException injected) {
                // the injected fault
            }
            String where = name + ": " + fault + " at call " + failAt + " (" + point.call() + ")";
            LocalArchiveStorage storage = new LocalArchiveStorage(root);
            NextWriter.recoverEverything(storage);
            Map<String, String> state = table(root);
            assertTrue(
                    state.equals(old) || state.equals(bOnly) || state.equals(bThenA),
                    where + ": neither old, B, nor A after B: " + state);
            assertConsistent(GeoParquetArchive.open(storage), where);

            GeoParquetArchive next = GeoParquetArchive.open(storage);
            ParcelArchive.apply(next, bTarget, WriteMode.UPSERT, b);
            ParcelArchive.apply(next, aTarget, WriteMode.UPSERT, a);
            assertEquals(bThenA, table(root), where + ": applying both again lands A after B exactly once");
            TestFiles.deleteTree(root);
        }
        System.out.println("concurrent commit faults, " + name + ": " + FaultPoints.describe(points, calls.size()));
    }

    private Map<String, String> afterApplying(Path base, Path copy, List<String> targets, List<List<DeltaRow>> deltas)
            throws IOException {
        TestFiles.copyTree(base, copy);
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(copy));
        for (int i = 0; i < deltas.size(); i++) {
            ParcelArchive.apply(archive, targets.get(i), WriteMode.UPSERT, deltas.get(i));
        }
        return table(copy);
    }

    private static void assertConsistent(GeoParquetArchive archive, String where) throws IOException {
        VerificationReport report = new ArchiveVerifier(archive).verify();
        assertTrue(report.consistent(), where + ": " + report.problems());
        Map<String, String> cells = new TreeMap<>();
        table(((LocalArchiveStorage) archive.storage()).root())
                .forEach((key, row) -> cells.put(key, row.split(" ", -1)[0]));
        Map<FeatureKey, Set<String>> candidates = new KeyIndex(archive)
                .candidates(cells.keySet().stream()
                        .map(key -> new FeatureKey(List.of(key)))
                        .toList());
        cells.forEach((key, cell) -> assertTrue(
                candidates.get(new FeatureKey(List.of(key))).contains(cell),
                where + ": the key index finds " + key + " in " + cell));
    }

    /** key -> "cell area", as DuckDB reads the directory; a key held twice fails. */
    private static Map<String, String> table(Path root) {
        Map<String, String> table = new TreeMap<>();
        for (List<Object> row : DuckDb.query(
                "SELECT parcel_id, h3_cell, area_m2 FROM read_parquet(?, hive_partitioning = true)",
                root + "/*/*.parquet")) {
            assertEquals(
                    null,
                    table.put((String) row.get(0), row.get(1) + " " + ((Number) row.get(2)).doubleValue()),
                    "key " + row.get(0) + " is held twice");
        }
        return table;
    }

    /**
     * A's storage: just before A's first exclusive creation under {@code triggerPrefix}, another writer (its own engine
     * on its own, healthy storage of the same directory) applies B.
     */
    private static final class Interfering extends ForwardingStorage {
        private final String triggerPrefix;
        private final Path root;
        private final String bTarget;
        private final List<DeltaRow> b;
        boolean fired;

        Interfering(ArchiveStorage delegate, String triggerPrefix, Path root, String bTarget, List<DeltaRow> b) {
            super(delegate);
            this.triggerPrefix = triggerPrefix;
            this.root = root;
            this.bTarget = bTarget;
            this.b = new ArrayList<>(b);
        }

        @Override
        public void createExclusive(String path, byte[] content) throws IOException {
            if (!fired && path.startsWith(triggerPrefix)) {
                fired = true;
                GeoParquetArchive other = GeoParquetArchive.open(new LocalArchiveStorage(root));
                ParcelArchive.apply(other, bTarget, WriteMode.UPSERT, b);
            }
            delegate.createExclusive(path, content);
        }
    }
}
