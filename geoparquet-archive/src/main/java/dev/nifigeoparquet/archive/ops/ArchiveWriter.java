package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.CommitOutcome;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.DataFileStager;
import dev.nifigeoparquet.archive.format.NewDataFile;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionChange;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.PartitionCommitter.Participant;
import dev.nifigeoparquet.archive.format.PartitionUpdate;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.parquet.ColumnarRowGroup;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import org.apache.parquet.example.data.Group;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Applies a validated {@link PartitionDelta} under the commit protocol: append, upsert, delete or replace.
 *
 * <p>It reads and writes only the delta's partition, except for keys found elsewhere through the key index: a
 * key whose new geometry moved it to another cell leaves its old partition in the same transaction, and a
 * delete reaches the partition that holds the key. Memory grows with the delta and one row group, never with a
 * partition: existing files are scanned by their key columns first, and only files holding a delta key are
 * rewritten, streamed row group by row group.
 */
public final class ArchiveWriter {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiveWriter.class);
    private static final int SCAN_ATTEMPTS = 5;

    private final GeoParquetArchive archive;
    private final KeyScanner scanner;

    public ArchiveWriter(GeoParquetArchive archive) {
        this.archive = archive;
        this.scanner = new KeyScanner(archive);
    }

    /**
     * Applies several deltas of one partition and mode with one rewrite of the partition. Deltas already committed
     * are left out (each is recognised by its own id), so a redelivered delta is never applied twice, whether it
     * comes back alone or in another batch. The result is a replay only when every delta was.
     */
    public OperationResult applyBatch(List<PartitionDelta> deltas) throws IOException {
        List<PartitionDelta> pending = new ArrayList<>(deltas);
        for (int attempt = 0; ; attempt++) {
            PartitionDelta first = pending.get(0);
            if (first.cell() != null) {
                PartitionCommit state = archive.partitionState(first.cell());
                List<PartitionDelta> fresh = pending.stream()
                        .filter(delta -> !delta.operationIds().stream().allMatch(state::hasCommitted)).toList();
                if (fresh.isEmpty()) {
                    return replay(PartitionDelta.combine(pending), state);
                }
                pending = new ArrayList<>(fresh);
            }
            try {
                return apply(PartitionDelta.combine(pending));
            } catch (dev.nifigeoparquet.archive.format.PartitionCommitter.PartiallyCommittedException partial) {
                if (attempt >= deltas.size()) {
                    throw partial;
                }
                pending.removeIf(delta -> partial.committed().containsAll(delta.operationIds()));
                if (pending.isEmpty()) {
                    return replay(PartitionDelta.combine(deltas), archive.partitionState(deltas.get(0).cell()));
                }
            }
        }
    }

    public OperationResult apply(PartitionDelta delta) throws IOException {
        if (!archive.descriptor().hasKey()) {
            Counts counts = new Counts();
            PartitionUpdate update = (current, stager) -> {
                counts.reset();
                return delta.mode() == WriteMode.APPEND ? append(delta, stager, counts) : replace(current, delta, stager, counts);
            };
            Map<String, CommitOutcome> outcome = archive.committer().commitAll(delta.operationIds(),
                    Map.of(delta.cell(), new Participant(delta.mode().operationType(), update)));
            return result(delta, outcome, Map.of(delta.cell(), counts));
        }
        return applyKeyed(delta);
    }

    private OperationResult applyKeyed(PartitionDelta delta) throws IOException {
        String target = delta.cell();
        Map<FeatureKey, DeltaRow> rows = delta.rowsByKey();
        PartitionCommit state = target == null ? null : archive.partitionState(target);
        if (state != null && delta.operationIds().stream().allMatch(state::hasCommitted)) {
            return replay(delta, state);
        }
        KeyIndex index = new KeyIndex(archive);
        Set<FeatureKey> inTarget = state == null ? Set.of() : scanLatest(target, rows.keySet()).found();
        Map<String, Set<FeatureKey>> elsewhere = findElsewhere(index, rows.keySet(), inTarget, target);

        if (delta.mode() == WriteMode.APPEND) {
            List<String> held = new ArrayList<>();
            inTarget.forEach(key -> held.add(key + " (in " + target + ")"));
            elsewhere.forEach((cell, keys) -> keys.forEach(key -> held.add(key + " (in " + cell + ")")));
            if (!held.isEmpty()) {
                throw new DeltaRejectedException("Append to partition " + target,
                        List.of("the archive already holds keys " + held.subList(0, Math.min(10, held.size()))
                                + (held.size() > 10 ? " and " + (held.size() - 10) + " more" : "") + "; use Upsert to change existing features"));
            }
        }

        // Record where keys will be before they get there, so the index never misses a key (see KeyIndex).
        Map<FeatureKey, String> arriving = new HashMap<>();
        if (target != null) {
            rows.forEach((key, row) -> {
                if (!row.delete() && !inTarget.contains(key)) {
                    arriving.put(key, target);
                }
            });
        }
        if (!arriving.isEmpty()) {
            index.record(arriving, Map.of());
        }

        Map<String, Participant> participants = new TreeMap<>();
        Map<String, Counts> counts = new LinkedHashMap<>();
        // A delete whose keys all live elsewhere leaves the target alone; otherwise the target records the operation.
        boolean targetTakesPart = target != null && (delta.mode() != WriteMode.DELETE || !inTarget.isEmpty() || elsewhere.isEmpty());
        if (targetTakesPart) {
            Counts targetCounts = new Counts();
            counts.put(target, targetCounts);
            participants.put(target, new Participant(delta.mode().operationType(), (current, stager) -> {
                targetCounts.reset();
                return switch (delta.mode()) {
                    case APPEND -> append(delta, stager, targetCounts);
                    case REPLACE -> replace(current, delta, stager, targetCounts);
                    case UPSERT, DELETE -> merge(current, rows, stager, targetCounts);
                };
            }));
        }
        for (Map.Entry<String, Set<FeatureKey>> other : elsewhere.entrySet()) {
            Map<FeatureKey, DeltaRow> removals = new LinkedHashMap<>();
            other.getValue().forEach(key -> removals.put(key, DeltaRow.deletion(rows.get(key).row())));
            boolean moveOut = other.getValue().stream().anyMatch(key -> !rows.get(key).delete() && target != null);
            Counts otherCounts = new Counts();
            counts.put(other.getKey(), otherCounts);
            participants.put(other.getKey(), new Participant(moveOut ? OperationType.MOVE_OUT : OperationType.DELETE,
                    (current, stager) -> {
                        otherCounts.reset();
                        return merge(current, removals, stager, otherCounts);
                    }));
        }
        if (participants.isEmpty()) {
            return new OperationResult(delta.deltaId(), false, List.of(), 0, 0, 0, 0, 0, 0, 0, 0, delta.duplicateKeys(),
                    rows.size(), 0, 0, 0, 0, 0);
        }
        Map<String, CommitOutcome> outcomes = archive.committer().commitAll(delta.operationIds(), participants);
        if (!outcomes.values().iterator().next().replay()) {
            forgetRemovedKeys(index, delta, elsewhere, target, target == null ? null : counts.get(target));
        }
        return result(delta, outcomes, counts);
    }

    /** Cells other than the target that hold delta keys: index candidates, each confirmed by a key scan. */
    private Map<String, Set<FeatureKey>> findElsewhere(KeyIndex index, Set<FeatureKey> keys, Set<FeatureKey> inTarget,
                                                       String target) throws IOException {
        Set<FeatureKey> unresolved = new HashSet<>(keys);
        unresolved.removeAll(inTarget);
        Map<String, Set<FeatureKey>> candidatesByCell = new TreeMap<>();
        index.candidates(unresolved).forEach((key, cells) -> cells.stream().filter(cell -> !cell.equals(target))
                .forEach(cell -> candidatesByCell.computeIfAbsent(cell, c -> new HashSet<>()).add(key)));
        Map<String, Set<FeatureKey>> confirmed = new TreeMap<>();
        for (Map.Entry<String, Set<FeatureKey>> candidate : candidatesByCell.entrySet()) {
            Set<FeatureKey> found = scanLatest(candidate.getKey(), candidate.getValue()).found();
            if (!found.isEmpty()) {
                confirmed.put(candidate.getKey(), found);
            }
        }
        return confirmed;
    }

    /**
     * Scans a partition's latest state for keys. These scans run before the partition is locked, so a writer of it
     * (in this process or another) may supersede and delete a file meanwhile; the scan then reads the newer state, as
     * the format's readers do (section 5.4).
     */
    private KeyScanner.Result scanLatest(String cell, Set<FeatureKey> keys) throws IOException {
        for (int attempt = 1; ; attempt++) {
            PartitionCommit state = archive.partitionState(cell);
            try {
                return scanner.scan(state, keys);
            } catch (NoSuchFileException superseded) {
                if (attempt == SCAN_ATTEMPTS || archive.partitionState(cell).version() == state.version()) {
                    throw superseded;
                }
            }
        }
    }

    /**
     * After the commit, removes index records of keys that left a cell. Best effort: a record left behind only
     * costs a confirming scan later.
     */
    private void forgetRemovedKeys(KeyIndex index, PartitionDelta delta, Map<String, Set<FeatureKey>> elsewhere,
                                   String target, Counts targetCounts) {
        Map<FeatureKey, String> gone = new HashMap<>();
        elsewhere.forEach((cell, keys) -> keys.forEach(key -> gone.put(key, cell)));
        if (target != null) {
            delta.rowsByKey().forEach((key, row) -> {
                if (row.delete()) {
                    gone.putIfAbsent(key, target);
                }
            });
        }
        if (targetCounts != null) {
            targetCounts.keysReplacedAway.forEach(key -> gone.put(key, target));
        }
        try {
            if (!gone.isEmpty()) {
                index.record(Map.of(), gone);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("Operation {} committed; removing {} key-index records failed and they stay as harmless extra candidates: {}",
                    delta.deltaId(), gone.size(), e.toString());
        }
    }

    private Set<FeatureKey> allKeys(PartitionCommit state) throws IOException {
        Set<FeatureKey> keys = new HashSet<>();
        for (DataFileEntry file : state.files()) {
            try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), state.cell(), file.name())) {
                reader.project(archive.descriptor().keyColumns());
                FeatureKey.Extractor extractor = FeatureKey.extractor(reader.readSchema(), archive.descriptor().keyColumns());
                reader.rows().forEachRemaining(row -> keys.add(extractor.keyOf(row)));
            }
        }
        return keys;
    }

    private OperationResult replay(PartitionDelta delta, PartitionCommit state) {
        long rows = state.rowCount();
        return new OperationResult(delta.deltaId(), true, List.of(), rows, rows, 0, 0, 0, 0, rows, 0,
                delta.duplicateKeys(), 0, 0, 0, 0, 0, 0);
    }

    private OperationResult result(PartitionDelta delta, Map<String, CommitOutcome> outcomes, Map<String, Counts> counts) {
        if (outcomes.values().iterator().next().replay()) {
            long rows = outcomes.values().stream().mapToLong(o -> o.before().rowCount()).sum();
            return new OperationResult(delta.deltaId(), true, List.of(), rows, rows, 0, 0, 0, 0, rows, 0,
                    delta.duplicateKeys(), 0, 0, 0, 0, 0, 0);
        }
        long before = 0, after = 0, inserted = 0, updated = 0, deleted = 0, skipped = 0, absent = 0, read = 0;
        long filesWritten = 0, bytesWritten = 0, filesRemoved = 0, bytesRemoved = 0, moved = 0;
        for (Map.Entry<String, CommitOutcome> entry : outcomes.entrySet()) {
            CommitOutcome outcome = entry.getValue();
            Counts c = counts.get(entry.getKey());
            before += outcome.before().rowCount();
            after += outcome.after().rowCount();
            boolean isTarget = entry.getKey().equals(delta.cell());
            inserted += c.inserted;
            updated += c.updated;
            skipped += c.olderSkipped;
            read += c.bytesRead;
            if (isTarget) {
                deleted += c.deleted;
                absent += c.absentDeletes;
            } else {
                long movedHere = outcome.after().operationType() == OperationType.MOVE_OUT ? c.deleted : 0;
                moved += movedHere;
                deleted += c.deleted - movedHere;
            }
            filesWritten += outcome.change().added().size();
            bytesWritten += outcome.change().added().stream().mapToLong(NewDataFile::bytes).sum();
            filesRemoved += outcome.change().removed().size();
            bytesRemoved += outcome.before().files().stream().filter(f -> outcome.change().removed().contains(f.name()))
                    .mapToLong(DataFileEntry::bytes).sum();
        }
        long unchanged = before - updated - deleted - moved;
        // A key that moved was inserted into its new cell and deleted from its old one: for the feature, an update.
        inserted -= moved;
        updated += moved;
        if (!outcomes.containsKey(delta.cell())) {
            absent = delta.rowsByKey().size() - deleted;
        }
        return new OperationResult(delta.deltaId(), false, List.copyOf(outcomes.keySet()), before, after, inserted, updated,
                moved, deleted, unchanged, skipped, delta.duplicateKeys(), absent,
                filesWritten, bytesWritten, filesRemoved, bytesRemoved, read);
    }

    /** Counters of one participant's attempt; reset when a commit conflict makes the update run again. */
    private static final class Counts {
        long inserted;
        long updated;
        long deleted;
        long olderSkipped;
        long absentDeletes;
        long bytesRead;
        /** Keys a Replace removed from the partition, read before the commit superseded their files. */
        final Set<FeatureKey> keysReplacedAway = new HashSet<>();

        void reset() {
            inserted = updated = deleted = olderSkipped = absentDeletes = bytesRead = 0;
            keysReplacedAway.clear();
        }
    }

    private PartitionChange append(PartitionDelta delta, DataFileStager stager, Counts counts) throws IOException {
        try (RollingFileWriter writer = newWriter(stager)) {
            for (Group row : deltaRows(delta)) {
                writer.write(row);
                counts.inserted++;
            }
            return new PartitionChange(writer.finish(), List.of());
        }
    }

    private PartitionChange replace(PartitionCommit current, PartitionDelta delta, DataFileStager stager, Counts counts) throws IOException {
        if (archive.descriptor().hasKey()) {
            KeyScanner.Result scan = scanner.scan(current, delta.rowsByKey().keySet());
            counts.bytesRead += scan.bytesRead();
            long kept = delta.rowsByKey().values().stream().filter(row -> !row.delete()).count();
            counts.updated = delta.rowsByKey().entrySet().stream()
                    .filter(e -> !e.getValue().delete() && scan.found().contains(e.getKey())).count();
            counts.inserted = kept - counts.updated;
            counts.deleted = current.rowCount() - counts.updated;
            for (FeatureKey key : allKeys(current)) {
                if (!delta.rowsByKey().containsKey(key) || delta.rowsByKey().get(key).delete()) {
                    counts.keysReplacedAway.add(key);
                }
            }
        } else {
            counts.inserted = delta.unkeyedRows().size();
            counts.deleted = current.rowCount();
        }
        try (RollingFileWriter writer = newWriter(stager)) {
            for (Group row : deltaRows(delta)) {
                writer.write(row);
            }
            return new PartitionChange(writer.finish(), current.fileNames());
        }
    }

    /** Upsert and delete: rewrite only the files that hold a delta key, then add the new keys. */
    private PartitionChange merge(PartitionCommit current, Map<FeatureKey, DeltaRow> rows, DataFileStager stager,
                                  Counts counts) throws IOException {
        KeyScanner.Result scan = scanner.scan(current, rows.keySet());
        counts.bytesRead += scan.bytesRead();
        Set<FeatureKey> consumed = new HashSet<>();
        VersionOrder versions = archive.descriptor().versionColumn() == null ? null
                : new VersionOrder(archive.schema(), archive.descriptor().versionColumn());
        FeatureKey.Extractor keys = archive.keyExtractor();
        try (RollingFileWriter writer = newWriter(stager)) {
            for (String file : scan.filesHoldingKeys()) {
                try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), current.cell(), file)) {
                    counts.bytesRead += current.files().stream().filter(f -> f.name().equals(file)).mapToLong(DataFileEntry::bytes).sum();
                    if (mergeColumnwise(reader, rows, consumed, versions, keys, writer, counts)) {
                        continue;
                    }
                    for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                        Group merged = mergedRow(it.next(), rows, consumed, versions, keys, counts);
                        if (merged != null) {
                            writer.write(merged);
                        }
                    }
                }
            }
            for (Map.Entry<FeatureKey, DeltaRow> entry : rows.entrySet()) {
                if (consumed.contains(entry.getKey())) {
                    continue;
                }
                if (entry.getValue().delete()) {
                    counts.absentDeletes++;
                } else {
                    counts.inserted++;
                    writer.write(entry.getValue().row());
                }
            }
            return new PartitionChange(writer.finish(), List.copyOf(scan.filesHoldingKeys()));
        }
    }

    /**
     * The merge of one file, copying the rows the delta leaves alone column by column instead of assembling each
     * one (most of an upsert's rows): only the key and version columns are read per row. For files this engine
     * wrote with the archive's schema and key and version columns at the top level; false, having read nothing,
     * for any other file, which then takes the row path.
     */
    private boolean mergeColumnwise(GeoParquetFileReader reader, Map<FeatureKey, DeltaRow> rows, Set<FeatureKey> consumed,
                                    VersionOrder versions, FeatureKey.Extractor keys, RollingFileWriter writer, Counts counts)
            throws IOException {
        List<String> probed = new ArrayList<>(keys.columns());
        if (versions != null) {
            probed.add(archive.descriptor().versionColumn());
        }
        if (!GeoParquetFileWriter.wrote(reader.footer()) || !reader.footer().schema().equals(archive.schema())
                || !probed.stream().allMatch(column -> archive.schema().containsField(column)
                && archive.schema().getType(column).isPrimitive()
                && !archive.schema().getType(column).isRepetition(org.apache.parquet.schema.Type.Repetition.REPEATED))) {
            return false;
        }
        for (ColumnarRowGroup group = reader.nextColumnarRowGroup(); group != null; group = reader.nextColumnarRowGroup()) {
            while (group.hasNext()) {
                Group existing = group.peek(probed);
                Group merged = mergedRow(existing, rows, consumed, versions, keys, counts);
                if (merged == existing) {
                    writer.copyRow(group);
                } else {
                    group.skipNextRow();
                    if (merged != null) {
                        writer.write(merged);
                    }
                }
            }
        }
        return true;
    }

    /**
     * What becomes of an existing row: itself when the delta leaves it alone (or holds an older version of it), the
     * delta's row when that replaces it, null when the delta deletes it. Counts the outcome and marks the delta's row
     * as consumed. {@code existing} needs only the key and version columns.
     */
    private static Group mergedRow(Group existing, Map<FeatureKey, DeltaRow> rows, Set<FeatureKey> consumed,
                                   VersionOrder versions, FeatureKey.Extractor keys, Counts counts) {
        FeatureKey key = keys.keyOf(existing);
        DeltaRow change = key == null ? null : rows.get(key);
        if (change == null) {
            return existing;
        }
        consumed.add(key);
        if (change.delete()) {
            counts.deleted++;
            return null;
        }
        if (versions != null && versions.deltaIsOlder(change.row(), existing)) {
            counts.olderSkipped++;
            return existing;
        }
        counts.updated++;
        return change.row();
    }

    /** The delta's rows to write, in order: keyed rows that are not deletes, then rows of a key-less archive. */
    private static List<Group> deltaRows(PartitionDelta delta) {
        List<Group> rows = new ArrayList<>(delta.rowsByKey().size() + delta.unkeyedRows().size());
        delta.rowsByKey().values().stream().filter(row -> !row.delete()).map(DeltaRow::row).forEach(rows::add);
        rows.addAll(delta.unkeyedRows());
        return rows;
    }

    private RollingFileWriter newWriter(DataFileStager stager) {
        return new RollingFileWriter(stager, archive.schema(), archive.canonicalFooter(), archive.descriptor().writer());
    }
}
