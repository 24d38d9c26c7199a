package dev.nifigeoparquet.archive.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ReadCountingStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key-index lookup reads little of the index: the nightly upsert looks up every key it does not find in its
 * target partition, and most of those are new keys the index does not hold.
 */
class KeyIndexLookupTest {

    private static final int INDEXED_KEYS = 200_000;
    private static final String[] CELLS = {"851f9a7bfffffff", "851f9a73fffffff", "851f9a6bfffffff", "851f9a63fffffff"};

    @TempDir
    Path root;

    @Test
    void lookingUpAbsentKeysSkipsTheRowGroupsAndPresentKeysAreFound() throws Exception {
        Random random = new Random(7);
        Map<FeatureKey, String> indexed = indexRandomKeys(random, "key index lookups");
        List<FeatureKey> keys = new ArrayList<>(indexed.keySet());
        long indexBytes;
        try (Stream<Path> files = Files.walk(root.resolve(ArchiveLayout.INDEX_DIRECTORY))) {
            indexBytes = files.filter(Files::isRegularFile)
                    .mapToLong(file -> file.toFile().length())
                    .sum();
        }

        List<FeatureKey> absent = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            absent.add(key(new UUID(random.nextLong(), random.nextLong()).toString()));
        }
        ReadCountingStorage counting =
                new ReadCountingStorage(new LocalArchiveStorage(root), ArchiveLayout.INDEX_DIRECTORY);
        GeoParquetArchive service = GeoParquetArchive.open(counting);
        Map<FeatureKey, Set<String>> found = new KeyIndex(service).candidates(absent);
        assertTrue(found.values().stream().allMatch(Set::isEmpty), "no absent key has a cell");
        long absentBytes = counting.bytesRead();

