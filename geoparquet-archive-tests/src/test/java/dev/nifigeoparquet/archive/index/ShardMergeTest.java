package dev.nifigeoparquet.archive.index;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.error.CorruptDataException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Shard merges read their files as sorted streams, key by key; another writer's file is sorted first. */
class ShardMergeTest {

    private static final String SHARD = ArchiveLayout.indexShard(0);
    private static final String CELL = "851f9a7bfffffff";
    private static final String LATER_CELL = "851f9a73fffffff";
    /**
     * Prefixes that sort differently by UTF-16 code units (Java's String order: the emoji's surrogates first) and by
     * UTF-8 bytes (DuckDB's order: the fullwidth "！" first).
     */
    private static final List<String> PREFIXES = List.of("a-", "\uFF01-", "\uD83D\uDE00-");

    @TempDir
    Path root;

    @Test
    void keyGroupsGiveEachKeysRecordsInSourceOrder() {
        KeyRecord first = record("k1", CELL, true);
        KeyRecord moved = record("k1", LATER_CELL, true);
        KeyRecord left = record("k1", CELL, false);
        KeyRecord other = record("k2", CELL, true);
        KeyGroups groups = new KeyGroups(List.of(
                new KeyGroups.Source("first", List.of(first, other).iterator()),
                new KeyGroups.Source("second", List.of(moved, left).iterator())));
        assertEquals(List.of(first, moved, left), groups.next());
        assertEquals(List.of(other), groups.next());
        assertEquals(false, groups.hasNext());
    }

    @Test
    void aSourceOutOfOrderIsReportedAsDamaged() {
        KeyGroups groups = new KeyGroups(List.of(new KeyGroups.Source(
                "unsorted.keys",
                List.of(record("k2", CELL, true), record("k1", CELL, true)).iterator())));
        UncheckedIOException e = assertThrows(UncheckedIOException.class, groups::next);
        assertInstanceOf(CorruptDataException.class, e.getCause());
        assertEquals(
                true,
                e.getCause().getMessage().contains("unsorted.keys"),
                e.getCause().getMessage());
    }

    @Test
    void aBaseFileDuckDbRewroteInItsOwnOrderIsMergedWithTheLaterFiles() throws Exception {
        GeoParquetArchive created = ArchiveCreator.create(
                new LocalArchiveStorage(root),
                SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "foreign index file"),
                Clock.systemUTC());
        int shards = created.descriptor().keyIndexShards();
        List<FeatureKey> keys = new ArrayList<>();
        for (String prefix : PREFIXES) {
            int found = 0;
            for (int n = 0; found < 300; n++) {
                if (KeyIndex.shardOf(prefix + n, shards) == 0) {
                    keys.add(new FeatureKey(List.of(prefix + n)));
                    found++;
                }
            }
        }
        Map<FeatureKey, String> base = new HashMap<>();
        keys.forEach(key -> base.put(key, CELL));
        new KeyIndex(created).build(base);

        // The base file rewritten by DuckDB, sorted as DuckDB sorts strings (by UTF-8 bytes), under its own name.
        PartitionCommit shard = new PartitionLog(created.storage(), SHARD).latest();
        Path file =
                root.resolve(ArchiveLayout.dataFile(SHARD, shard.files().get(0).name()));
        Path rewritten = root.resolve("rewritten.parquet");
        assertEquals(
                List.of(List.of((long) keys.size())),
                DuckDb.query("COPY (SELECT * FROM read_parquet('" + file + "') ORDER BY key) TO '" + rewritten
                        + "' (FORMAT parquet); SELECT count(*) FROM read_parquet('" + rewritten + "')"));
        Files.move(rewritten, file, StandardCopyOption.REPLACE_EXISTING);

        // Later files move every third key to another cell, until the base merges with them.
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        KeyIndex index = new KeyIndex(archive);
        Map<FeatureKey, Set<String>> expected = new HashMap<>();
        keys.forEach(key -> expected.put(key, Set.of(CELL)));
        for (int later = 0; later < KeyIndex.MERGE_SHARD_AT - 1; later++) {
            Map<FeatureKey, String> moved = new HashMap<>();
            for (int i = later; i < keys.size(); i += 3 * (KeyIndex.MERGE_SHARD_AT - 1)) {
                moved.put(keys.get(i), LATER_CELL);
                expected.put(keys.get(i), Set.of(CELL, LATER_CELL));
            }
            index.build(moved);
        }
        assertEquals(
                1,
                new PartitionLog(archive.storage(), SHARD).latest().files().size(),
                "every file merged, the base included");
        assertEquals(expected, index.candidates(keys));
    }

    private static KeyRecord record(String key, String cell, boolean present) {
        return new KeyRecord(key, cell, present, null);
    }
}
