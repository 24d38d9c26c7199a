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
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shard merge that takes in the shard's base streams it key by key: a process whose heap holds a small part of the
 * shard merges a million keys. Holding the shard's records to merge them, as a list and a map of every record, needs
 * several hundred megabytes.
 */
class ShardMergeUnderHeapTest {

    private static final String SHARD = ArchiveLayout.indexShard(0);
    private static final int BASE_KEYS = 1_000_000;
    private static final int KEYS_PER_LATER_FILE = 20_000;
    private static final String CELL = "851f9a7bfffffff";
    private static final String LATER_CELL = "851f9a73fffffff";

    @TempDir
    Path root;

    @Test
    void aProcessOf64MiBMergesAShardOfAMillionKeysWithItsBase() throws Exception {
        ArchiveSpec spec = SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "shard merge");
        GeoParquetArchive archive = ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
        new KeyIndex(archive).build(keysOfShardZero("base-", BASE_KEYS, CELL, archive));
        assertEquals(1, shard(archive).files().size(), "the base alone");

        String java = ProcessHandle.current().info().command().orElse("java");
        Path log = root.resolveSibling(root.getFileName() + "-merge.log");
        Process child = new ProcessBuilder(
                        java,
                        "-Xmx64m",
                        "-cp",
                        System.getProperty("java.class.path"),
                        ShardMergeUnderHeapTest.class.getName(),
                        root.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        try {
            assertTrue(child.waitFor(5, TimeUnit.MINUTES), "the merging process finished");
            assertEquals(0, child.exitValue(), Files.readString(log));
        } finally {
            child.destroyForcibly();
        }

        GeoParquetArchive reopened = GeoParquetArchive.open(new LocalArchiveStorage(root));
        PartitionCommit merged = shard(reopened);
        assertEquals(1, merged.files().size(), "the base and the later files merged into one: " + merged.fileNames());
        long keys = BASE_KEYS + (long) (KeyIndex.MERGE_SHARD_AT - 1) * KEYS_PER_LATER_FILE;
        Path file =
                root.resolve(ArchiveLayout.dataFile(SHARD, merged.files().get(0).name()));
        // Read by DuckDB: every key once, each in the cell it was recorded in.
        assertEquals(
                List.of(List.of(keys, keys, (long) BASE_KEYS, true)),
                DuckDb.query(
                        "SELECT count(*), count(DISTINCT key), count(*) FILTER (WHERE cell = ?), bool_and(present)"
                                + " FROM read_parquet(?)",
                        CELL,
                        file.toString()));
        KeyIndex index = new KeyIndex(reopened);
        FeatureKey early =
                keysOfShardZero("base-", 1, CELL, reopened).keySet().iterator().next();
        FeatureKey late = keysOfShardZero("later-0-", 1, LATER_CELL, reopened)
                .keySet()
                .iterator()
                .next();
        Map<FeatureKey, Set<String>> found = index.candidates(List.of(early, late));
        assertEquals(Set.of(CELL), found.get(early));
        assertEquals(Set.of(LATER_CELL), found.get(late));
    }

    /**
     * The merging process: records files of later keys in shard 0 until the shard would hold {@value
     * KeyIndex#MERGE_SHARD_AT} files, and the later files add up to more than a tenth of the base, so the last one
     * merges every file, the base included.
     */
    public static void main(String[] args) throws Exception {
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(Path.of(args[0])));
        KeyIndex index = new KeyIndex(archive);
        for (int file = 0; file < KeyIndex.MERGE_SHARD_AT - 1; file++) {
            index.build(keysOfShardZero("later-" + file + "-", KEYS_PER_LATER_FILE, LATER_CELL, archive));
        }
    }

    /** {@code count} keys of the given prefix that fall in shard 0, each in {@code cell}. */
    private static Map<FeatureKey, String> keysOfShardZero(
            String prefix, int count, String cell, GeoParquetArchive archive) {
        int shards = archive.descriptor().keyIndexShards();
        Map<FeatureKey, String> keys = new HashMap<>();
        for (long n = 0; keys.size() < count; n++) {
            String text = prefix + n;
            if (KeyIndex.shardOf(text, shards) == 0) {
                keys.put(new FeatureKey(List.of(text)), cell);
            }
        }
        return keys;
    }

    private static PartitionCommit shard(GeoParquetArchive archive) throws Exception {
        return new PartitionLog(archive.storage(), SHARD).latest();
    }
}
