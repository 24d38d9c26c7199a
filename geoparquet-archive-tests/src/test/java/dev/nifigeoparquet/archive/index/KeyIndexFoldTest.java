package dev.nifigeoparquet.archive.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.PausingStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Folds of the key index's journal by two processes that overlap. Each process folds when a commit of its own leaves
 * the journal long enough, and nothing serialises folds across processes.
 */
class KeyIndexFoldTest {

    private static final String FIRST = "851f9a7bfffffff";
    private static final String SECOND = "851f9a73fffffff";

    @TempDir
    Path temp;

    @Test
    void aSlowFoldOfAnOlderJournalStateDoesNotOverrideANewerFoldOfAKeyMovedBack() throws Exception {
        Path root = temp.resolve("archive");
        ArchiveSpec spec = SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "overlapping folds");
        ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
        FeatureKey moved = new FeatureKey(List.of("p-27"));
        // Two nodes on one shared directory: the second reaches it by another path, so it is another process to the
        // first (no lock of the first one is shared).
        Path alias = Files.createSymbolicLink(temp.resolve("second-node"), root);
        String shard = new KeyIndex(GeoParquetArchive.open(new LocalArchiveStorage(root))).shardOf(moved);
        PausingStorage slow = new PausingStorage(
                new LocalArchiveStorage(root), path -> path.startsWith(ArchiveLayout.stagingDirectory(shard) + "/"));
        KeyIndex first = new KeyIndex(GeoParquetArchive.open(slow));
        KeyIndex second = new KeyIndex(GeoParquetArchive.open(new LocalArchiveStorage(alias)));

        for (int i = 0; i < KeyIndex.FOLD_JOURNAL_AT - 2; i++) {
            first.record(Map.of(new FeatureKey(List.of("other-" + i)), FIRST), Map.of());
        }
        first.record(Map.of(moved, FIRST), Map.of());
        // The first node moves the key to the second cell; its commit leaves the journal due for a fold, which reads
        // the journal and is then held before it writes the key's shard.
        CompletableFuture<Void> slowFold = CompletableFuture.runAsync(() -> {
            try {
                first.record(Map.of(moved, SECOND), Map.of(moved, FIRST));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(slow.awaitPaused(30), "the first node's fold reached the key's shard");
        // Meanwhile the second node moves the key back and folds the whole journal, which it then prunes.
        second.record(Map.of(moved, FIRST), Map.of(moved, SECOND));
        PartitionLog journal = new PartitionLog(new LocalArchiveStorage(root), ArchiveLayout.INDEX_JOURNAL);
        assertEquals(List.of(), journal.latest().files(), "the second node folded and pruned the journal");
        long shardVersionAfterNewerFold =
                new PartitionLog(new LocalArchiveStorage(root), shard).latest().version();

        slow.resume();
        slowFold.get(60, TimeUnit.SECONDS);

        for (KeyIndex node : List.of(first, second)) {
            assertEquals(
                    Set.of(FIRST), node.candidates(List.of(moved)).get(moved), "the key is where it was moved back");
        }
        PartitionCommit shardState = new PartitionLog(new LocalArchiveStorage(root), shard).latest();
        assertEquals(
                shardVersionAfterNewerFold,
                shardState.version(),
                "the older fold added nothing after the newer one: " + shardState.recentOperationIds());
        GeoParquetArchive fresh = GeoParquetArchive.open(new LocalArchiveStorage(root));
        assertEquals(
                Set.of(FIRST),
                new KeyIndex(fresh).candidates(List.of(moved)).get(moved),
                "a fresh reader of the index agrees");
        assertEquals(
                Set.of(FIRST),
                new KeyIndex(fresh)
                        .candidates(List.of(new FeatureKey(List.of("other-0"))))
                        .get(new FeatureKey(List.of("other-0"))),
                "the other keys' records are kept");
    }
}
