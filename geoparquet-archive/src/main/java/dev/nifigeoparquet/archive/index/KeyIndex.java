package dev.nifigeoparquet.archive.index;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionChange;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.PartitionCommitter;
import dev.nifigeoparquet.archive.format.PartitionLog;
import dev.nifigeoparquet.archive.ops.FeatureKey;
import dev.nifigeoparquet.archive.ops.LiveFiles;
import dev.nifigeoparquet.archive.ops.RollingFileWriter;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The archive's key-to-cell index: for every feature key, the cells that may hold it.
 *
 * <p>It is a superset, kept by one rule: a writer records a key's cell in the index <em>before</em> it commits
 * the key into that partition, and removes the record only after a commit took the key out. So every key in
 * the archive is findable, whatever crashed when; a record that outlived its key is harmless, because a
 * candidate cell is always confirmed by scanning that partition's key column before anything is done to it.
 * That is what lets the index be written by small, separate commits instead of joining every transaction.
 *
 * <p>The index is sharded by key hash into {@code index-<nn>} partitions of the commit protocol. A shard's
 * state is a list of small Parquet files of {@code (key, cell, present)} records, later records overriding
 * earlier ones; when a shard has {@value #MERGE_AT_FILES} files, the next update merges them into one.
 */
public final class KeyIndex {

    static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("key")
            .required(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("cell")
            .required(PrimitiveTypeName.BOOLEAN).named("present")
            .named("key_index");
    static final int MERGE_AT_FILES = 8;

    private final GeoParquetArchive archive;
    private final int shards;

    public KeyIndex(GeoParquetArchive archive) {
        this.archive = archive;
        this.shards = archive.descriptor().keyIndexShards();
        if (shards < 1) {
            throw new IllegalStateException("The archive at " + archive.storage().describe() + " has no feature key, so no key index");
        }
    }

    /** The shard a key lives in: a well-mixed hash of its index text. */
    public String shardOf(FeatureKey key) {
        long h = key.indexText().hashCode();
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return ArchiveLayout.indexShard((int) Math.floorMod(h, (long) shards));
    }

    /** For each key, the cells the index records for it (empty when none). Reads only the keys' shards. */
    public Map<FeatureKey, Set<String>> candidates(Collection<FeatureKey> keys) throws IOException {
        Map<String, List<FeatureKey>> byShard = groupByShard(keys);
        Map<FeatureKey, Set<String>> result = new HashMap<>();
        for (Map.Entry<String, List<FeatureKey>> shard : byShard.entrySet()) {
            Set<String> wanted = new java.util.HashSet<>();
            shard.getValue().forEach(key -> wanted.add(key.indexText()));
            Map<String, Set<String>> cells = fold(new PartitionLog(archive.storage(), shard.getKey()).latest(), wanted);
            for (FeatureKey key : shard.getValue()) {
                result.put(key, cells.getOrDefault(key.indexText(), Set.of()));
            }
        }
        return result;
    }

    /**
     * Records keys as present in cells ({@code present}) and as gone from cells ({@code gone}): one small commit per
     * shard touched, retried on its own when another writer updates the shard at the same moment.
     */
    public void record(Map<FeatureKey, String> present, Map<FeatureKey, String> gone) throws IOException {
        Map<String, List<Group>> byShard = new TreeMap<>();
        present.forEach((key, cell) -> byShard.computeIfAbsent(shardOf(key), s -> new ArrayList<>()).add(row(key, cell, true)));
        gone.forEach((key, cell) -> byShard.computeIfAbsent(shardOf(key), s -> new ArrayList<>()).add(row(key, cell, false)));
        PartitionCommitter committer = archive.committer();
        for (Map.Entry<String, List<Group>> shard : byShard.entrySet()) {
            committer.commit(shard.getKey(), "index-" + UUID.randomUUID(), OperationType.INDEX,
                    (current, stager) -> {
                        boolean merge = current.files().size() + 1 >= MERGE_AT_FILES;
                        List<Group> rows = merge ? merged(current, shard.getValue()) : shard.getValue();
                        try (RollingFileWriter writer = new RollingFileWriter(stager, SCHEMA, FooterEntries.canonicalOf(Map.of()),
                                WriterSettings.defaults())) {
                            for (Group row : rows) {
                                writer.write(row);
                            }
                            return new PartitionChange(writer.finish(), merge ? current.fileNames() : List.of());
                        }
                    });
        }
    }

    private List<Group> merged(PartitionCommit current, List<Group> changes) throws IOException {
        Map<String, Set<String>> cells = new TreeMap<>(fold(current, null));
        apply(cells, changes.iterator());
        List<Group> rows = new ArrayList<>();
        cells.forEach((key, where) -> where.forEach(cell -> rows.add(row(key, cell, true))));
        return rows;
    }

    /** key text -> cells, folding the shard's files in order; only {@code wanted} keys when not null. */
    private Map<String, Set<String>> fold(PartitionCommit shard, Set<String> wanted) throws IOException {
        Map<String, Set<String>> cells = new HashMap<>();
        for (DataFileEntry file : shard.files()) {
            try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), shard.cell(), file.name())) {
                Iterator<Group> rows = reader.rows();
                if (wanted == null) {
                    apply(cells, rows);
                } else {
                    apply(cells, new FilteringIterator(rows, wanted));
                }
            }
        }
        return cells;
    }

    private static void apply(Map<String, Set<String>> cells, Iterator<Group> records) {
        while (records.hasNext()) {
            Group record = records.next();
            String key = record.getString("key", 0);
            String cell = record.getString("cell", 0);
            if (record.getBoolean("present", 0)) {
                cells.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(cell);
            } else {
                Set<String> where = cells.get(key);
                if (where != null) {
                    where.remove(cell);
                    if (where.isEmpty()) {
                        cells.remove(key);
                    }
                }
            }
        }
    }

    private Map<String, List<FeatureKey>> groupByShard(Collection<FeatureKey> keys) {
        Map<String, List<FeatureKey>> byShard = new TreeMap<>();
        for (FeatureKey key : keys) {
            byShard.computeIfAbsent(shardOf(key), s -> new ArrayList<>()).add(key);
        }
        return byShard;
    }

    private static Group row(FeatureKey key, String cell, boolean present) {
        return row(key.indexText(), cell, present);
    }

    private static Group row(String key, String cell, boolean present) {
        Group row = new SimpleGroup(SCHEMA);
        row.add("key", key);
        row.add("cell", cell);
        row.add("present", present);
        return row;
    }

    private static final class FilteringIterator implements Iterator<Group> {
        private final Iterator<Group> rows;
        private final Set<String> wanted;
        private Group next;

        FilteringIterator(Iterator<Group> rows, Set<String> wanted) {
            this.rows = rows;
            this.wanted = wanted;
        }

        @Override
        public boolean hasNext() {
            while (next == null && rows.hasNext()) {
                Group candidate = rows.next();
                if (wanted.contains(candidate.getString("key", 0))) {
                    next = candidate;
                }
            }
            return next != null;
        }

        @Override
        public Group next() {
            if (!hasNext()) {
                throw new java.util.NoSuchElementException();
            }
            Group result = next;
            next = null;
            return result;
        }
    }
}
