package dev.nifigeoparquet.archive.index;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.CommitOutcome;
import dev.nifigeoparquet.archive.commit.DataFileStager;
import dev.nifigeoparquet.archive.commit.LiveFiles;
import dev.nifigeoparquet.archive.commit.NewDataFile;
import dev.nifigeoparquet.archive.commit.PartitionChange;
import dev.nifigeoparquet.archive.commit.PartitionCommitter;
import dev.nifigeoparquet.archive.commit.PartitionLocks;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.commit.PartitionUpdate;
import dev.nifigeoparquet.archive.commit.RollingFileWriter;
import dev.nifigeoparquet.archive.commit.TransactionRecords;
import dev.nifigeoparquet.archive.concurrent.Retry;
import dev.nifigeoparquet.archive.error.FoldSubsumedException;
import dev.nifigeoparquet.archive.error.StalePlanException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.TransactionDecision;
import dev.nifigeoparquet.archive.order.KeyStamp;
import dev.nifigeoparquet.archive.order.StampOrder;
import dev.nifigeoparquet.archive.parquet.ColumnEncodings;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.internal.column.columnindex.ColumnIndex;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * The archive's key-to-cell index: for every feature key, the cells that hold it.
 *
 * <p>Every commit that changes which partition holds a key writes its records here in the same transaction
 * ({@link #journalRecords}), so the index says exactly where committed keys are; that is also how two writers placing
 * the same key meet (docs/archive-format.md, sections 5.9 and 10). Records left by archives written before that rule
 * may name cells that no longer hold a key: harmless, because a candidate cell is always confirmed by scanning that
 * partition's key column before anything is done to it.
 *
 * <p>Layout, all under the commit protocol: a journal ({@code index-journal}) takes each transaction's records as one
 * file; every {@value #FOLD_JOURNAL_AT} journal files are folded into {@code index-<nn>} shards by key hash. A shard
 * holds files of {@code (key, cell, present)} records sorted by key, later files overriding earlier ones; small files
 * are merged with each other, and into the shard's base file only when they add up to a tenth of it, so a record is
 * rewritten a bounded number of times. Lookups read the journal, then only the row groups of shard files whose key
 * range and bloom filter can hold a wanted key, and of those only the pages whose key range can (their page index).
 */
public final class KeyIndex {

    static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType())
            .named("key")
            .required(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType())
            .named("cell")
            .required(PrimitiveTypeName.BOOLEAN)
            .named("present")
            .named("key_index");
    /**
     * The schema of index files that hold stamps (docs/archive-format.md, sections 6.4 and 10.3): the record's
     * columns, then the key's stamp, absent in records without one. Files without any stamp keep {@link #SCHEMA}, so
     * an archive whose deltas carry no sequence stays readable by writers of format version 1.
     */
    static final MessageType STAMPED_SCHEMA = Types.buildMessage()
            .addFields(SCHEMA.getFields().toArray(new Type[0]))
            .optional(PrimitiveTypeName.INT64)
            .named("sequence")
            .optional(PrimitiveTypeName.BINARY)
            .named("version")
            .optional(PrimitiveTypeName.INT64)
            .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MILLIS))
            .named("stamped_at")
            .named("key_index");
    /** The format version of index entries whose partition holds stamps: older writers must not rewrite them. */
    static final int STAMPED_FORMAT_VERSION = PartitionCommit.HIGHEST_FORMAT_VERSION;

    static final int FOLD_JOURNAL_AT = 16;
    /** A fold's shard commits carry this prefix and the journal version folded (docs/archive-format.md, 10.4). */
    static final String FOLD_ID_PREFIX = "index-fold-";

    static final int MERGE_SHARD_AT = 8;
    private static final long FOLD_RECORDS_IN_MEMORY = 500_000;
    private static final int READ_ATTEMPTS = 5;
    private static final double BASE_MERGE_FRACTION = 0.1;
    /** Rows in a data page of an index file: a lookup reads the pages whose key range can hold a wanted key. */
    public static final int PAGE_ROWS = 2048;
    /**
     * Row groups of several pages: a cold lookup parses each file's footer, one entry per row group and column, so
     * fewer row groups cost less to open; each row group's bloom filter grows with it (32 KiB at 16,384 keys).
     */
    private static final WriterSettings INDEX_FILES =
            new WriterSettings(CompressionCodecName.ZSTD, 3, 8 * PAGE_ROWS, 64L << 20);
    /**
     * A bloom filter on the key, sized for a false-positive probability of 0.1%: a lookup of a key the index does not
     * hold reads no page, but for about one key in a thousand, which reads a page of {@value #PAGE_ROWS}. No dictionaries:
     * parquet-java leaves the filter out of a column chunk it could dictionary-encode whole, which small files'
     * key columns are. Statistics only for the key, which lookups use (in the footer per row group, in the column
     * index per page); every column has its offset index, which locates a page's rows in the other columns.
     */
    private static final ColumnEncodings INDEX_ENCODINGS = ColumnEncodings.defaults()
            .withDictionary(false)
            .withBloomFilterOn("key")
            .withBloomFilterFpp(0.001)
            .withoutStatisticsOn("cell")
            .withoutStatisticsOn("present")
            .withSizeStatistics(false)
            .withPageRowCountLimit(PAGE_ROWS);

    private static final Comparator<KeyRecord> BY_KEY = Comparator.comparing(KeyRecord::key);
    /**
     * The order of Parquet's statistics of a STRING column: unsigned bytes of the UTF-8 encoding, which is the order of
     * Unicode code points. Java's {@code String.compareTo} orders UTF-16 code units, which puts U+E000..U+FFFF after
     * every character beyond U+FFFF; wanted keys are kept in this order so that a row group's key range selects them
     * as the statistics mean it.
     */
    private static final Comparator<String> CODE_POINT_ORDER = KeyIndex::compareCodePoints;

    private final GeoParquetArchive archive;
    private final int shards;
    private final StampOrder stamps;

    public KeyIndex(GeoParquetArchive archive) {
        this.archive = archive;
        this.shards = archive.descriptor().keyIndexShards();
        this.stamps = StampOrder.of(archive.descriptor(), archive.schema());
        if (shards < 1) {
            throw new IllegalStateException(
                    "The archive at " + archive.storage().describe() + " has no feature key, so no key index");
        }
    }

    /** The shard a key lives in: a well-mixed hash of its index text. */
    public String shardOf(FeatureKey key) {
        return shardOf(key.indexText());
    }

    private String shardOf(String keyText) {
        return ArchiveLayout.indexShard(shardOf(keyText, shards));
    }

    /**
     * The shard number of a key's index text among {@code shards} shards (docs/archive-format.md, section 10.2; the
     * vectors in docs/test-vectors/shards.json): Java's {@code String.hashCode} of the text (over its UTF-16 code units),
     * sign-extended to 64 bits, mixed by the first three steps of MurmurHash3's 64-bit finaliser (fmix64), and
     * reduced modulo {@code shards} to 0..shards-1.
     */
    public static int shardOf(String keyText, int shards) {
        if (shards < 1) {
            throw new IllegalArgumentException("A key index has at least one shard, not " + shards);
        }
        long h = keyText.hashCode();
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        return (int) Math.floorMod(h, (long) shards);
    }

    /**
     * For each key, the cells the index records for it (empty when none). A file that vanishes while it is read was
     * superseded by a concurrent fold or merge; the lookup then starts again on the new state.
     */
    public Map<FeatureKey, Set<String>> candidates(Collection<FeatureKey> keys) throws IOException {
        return lookUp(keys).candidates();
    }

    /**
     * A lookup's answer and the journal state it read: a writer that plans on the answer commits its own records
     * through {@link #journalRecords}, which refuses the commit if another writer recorded one of its keys since.
     *
     * @param candidates for each key looked up, the cells the index records for it (empty when none)
     * @param stamps     the stamp of each key looked up that has one (section 6.4)
     */
    public record Lookup(
            Map<FeatureKey, Set<String>> candidates, Map<FeatureKey, KeyStamp> stamps, PartitionCommit journal) {}

    /** Like {@link #candidates}, with the journal state the answer was read from. */
    public Lookup lookUp(Collection<FeatureKey> keys) throws IOException {
        // An index file gone under the read was folded or merged away by a concurrent writer: read again.
        return Retry.onVanishedFile(READ_ATTEMPTS).run(attempt -> lookUpOnce(keys));
    }

    private Lookup lookUpOnce(Collection<FeatureKey> keys) throws IOException {
        Map<FeatureKey, Set<String>> result = new HashMap<>();
        Map<FeatureKey, KeyStamp> keyStamps = new HashMap<>();
        // The journal is read before the shards: a fold writes the shards before it prunes the journal, so
        // whatever moment the two reads fall on, no record is missed.
        PartitionCommit journal = new PartitionLog(archive.storage(), ArchiveLayout.INDEX_JOURNAL).latest();
        if (keys.isEmpty()) {
            return new Lookup(result, keyStamps, journal);
        }
        Map<String, FeatureKey> byText = new HashMap<>();
        keys.forEach(key -> byText.put(key.indexText(), key));
        Map<String, List<String>> byShard = new TreeMap<>();
        byText.keySet()
                .forEach(text -> byShard.computeIfAbsent(shardOf(text), s -> new ArrayList<>())
                        .add(text));
        // The shards and the journal are read at once on the archive's workers; their records are applied in order,
        // the journal's last, as one thread would.
        List<LookupPart> parts = new ArrayList<>();
        byShard.forEach((shard, texts) -> parts.add(new LookupPart(shard, null, texts)));
        parts.add(new LookupPart(ArchiveLayout.INDEX_JOURNAL, journal, byText.keySet()));
        List<List<KeyRecord>> records = archive.workers()
                .mapAll(
                        parts,
                        part -> read(
                                part.pinned() != null
                                        ? part.pinned()
                                        : new PartitionLog(archive.storage(), part.log()).latest(),
                                inCodePointOrder(part.keys())));
        Map<String, Set<String>> cells = new HashMap<>();
        Map<String, KeyStamp> stampsByText = new HashMap<>();
        records.forEach(read -> apply(cells, stampsByText, read));
        byText.forEach((text, key) -> {
            result.put(key, cells.getOrDefault(text, Set.of()));
            KeyStamp stamp = stampsByText.get(text);
            if (stamp != null) {
                keyStamps.put(key, stamp);
            }
        });
        return new Lookup(result, keyStamps, journal);
    }

    /** One part of a lookup: wanted keys of a shard (at its latest version) or of the journal (at {@code pinned}). */
    private record LookupPart(String log, PartitionCommit pinned, Collection<String> keys) {}

    /**
     * The journal's part in a transaction that changes where keys live or stamps them: one journal file of the
     * operation's records, committed with the data partitions' entries, so the index says exactly where committed keys
     * are and what their stamps are. Its entry is created last and rebased over journal commits that do not concern its
     * keys; a journal commit since the lookup that recorded one of them means another writer wrote that key meanwhile,
     * and the plan is stale.
     *
     * @param lookup  the lookup the operation planned on
     * @param records the operation's records: keys arriving in cells, leaving them, stamped in place, tombstones
     */
    public PartitionCommitter.LateParticipant journalRecords(Lookup lookup, List<KeyRecord> records) {
        boolean stamped = records.stream().anyMatch(record -> record.stamp() != null);
        // The records are sorted and written when the journal file is staged, on a worker beside the partitions'
        // rewrites: for an append of many new keys, building and sorting them on the calling thread was a serial step
        // of its own.
        return new PartitionCommitter.LateParticipant() {
            @Override
            public String cell() {
                return ArchiveLayout.INDEX_JOURNAL;
            }

            @Override
            public PartitionCommit planned() {
                return lookup.journal();
            }

            @Override
            public int formatVersion() {
                return stamped ? STAMPED_FORMAT_VERSION : PartitionCommit.FORMAT_VERSION;
            }

            @Override
            public List<NewDataFile> stage(DataFileStager stager) throws IOException {
                List<KeyRecord> sorted = new ArrayList<>(records);
                sorted.sort(BY_KEY);
                return write(stager, sorted);
            }

            @Override
            public void requireNoConflict(PartitionLog log, PartitionCommit planned, PartitionCommit current)
                    throws IOException {
                if (current.version() <= planned.version()) {
                    return; // no journal commit since the lookup: sorting every key of a large append cost ~12 ms
                }
                TreeSet<String> keys = new TreeSet<>(CODE_POINT_ORDER);
                records.forEach(record -> keys.add(record.key()));
                for (long version = planned.version() + 1; version <= current.version(); version++) {
                    requireNoRecordOf(keys, log, version);
                }
            }
        };
    }

    /** Refuses a journal entry in effect that records one of the keys, or that can no longer be read to tell. */
    private void requireNoRecordOf(NavigableSet<String> keys, PartitionLog log, long version) throws IOException {
        PartitionCommit entry;
        try {
            entry = log.read(version);
        } catch (NoSuchFileException pruned) {
            throw new StalePlanException(
                    ArchiveLayout.INDEX_JOURNAL,
                    "journal entry " + version + " is gone, so it cannot be told"
                            + " whether it moved a key of this operation");
        }
        if (entry.transaction() != null) {
            TransactionDecision decision = TransactionRecords.read(archive.storage(), entry.transaction());
            if (decision == null || decision.outcome() != TransactionDecision.Outcome.COMMITTED) {
                return;
            }
        }
        for (String added : entry.added()) {
            List<KeyRecord> records;
            try {
                records = readFile(ArchiveLayout.INDEX_JOURNAL, added, keys);
            } catch (NoSuchFileException folded) {
                throw new StalePlanException(
                        ArchiveLayout.INDEX_JOURNAL,
                        "journal file " + added + " was folded before it could"
                                + " be checked for this operation's keys");
            }
            if (!records.isEmpty()) {
                throw new StalePlanException(
                        ArchiveLayout.INDEX_JOURNAL,
                        "another writer recorded key " + records.get(0).key() + " in cell "
                                + records.get(0).cell());
            }
        }
    }

    /** Folds the journal into the shards when it has grown long enough (after a commit added to it). */
    public void foldIfDue() throws IOException {
        if (new PartitionLog(archive.storage(), ArchiveLayout.INDEX_JOURNAL)
                        .latest()
                        .files()
                        .size()
                >= FOLD_JOURNAL_AT) {
            foldOnce();
        }
    }

    /**
     * Records keys as present in cells ({@code present}) and as gone from cells ({@code gone}) in one journal
     * commit, and folds the journal into the shards when it has grown long enough.
     */
    public void record(Map<FeatureKey, String> present, Map<FeatureKey, String> gone) throws IOException {
        List<KeyRecord> records = new ArrayList<>();
        present.forEach((key, cell) -> records.add(KeyRecord.present(key, cell, null)));
        gone.forEach((key, cell) -> records.add(KeyRecord.gone(key, cell, null)));
        if (records.isEmpty()) {
            return;
        }
        records.sort(BY_KEY);
        PartitionCommit journal = commit(
                        ArchiveLayout.INDEX_JOURNAL,
                        (current, stager) -> new PartitionChange(write(stager, records), List.of()))
                .after();
        if (journal.files().size() >= FOLD_JOURNAL_AT) {
            foldOnce();
        }
    }

    /**
     * Folds the journal unless another thread of this process is folding it already (then that fold takes our
     * records too, or the next one will). A concurrent fold by another process can prune journal files while this
     * one reads them; the fold then starts again on the journal as it is now. Folding twice is harmless: records
     * are idempotent, and only files still in the journal are pruned.
     */
    private void foldOnce() throws IOException {
        ReentrantLock folding =
                PartitionLocks.lockFor(archive.storage().describe(), ArchiveLayout.INDEX_JOURNAL + "#fold");
        if (!folding.tryLock()) {
            return;
        }
        try {
            // A journal file gone under the fold was pruned by a concurrent fold: read the journal again.
            Retry.onVanishedFile(READ_ATTEMPTS).run(attempt -> {
                PartitionCommit journal = new PartitionLog(archive.storage(), ArchiveLayout.INDEX_JOURNAL).latest();
                if (journal.files().size() >= FOLD_JOURNAL_AT) {
                    fold(journal);
                }
                return null;
            });
        } finally {
            folding.unlock();
        }
    }

    /** Writes records straight into the shards (adoption: the whole archive's keys at once). */
    public void build(Map<FeatureKey, String> present) throws IOException {
        Map<String, List<KeyRecord>> byShard = new TreeMap<>();
        present.forEach((key, cell) ->
                byShard.computeIfAbsent(shardOf(key), s -> new ArrayList<>()).add(KeyRecord.present(key, cell, null)));
        for (Map.Entry<String, List<KeyRecord>> shard : byShard.entrySet()) {
            appendToShard(shard.getKey(), 0, shard.getValue());
        }
    }

    /**
     * Moves the journal's records into the shards, then prunes the folded journal files. Each pass reads every
     * journal file once and takes the records of a group of shards, so memory holds at most about
     * {@value #FOLD_RECORDS_IN_MEMORY} records however long the journal grew.
     */
    private void fold(PartitionCommit journal) throws IOException {
        long journalRecords =
                journal.files().stream().mapToLong(DataFileEntry::rows).sum();
        int shardsPerPass = (int)
                Math.max(1, Math.min(shards, (long) shards * FOLD_RECORDS_IN_MEMORY / Math.max(1, journalRecords)));
        for (int first = 0; first < shards; first += shardsPerPass) {
            Set<String> pass = new LinkedHashSet<>();
            for (int shard = first; shard < Math.min(shards, first + shardsPerPass); shard++) {
                pass.add(ArchiveLayout.indexShard(shard));
            }
            Map<String, List<KeyRecord>> byShard = new TreeMap<>();
            for (DataFileEntry file : journal.files()) {
                for (KeyRecord record : readFile(journal.cell(), file.name(), null)) {
                    String shard = shardOf(record.key());
                    if (pass.contains(shard)) {
                        byShard.computeIfAbsent(shard, s -> new ArrayList<>()).add(record);
                    }
                }
            }
            for (Map.Entry<String, List<KeyRecord>> shard : byShard.entrySet()) {
                appendToShard(shard.getKey(), journal.version(), shard.getValue());
            }
        }
        List<String> folded = journal.fileNames();
        commit(ArchiveLayout.INDEX_JOURNAL, (current, stager) -> {
            List<String> stillThere =
                    current.fileNames().stream().filter(folded::contains).toList();
            return new PartitionChange(List.of(), stillThere);
        });
    }

    /** The highest journal version folded into a shard, from its recent operation ids; 0 when none is recorded. */
    static long latestFold(PartitionCommit shard) {
        long latest = 0;
        for (String id : shard.recentOperationIds()) {
            if (id.startsWith(FOLD_ID_PREFIX)) {
                try {
                    latest = Math.max(latest, Long.parseLong(id.substring(FOLD_ID_PREFIX.length())));
                } catch (NumberFormatException notAFold) {
                    // an id of another shape: not a fold's
                }
            }
        }
        return latest;
    }

    /**
     * Adds records to a shard as one more file, merging small files (and at times the base) to bound the count.
     *
     * <p>A fold's records ({@code foldedJournal} is the journal version it read) are not added to a shard that already
     * took a fold of that journal version or a later one. Folds by different processes can overlap, and a slow fold
     * of an older journal state appending after a fold of a newer one would put older records after newer ones: a
     * key moved back to a cell it had left would lose that cell. The later fold holds every record of the earlier one
     * that the shard lacks (a fold takes the whole journal and prunes only what it folded), so nothing is lost.
     *
     * @param foldedJournal the journal version a fold read; 0 for records that are no fold's (adoption)
     */
    private void appendToShard(String shard, long foldedJournal, List<KeyRecord> records) throws IOException {
        String operationId = foldedJournal > 0 ? FOLD_ID_PREFIX + foldedJournal : newOperationId();
        try {
            commit(shard, operationId, (current, stager) -> {
                if (foldedJournal > 0 && latestFold(current) >= foldedJournal) {
                    throw new FoldSubsumedException();
                }
                return withRecords(shard, current, stager, records);
            });
        } catch (FoldSubsumedException subsumed) {
            // a fold of a later journal state holds these records already
        }
    }

    /**
     * The shard's change that adds the records as one more file, or merges them with its small files (and at times
     * the base) when it would hold {@value #MERGE_SHARD_AT} files. A merge streams the files key by key, so it holds
     * a row group of each file and one key's records, however large the shard has grown (a file another writer wrote
     * is read whole and sorted first).
     */
    private PartitionChange withRecords(
            String shard, PartitionCommit current, DataFileStager stager, List<KeyRecord> records) throws IOException {
        List<KeyRecord> sorted = new ArrayList<>(records);
        sorted.sort(BY_KEY);
        if (current.files().size() + 1 < MERGE_SHARD_AT) {
            return changeOf(current, write(stager, sorted), List.of(), sorted);
        }
        // The base is the oldest file: merged output takes the place of the first file it replaces, so records
        // merged beside the base stay after it and keep overriding it.
        DataFileEntry base = current.files().get(0);
        long smallBytes = current.totalBytes() - base.bytes();
        boolean includeBase = smallBytes >= BASE_MERGE_FRACTION * base.bytes();
        List<DataFileEntry> merging = includeBase
                ? current.files()
                : current.files().subList(1, current.files().size());
        Instant pruneBefore = archive.clock().instant().minus(tombstoneRetention());
        List<GeoParquetFileReader> readers = new ArrayList<>();
        try {
            List<KeyGroups.Source> sources = new ArrayList<>();
            boolean stamped = sorted.stream().anyMatch(record -> record.stamp() != null);
            long upTo = sorted.size();
            for (DataFileEntry file : merging) {
                GeoParquetFileReader reader =
                        LiveFiles.open(archive.storage(), shard, file.name(), archive.indexFooters());
                readers.add(reader);
                // This implementation's files are sorted in String order; another writer's may sort by UTF-8 bytes.
                sources.add(new KeyGroups.Source(
                        reader.footer().file(),
                        GeoParquetFileWriter.wrote(reader.footer()) ? recordsOf(reader) : sortedRecordsOf(reader)));
                stamped |= reader.footer().schema().containsField("sequence");
                upTo += file.rows();
            }
            sources.add(new KeyGroups.Source("of the records added", sorted.iterator()));
            // The output takes the stamped schema when any input has it: the shard is of the stamped format already.
            MessageType schema = stamped ? STAMPED_SCHEMA : SCHEMA;
            List<NewDataFile> written;
            try (RollingFileWriter writer = writer(stager, stamped, upTo)) {
                for (KeyGroups keys = new KeyGroups(sources); keys.hasNext(); ) {
                    List<KeyRecord> ofKey = keys.next();
                    for (KeyRecord record : includeBase ? mergeAll(ofKey, pruneBefore) : mergeBesideBase(ofKey)) {
                        writer.write(row(schema, record));
                    }
                }
                written = writer.finish();
            } catch (UncheckedIOException e) {
                throw e.getCause();
            }
            return new PartitionChange(
                    written,
                    merging.stream().map(DataFileEntry::name).toList(),
                    Math.max(
                            current.formatVersion(),
                            stamped ? STAMPED_FORMAT_VERSION : PartitionCommit.FORMAT_VERSION));
        } finally {
            for (GeoParquetFileReader reader : readers) {
                reader.close();
            }
        }
    }

    /** A file's records in order, a row group at a time. I/O errors surface as {@link UncheckedIOException}. */
    private static Iterator<KeyRecord> recordsOf(GeoParquetFileReader reader) {
        Iterator<Group> rows = reader.rows();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return rows.hasNext();
            }

            @Override
            public KeyRecord next() {
                return recordOf(rows.next());
            }
        };
    }

    /** A file's records sorted by key in String order, keeping the file's order among a key's records. */
    private static Iterator<KeyRecord> sortedRecordsOf(GeoParquetFileReader reader) {
        List<KeyRecord> records = new ArrayList<>();
        recordsOf(reader).forEachRemaining(records::add);
        records.sort(BY_KEY);
        return records.iterator();
    }

    /**
     * One key's records of files merged beside an unmerged base: the last record of each of its cells decides that
     * cell, removals included, since they still override the base's records. A cell's stamp is the greatest of its
     * records', so a record written without one (by an unsequenced operation) does not drop the stamp it overrides.
     */
    private List<KeyRecord> mergeBesideBase(List<KeyRecord> inOrder) {
        Map<String, KeyRecord> last = new TreeMap<>();
        for (KeyRecord record : inOrder) {
            KeyRecord before = last.get(record.cell());
            last.put(
                    record.cell(),
                    before == null ? record : record.withStamp(stamps.max(before.stamp(), record.stamp())));
        }
        return new ArrayList<>(last.values());
    }

    /**
     * One key's records of every file of the shard merged: only presence is kept, each present cell carrying the key's
     * greatest stamp, and for a key present nowhere its tombstone (the greatest stamp of its records, section 6.4)
     * until the tombstone was stamped before {@code pruneBefore}.
     */
    private List<KeyRecord> mergeAll(List<KeyRecord> inOrder, Instant pruneBefore) {
        Map<String, KeyRecord> lastOfCell = new LinkedHashMap<>();
        KeyStamp greatest = null;
        KeyRecord stampedRecord = null;
        for (KeyRecord record : inOrder) {
            lastOfCell.put(record.cell(), record);
            // max returns one of its arguments, the first on a tie: identity says whether this record's stamp won.
            @SuppressWarnings("ReferenceEquality")
            boolean wins = record.stamp() != null && stamps.max(greatest, record.stamp()) == record.stamp();
            if (wins) {
                greatest = record.stamp();
                stampedRecord = record;
            }
        }
        List<KeyRecord> merged = new ArrayList<>();
        for (KeyRecord record : lastOfCell.values()) {
            if (record.present()) {
                merged.add(record.withStamp(greatest));
            }
        }
        if (merged.isEmpty()
                && stampedRecord != null
                && !stampedRecord.stamp().stampedAt().isBefore(pruneBefore)) {
            merged.add(new KeyRecord(stampedRecord.key(), stampedRecord.cell(), false, stampedRecord.stamp()));
        }
        return merged;
    }

    private Duration tombstoneRetention() {
        return Duration.ofSeconds(archive.descriptor().protocol().tombstoneRetentionSeconds());
    }

    /** A shard's change adding {@code written}; of the stamped format once the shard holds a stamp. */
    private static PartitionChange changeOf(
            PartitionCommit current, List<NewDataFile> written, List<String> removed, List<KeyRecord> records) {
        boolean stamped = records.stream().anyMatch(record -> record.stamp() != null);
        return new PartitionChange(
                written,
                removed,
                Math.max(current.formatVersion(), stamped ? STAMPED_FORMAT_VERSION : PartitionCommit.FORMAT_VERSION));
    }

    private CommitOutcome commit(String id, PartitionUpdate update) throws IOException {
        return commit(id, newOperationId(), update);
    }

    private CommitOutcome commit(String id, String operationId, PartitionUpdate update) throws IOException {
        return archive.committer().commit(id, operationId, OperationType.INDEX, update);
    }

    /** An index commit that is no fold's: journal records, pruning, adoption's records. */
    private static String newOperationId() {
        return "index-" + UUID.randomUUID();
    }

    private static List<NewDataFile> write(DataFileStager stager, List<KeyRecord> records) throws IOException {
        boolean stamped = records.stream().anyMatch(record -> record.stamp() != null);
        MessageType schema = stamped ? STAMPED_SCHEMA : SCHEMA;
        try (RollingFileWriter writer = writer(stager, stamped, records.size())) {
            for (KeyRecord record : records) {
                writer.write(row(schema, record));
            }
            return writer.finish();
        }
    }

    /** A writer of index files of either schema, its bloom filters sized for at most {@code records} keys. */
    private static RollingFileWriter writer(DataFileStager stager, boolean stamped, long records) {
        ColumnEncodings encodings = INDEX_ENCODINGS.withBloomFilterValues(Math.max(1, records));
        if (stamped) {
            encodings = encodings
                    .withoutStatisticsOn("sequence")
                    .withoutStatisticsOn("version")
                    .withoutStatisticsOn("stamped_at");
        }
        return new RollingFileWriter(
                stager, stamped ? STAMPED_SCHEMA : SCHEMA, FooterEntries.canonicalOf(Map.of()), INDEX_FILES, encodings);
    }

    /** Records of a shard's (or the journal's) files in order; only {@code wanted} keys when not null. */
    private List<KeyRecord> read(PartitionCommit state, NavigableSet<String> wanted) throws IOException {
        List<KeyRecord> records = new ArrayList<>();
        for (DataFileEntry file : state.files()) {
            records.addAll(readFile(state.cell(), file.name(), wanted));
        }
        return records;
    }

    /**
     * A file's records in order; only {@code wanted} keys when not null. Of a row group, only the pages whose key range
     * (column index) holds a wanted key that its key range (statistics) and bloom filter admit are read, and none when
     * they admit none: looking up a few keys reads a few pages, whatever the size of the index.
     */
    private List<KeyRecord> readFile(String id, String name, NavigableSet<String> wanted) throws IOException {
        String cacheKey = LiveFiles.name(archive.storage(), id, name);
        GeoParquetFileReader.ParsedFooter known = archive.indexFooters().get(cacheKey);
        if (wanted != null
                && known != null
                && cachedRuleOutAll(cacheKey, known.footer().rowGroups(), wanted)) {
            return List.of(); // the file need not even be opened
        }
        List<KeyRecord> records = new ArrayList<>();
        // Every record of a page read is tested: hashing beats the ordered set's comparisons.
        Set<String> members = wanted == null ? null : new HashSet<>();
        try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), id, name, archive.indexFooters())) {
            List<BlockMetaData> groups = reader.footer().rowGroups();
            for (int index = 0; index < groups.size(); index++) {
                GeoParquetFileReader.RowGroup group;
                if (wanted == null) {
                    group = reader.rowGroup(index);
                } else {
                    NavigableSet<String> admitted = admitted(reader, cacheKey, index, groups.get(index), wanted);
                    if (admitted.isEmpty()) {
                        continue;
                    }
                    members.addAll(admitted);
                    group = pagesHolding(reader, index, admitted);
                }
                while (group != null && group.hasNext()) {
                    Group record = group.next();
                    if (members == null || members.contains(record.getString("key", 0))) {
                        records.add(recordOf(record));
                    }
                }
            }
        }
        return records;
    }

    /** Whether the cached statistics and bloom filters alone rule every wanted key out of every row group. */
    private boolean cachedRuleOutAll(String cacheKey, List<BlockMetaData> groups, NavigableSet<String> wanted) {
        for (int index = 0; index < groups.size(); index++) {
            NavigableSet<String> inRange = inKeyRange(groups.get(index), wanted);
            if (inRange.isEmpty()) {
                continue;
            }
            Predicate<Binary> bloom = archive.indexFooters().bloomFilter(cacheKey, index, "key");
            if (bloom == null || admitsAny(bloom, inRange)) {
                return false;
            }
        }
        return true;
    }

    /** The wanted keys the row group may hold: within its key range and not ruled out by its bloom filter. */
    private NavigableSet<String> admitted(
            GeoParquetFileReader reader, String cacheKey, int index, BlockMetaData group, NavigableSet<String> wanted)
            throws IOException {
        NavigableSet<String> inRange = inKeyRange(group, wanted);
        if (inRange.isEmpty()) {
            return inRange;
        }
        Predicate<Binary> bloom = archive.indexFooters().bloomFilter(cacheKey, index, "key");
        if (bloom == null) {
            bloom = reader.bloomFilter(index, "key");
            archive.indexFooters().putBloomFilter(cacheKey, index, "key", bloom, reader.bloomFilterBytes(index, "key"));
        }
        NavigableSet<String> admitted = new TreeSet<>(CODE_POINT_ORDER);
        for (String key : inRange) {
            if (bloom.test(Binary.fromString(key))) {
                admitted.add(key);
            }
        }
        return admitted;
    }

    /**
     * The row group's rows in the pages whose key range can hold one of {@code keys}, by the key column's page index;
     * the whole row group when the file has no page index on the key; null when no page can hold one.
     */
    private static GeoParquetFileReader.RowGroup pagesHolding(
            GeoParquetFileReader reader, int index, NavigableSet<String> keys) throws IOException {
        GeoParquetFileReader.PageIndex pageIndex = reader.pageIndex(index, "key");
        if (pageIndex == null || pageIndex.statistics() == null) {
            return reader.rowGroup(index);
        }
        ColumnIndex statistics = pageIndex.statistics();
        List<ByteBuffer> mins = statistics.getMinValues();
        List<ByteBuffer> maxes = statistics.getMaxValues();
        List<Boolean> nullPages = statistics.getNullPages();
        int[] chosen = new int[pageIndex.pages().getPageCount()];
        int count = 0;
        for (int page = 0; page < chosen.length; page++) {
            if (nullPages.get(page)) {
                continue; // no key in it: the key column is required, so only an empty page has none
            }
            if (mayHoldAny(mins.get(page), maxes.get(page), keys)) {
                chosen[count++] = page;
            }
        }
        return count == 0
                ? null
                : reader.rowsInPages(
                        index,
                        pageIndex.pages(),
                        Arrays.stream(chosen, 0, count).iterator());
    }

    /**
     * Whether a page whose keys lie between these bounds (UTF-8, from its column index) can hold one of {@code keys}.
     * Bounds the writer truncated still enclose the page's keys (a shortened minimum, a raised maximum); bounds that do
     * not decode, or are out of order, rule nothing out.
     */
    private static boolean mayHoldAny(ByteBuffer minBytes, ByteBuffer maxBytes, NavigableSet<String> keys) {
        String min;
        String max;
        try {
            min = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(minBytes.duplicate())
                    .toString();
            max = StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(maxBytes.duplicate())
                    .toString();
        } catch (CharacterCodingException notUtf8) {
            return true;
        }
        return compareCodePoints(min, max) > 0
                || !keys.subSet(min, true, max, true).isEmpty();
    }

    private static boolean admitsAny(Predicate<Binary> bloom, Collection<String> keys) {
        for (String key : keys) {
            if (bloom.test(Binary.fromString(key))) {
                return true;
            }
        }
        return false;
    }

    /** The wanted keys within the row group's key range (from its statistics); all of them when it has none. */
    private static NavigableSet<String> inKeyRange(BlockMetaData group, NavigableSet<String> wanted) {
        Statistics<?> statistics = group.getColumns().get(0).getStatistics();
        if (statistics == null || !statistics.hasNonNullValue()) {
            return wanted;
        }
        String min = ((Binary) statistics.genericGetMin()).toStringUsingUTF8();
        String max = ((Binary) statistics.genericGetMax()).toStringUsingUTF8();
        return compareCodePoints(min, max) > 0 ? wanted : wanted.subSet(min, true, max, true);
    }

    private static NavigableSet<String> inCodePointOrder(Collection<String> keys) {
        TreeSet<String> ordered = new TreeSet<>(CODE_POINT_ORDER);
        ordered.addAll(keys);
        return ordered;
    }

    /**
     * Code point order by UTF-16 units: the two orders agree except where a surrogate (half of a code point beyond
     * U+FFFF) meets a unit of U+E000..U+FFFF, which it must follow. Comparing units rather than decoding code points
     * keeps this as cheap as {@code String.compareTo}: lookups compare every wanted key many times.
     */
    static int compareCodePoints(String a, String b) {
        int common = Math.min(a.length(), b.length());
        for (int i = 0; i < common; i++) {
            char x = a.charAt(i);
            char y = b.charAt(i);
            if (x != y) {
                boolean xSurrogate = Character.isSurrogate(x);
                if (xSurrogate != Character.isSurrogate(y)) {
                    return xSurrogate ? 1 : -1;
                }
                return Character.compare(x, y);
            }
        }
        return Integer.compare(a.length(), b.length());
    }

    /** Applies records in order: the cells each key is in, and its greatest stamp. */
    private void apply(Map<String, Set<String>> cells, Map<String, KeyStamp> keyStamps, List<KeyRecord> records) {
        for (KeyRecord record : records) {
            String key = record.key();
            if (record.stamp() != null) {
                keyStamps.put(key, stamps.max(keyStamps.get(key), record.stamp()));
            }
            if (record.present()) {
                cells.computeIfAbsent(key, k -> new LinkedHashSet<>()).add(record.cell());
            } else {
                Set<String> where = cells.get(key);
                if (where != null) {
                    where.remove(record.cell());
                    if (where.isEmpty()) {
                        cells.remove(key);
                    }
                }
            }
        }
    }

    private static Group row(MessageType schema, KeyRecord record) {
        Group row = new SimpleGroup(schema);
        row.add("key", record.key());
        row.add("cell", record.cell());
        row.add("present", record.present());
        KeyStamp stamp = record.stamp();
        if (stamp != null) {
            row.add("sequence", stamp.sequence());
            if (stamp.version() != null) {
                row.add("version", stamp.version());
            }
            row.add("stamped_at", stamp.stampedAt().toEpochMilli());
        }
        return row;
    }

    /** A record as read from an index file of either schema. */
    private static KeyRecord recordOf(Group row) {
        GroupType type = row.getType();
        KeyStamp stamp = null;
        if (type.containsField("sequence") && row.getFieldRepetitionCount("sequence") > 0) {
            Binary version = row.getFieldRepetitionCount("version") > 0
                    ? row.getBinary("version", 0).copy()
                    : null;
            stamp = new KeyStamp(
                    version, row.getLong("sequence", 0), Instant.ofEpochMilli(row.getLong("stamped_at", 0)));
        }
        return new KeyRecord(row.getString("key", 0), row.getString("cell", 0), row.getBoolean("present", 0), stamp);
    }
}