        // The same archive instance (as a long-running service holds it) keeps the index files' footers and bloom
        // filters: the next lookup of keys they rule out opens no index file at all.
        List<FeatureKey> moreAbsent = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            moreAbsent.add(key(new UUID(random.nextLong(), random.nextLong()).toString()));
        }
        Map<FeatureKey, Set<String>> again = new KeyIndex(service).candidates(moreAbsent);
        assertTrue(again.values().stream().allMatch(Set::isEmpty));
        long readWhenWarm = counting.bytesRead() - absentBytes;

        List<FeatureKey> present = List.of(keys.get(0), keys.get(1), keys.get(77_777), keys.get(INDEXED_KEYS - 1));
        counting = new ReadCountingStorage(new LocalArchiveStorage(root), ArchiveLayout.INDEX_DIRECTORY);
        found = new KeyIndex(GeoParquetArchive.open(counting)).candidates(present);
        for (FeatureKey key : present) {
            assertEquals(Set.of(indexed.get(key)), found.get(key), "cell of " + key);
        }
        long presentBytes = counting.bytesRead();

        System.out.printf(
                "key index of %d keys: %d bytes; looking up 1000 absent keys read %d bytes (%d bytes with warm"
                        + " footers and filters), 4 present keys %d bytes%n",
                INDEXED_KEYS, indexBytes, absentBytes, readWhenWarm, presentBytes);
        // Footers and bloom filters only: without the filters, a thousand keys spread over every shard's key range
        // would read every row group, i.e. about the whole index.
        assertTrue(absentBytes < indexBytes / 4, absentBytes + " of " + indexBytes + " bytes read for absent keys");
        // A thousand keys against a 1% false-positive rate: a few row groups, nothing more.
        assertTrue(
                readWhenWarm < indexBytes / 50,
                readWhenWarm + " of " + indexBytes + " bytes read for absent keys, warm");
        assertTrue(
                presentBytes < indexBytes / 10, presentBytes + " of " + indexBytes + " bytes read for 4 present keys");
    }

    @Test
    void aSmallJournalFileCarriesItsBloomFilterToo() throws Exception {
        ArchiveSpec spec =
                SyntheticParcels.archiveSpec(ParcelArchive.RESOLUTION, WriterSettings.defaults(), "key index journal");
        GeoParquetArchive archive = ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
        KeyIndex index = new KeyIndex(archive);
        index.record(Map.of(key("a"), CELLS[0], key("b"), CELLS[1], key("c"), CELLS[0]), Map.of());

        Path journal;
        try (Stream<Path> files =
                Files.walk(root.resolve(ArchiveLayout.INDEX_DIRECTORY).resolve(ArchiveLayout.INDEX_JOURNAL))) {
            journal = files.filter(file -> file.toString().endsWith(ArchiveLayout.INDEX_FILE_SUFFIX))
                    .findFirst()
                    .orElseThrow();
        }
        // Three keys would fit a dictionary whole, and parquet-java then leaves the bloom filter out.
        assertEquals(
                List.of(List.of("key", true)),
                DuckDb.query(
                        "SELECT path_in_schema, bloom_filter_offset IS NOT NULL FROM parquet_metadata(?) WHERE path_in_schema = 'key'",
                        journal.toString()));
        Map<FeatureKey, Set<String>> found = index.candidates(List.of(key("a"), key("b"), key("z")));
        assertEquals(Set.of(CELLS[0]), found.get(key("a")));
        assertEquals(Set.of(CELLS[1]), found.get(key("b")));
        assertEquals(Set.of(), found.get(key("z")));
    }

    @Test
    void aPresentKeyCostsItsPageNotItsRowGroup() throws Exception {
        Map<FeatureKey, String> indexed = indexRandomKeys(new Random(11), "key index pages");
        FeatureKey wanted = new ArrayList<>(indexed.keySet()).get(4_242);
        Path shardFile;
        try (Stream<Path> files = Files.walk(root.resolve(ArchiveLayout.INDEX_DIRECTORY)
                .resolve(new KeyIndex(GeoParquetArchive.open(new LocalArchiveStorage(root))).shardOf(wanted)))) {
            shardFile = files.filter(file -> file.toString().endsWith(ArchiveLayout.INDEX_FILE_SUFFIX))
                    .findFirst()
                    .orElseThrow();
        }
        // Read by DuckDB: the shard's one row group, of several pages.
        List<List<Object>> groups = DuckDb.query(
                "SELECT row_group_id, sum(total_compressed_size), max(row_group_num_rows) FROM parquet_metadata(?)"
                        + " GROUP BY row_group_id",
                shardFile.toString());
        assertEquals(1, groups.size(), "the shard file is one row group: " + groups);
        long rowGroupBytes = ((Number) groups.get(0).get(1)).longValue();
        long rowGroupRows = ((Number) groups.get(0).get(2)).longValue();
        assertTrue(rowGroupRows > 4 * KeyIndex.PAGE_ROWS, "rows in the row group: " + rowGroupRows);

        ReadCountingStorage counting =
                new ReadCountingStorage(new LocalArchiveStorage(root), ArchiveLayout.INDEX_DIRECTORY);
        Map<FeatureKey, Set<String>> found = new KeyIndex(GeoParquetArchive.open(counting)).candidates(List.of(wanted));
        assertEquals(Set.of(indexed.get(wanted)), found.get(wanted));
        System.out.printf(
                "one key of a row group of %d rows and %d bytes: %d bytes read%n",
                rowGroupRows, rowGroupBytes, counting.bytesRead());
        // Its footer, bloom filter and page index, and one page of each column: not the row group's pages.
        assertTrue(
                counting.bytesRead() < rowGroupBytes / 2,
                counting.bytesRead() + " bytes read for one key of a row group of " + rowGroupBytes + " bytes");
    }

    @Test
    void keysAreFoundWhereTheStatisticsOrderOfUtf8PutsThem() throws Exception {
        ArchiveSpec spec =
                SyntheticParcels.archiveSpec(ParcelArchive.RESOLUTION, WriterSettings.defaults(), "key index order");
        GeoParquetArchive archive = ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
        KeyIndex index = new KeyIndex(archive);
        // One row group whose key statistics, in Parquet's order (UTF-8 bytes), run from "a" to the emoji; in Java's
        // String order the fullwidth "！" (U+FF01) sorts after the emoji's surrogates, outside that range.
        String fullwidth = "\uFF01";
        String emoji = "\uD83D\uDE00";
        index.record(Map.of(key("a"), CELLS[0], key(fullwidth), CELLS[1], key(emoji), CELLS[2]), Map.of());
        for (KeyIndex lookups : List.of(index, new KeyIndex(GeoParquetArchive.open(new LocalArchiveStorage(root))))) {
            // Each alone: a row group read for one wanted key yields every other wanted key in it too.
            assertEquals(Set.of(CELLS[0]), lookups.candidates(List.of(key("a"))).get(key("a")));
            assertEquals(
                    Set.of(CELLS[1]),
                    lookups.candidates(List.of(key(fullwidth))).get(key(fullwidth)),
                    "a key between the bounds in UTF-8 order is read");
            assertEquals(
                    Set.of(CELLS[2]), lookups.candidates(List.of(key(emoji))).get(key(emoji)));
        }
    }

    /**
     * Creates an archive at {@link #root} whose key index holds {@value #INDEXED_KEYS} keys drawn from {@code random} as
     * feeds often have them (UUIDs: they compress little, unlike a counter), spread over {@link #CELLS}.
     *
     * @return each key with its cell, in the order drawn
     */
    private Map<FeatureKey, String> indexRandomKeys(Random random, String description) throws IOException {
        ArchiveSpec spec =
                SyntheticParcels.archiveSpec(ParcelArchive.RESOLUTION, WriterSettings.defaults(), description);
        GeoParquetArchive created = ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
        Map<FeatureKey, String> indexed = new LinkedHashMap<>();
        for (int i = 0; i < INDEXED_KEYS; i++) {
            indexed.put(key(new UUID(random.nextLong(), random.nextLong()).toString()), CELLS[i % CELLS.length]);
        }
        new KeyIndex(created).build(indexed);
        return indexed;
    }

    private static FeatureKey key(String id) {
        return new FeatureKey(List.of(id));
    }
}
