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
import dev.nifigeoparquet.archive.format.PartitionCommitter.PartiallyCommittedException;
import dev.nifigeoparquet.archive.format.PartitionUpdate;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.parquet.ColumnarRowGroup;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.storage.StorageCost;
import dev.nifigeoparquet.archive.storage.StorageMeter;
import org.apache.parquet.example.data.Group;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collection;
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
            Pending fresh = pending(pending);
            if (fresh.deltas().isEmpty()) {
                return replay(PartitionDelta.combine(pending), fresh.state());
            }
            pending = new ArrayList<>(fresh.deltas());
            try {
                return apply(PartitionDelta.combine(pending));
            } catch (PartiallyCommittedException partial) {
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

    /**
     * What became of one partition's batch in {@link #applyAll}: its result, or the failure that left the partition as
     * it was, and the storage requests it made.
     */
    public record BatchOutcome(OperationResult result, Exception failure, StorageCost cost) {

        /** The result, or the failure thrown as it was (a checked failure other than an I/O one wrapped). */
        public OperationResult orThrow() throws IOException {
            if (failure instanceof IOException io) {
                throw io;
            } else if (failure instanceof RuntimeException runtime) {
                throw runtime;
            } else if (failure != null) {
                throw new IOException(failure);
            }
            return result;
        }
    }

    /**
     * Applies the batches of several partitions, as one run of UpsertGeoParquetPartition takes them. Each batch is
     * one partition's deltas (see {@link #applyBatch}) and commits on its own, so one batch's failure leaves the others
     * committed. What they share is the key index: keys are looked up once for all batches, recorded in one journal
     * commit before the first partition commits and their removals in one after the last, instead of three index
     * operations per partition. A batch writing a key that an earlier batch writes too must see that batch's commit
     * in the index, so it is applied after the others, on its own; so is a Delete that names no partition.
     *
     * @return one outcome per batch, in order; the first also carries the requests of the shared index work
     */
    public List<BatchOutcome> applyAll(List<List<PartitionDelta>> batches) {
        if (batches.stream().anyMatch(List::isEmpty)) {
            throw new IllegalArgumentException("Every batch needs at least one delta");
        }
        Run run = new Run(batches.size());
        List<Integer> shared = new ArrayList<>();
        List<Integer> alone = new ArrayList<>();
        Set<FeatureKey> written = new HashSet<>();
        for (int i = 0; i < batches.size(); i++) {
            boolean independent = archive.descriptor().hasKey() && batches.get(i).get(0).cell() != null;
            for (PartitionDelta delta : batches.get(i)) {
                for (FeatureKey key : delta.rowsByKey().keySet()) {
                    independent &= written.add(key);
                }
            }
            (independent ? shared : alone).add(i);
        }
        if (!shared.isEmpty()) {
            applyWithSharedIndex(batches, shared, run);
        }
        for (int i : alone) {
            List<PartitionDelta> batch = batches.get(i);
            run.step(i, () -> run.results[i] = applyBatch(batch));
        }
        return run.outcomes();
    }

    /** The batches whose keys no other batch writes: one index lookup, one record, one removal for all of them. */
    private void applyWithSharedIndex(List<List<PartitionDelta>> batches, List<Integer> shared, Run run) {
        KeyIndex index = new KeyIndex(archive);
        Map<Integer, PartitionDelta> deltas = new TreeMap<>();
        Map<Integer, Scanned> targets = new TreeMap<>();
        for (int i : shared) {
            List<PartitionDelta> batch = batches.get(i);
            run.step(i, () -> {
                Pending fresh = pending(batch);
                if (fresh.deltas().isEmpty()) {
                    run.results[i] = replay(PartitionDelta.combine(batch), fresh.state());
                    return;
                }
                PartitionDelta delta = PartitionDelta.combine(fresh.deltas());
                targets.put(i, scanLatest(delta.cell(), delta.rowsByKey().keySet(), fresh.state()));
                deltas.put(i, delta);
            });
        }
        Set<FeatureKey> unresolved = new HashSet<>();
        deltas.forEach((i, delta) -> unresolved.addAll(unresolved(delta, targets.get(i).result().found())));
        Map<FeatureKey, Set<String>> candidates = run.sharedStep(deltas.keySet(), () -> index.candidates(unresolved));
        if (candidates == null) {
            return;
        }
        Map<Integer, KeyedPlan> plans = new TreeMap<>();
        Map<FeatureKey, String> arriving = new HashMap<>();
        deltas.forEach((i, delta) -> run.step(i, () -> {
            KeyedPlan plan = plan(delta, targets.get(i), candidates);
            plans.put(i, plan);
            arriving.putAll(plan.arriving());
        }));
        if (run.sharedStep(plans.keySet(), () -> {
            index.record(arriving, Map.of());
            return Boolean.TRUE;
        }) == null) {
            return;
        }
        Map<FeatureKey, String> gone = new HashMap<>();
        plans.forEach((i, plan) -> run.step(i, () -> {
            try {
                Committed done = commit(plan);
                gone.putAll(done.gone());
                run.results[i] = done.result();
            } catch (PartiallyCommittedException racedByRedelivery) {
                run.results[i] = applyBatch(batches.get(i));
            }
        }));
        run.sharedStep(List.of(), () -> {
            forget(index, "The operations of " + plans.size() + " partitions", gone);
            return Boolean.TRUE;
        });
    }

    /** The results, failures and storage costs of an {@link #applyAll} run, gathered step by step. */
    private static final class Run {
        final OperationResult[] results;
        final Exception[] failures;
        final StorageCost[] costs;
        StorageCost sharedCost = StorageCost.NONE;

        Run(int batches) {
            results = new OperationResult[batches];
            failures = new Exception[batches];
            costs = new StorageCost[batches];
            java.util.Arrays.fill(costs, StorageCost.NONE);
        }

        interface Step {
            void run() throws IOException;
        }

        /** One batch's step, unless it failed already; a failure is that batch's alone. */
        void step(int batch, Step step) {
            if (failures[batch] != null) {
                return;
            }
            try {
                costs[batch] = costs[batch].plus(StorageMeter.measure(() -> {
                    step.run();
                    return null;
                }).cost());
            } catch (IOException | RuntimeException e) {
                failures[batch] = e;
            }
        }

        /** Index work for several batches: its failure fails all of them, and it returns null then. */
        <T> T sharedStep(Collection<Integer> batches, StorageMeter.Operation<T> step) {
            try {
                StorageMeter.Measured<T> measured = StorageMeter.measure(step);
                sharedCost = sharedCost.plus(measured.cost());
                return measured.result();
            } catch (IOException | RuntimeException e) {
                batches.forEach(batch -> failures[batch] = failures[batch] == null ? e : failures[batch]);
                return null;
            }
        }

        List<BatchOutcome> outcomes() {
            List<BatchOutcome> outcomes = new ArrayList<>();
            for (int i = 0; i < results.length; i++) {
                StorageCost cost = i == 0 ? costs[i].plus(sharedCost) : costs[i];
                outcomes.add(failures[i] != null ? new BatchOutcome(null, failures[i], cost) : new BatchOutcome(results[i], null, cost));
            }
            return outcomes;
        }
    }

    /** The deltas of a batch for one partition that its state does not hold yet, and that state. */
    private record Pending(List<PartitionDelta> deltas, PartitionCommit state) {
    }

    private Pending pending(List<PartitionDelta> batch) throws IOException {
        String cell = batch.get(0).cell();
        if (cell == null) {
            return new Pending(batch, null);
        }
        PartitionCommit state = archive.partitionState(cell);
        return new Pending(batch.stream().filter(delta -> !delta.operationIds().stream().allMatch(state::hasCommitted)).toList(), state);
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
        PartitionCommit state = target == null ? null : archive.partitionState(target);
        if (state != null && delta.operationIds().stream().allMatch(state::hasCommitted)) {
            return replay(delta, state);
        }
        KeyIndex index = new KeyIndex(archive);
        Scanned scanned = state == null ? null : scanLatest(target, delta.rowsByKey().keySet(), state);
        Set<FeatureKey> inTarget = scanned == null ? Set.of() : scanned.result().found();
        KeyedPlan plan = plan(delta, scanned, index.candidates(unresolved(delta, inTarget)));
        index.record(plan.arriving(), Map.of());
        Committed done = commit(plan);
        forget(index, "Operation " + delta.deltaId(), done.gone());
        return done.result();
    }

    /** The delta's keys that its target does not hold: the key index says where else they may be. */
    private static Set<FeatureKey> unresolved(PartitionDelta delta, Set<FeatureKey> inTarget) {
        Set<FeatureKey> unresolved = new HashSet<>(delta.rowsByKey().keySet());
        unresolved.removeAll(inTarget);
        return unresolved;
    }

    /**
     * A keyed delta ready to commit: the keys its target holds (and the scan that found them, which the merge reuses
     * when the partition has not changed since), the other cells holding its keys, and where keys will arrive (to be
     * recorded in the index before the commit, so the index never misses a key; see KeyIndex).
     */
    private record KeyedPlan(PartitionDelta delta, Scanned target, Set<FeatureKey> inTarget,
                             Map<String, Set<FeatureKey>> elsewhere, Map<FeatureKey, String> arriving) {

        /** The target's key scan if {@code current} is the state it scanned; null when the merge must scan again. */
        KeyScanner.Result targetScanOf(PartitionCommit current) {
            return target != null && target.state().version() == current.version() ? target.result() : null;
        }
    }

    /** A key scan and the partition state it read. */
    private record Scanned(PartitionCommit state, KeyScanner.Result result) {
    }

    /** A committed keyed delta, and the keys that left cells: the index records to remove after the commit. */
    private record Committed(OperationResult result, Map<FeatureKey, String> gone) {
    }

    /** @param candidates the key index's cells for (at least) the delta's unresolved keys */
    private KeyedPlan plan(PartitionDelta delta, Scanned targetScan, Map<FeatureKey, Set<String>> candidates) throws IOException {
        String target = delta.cell();
        Set<FeatureKey> inTarget = targetScan == null ? Set.of() : targetScan.result().found();
        Map<FeatureKey, DeltaRow> rows = delta.rowsByKey();
        Map<String, Set<FeatureKey>> elsewhere = findElsewhere(candidates, unresolved(delta, inTarget), target);
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
        Map<FeatureKey, String> arriving = new HashMap<>();
        if (target != null) {
            rows.forEach((key, row) -> {
                if (!row.delete() && !inTarget.contains(key)) {
                    arriving.put(key, target);
                }
            });
        }
        return new KeyedPlan(delta, targetScan, inTarget, elsewhere, arriving);
    }

    private Committed commit(KeyedPlan plan) throws IOException {
        PartitionDelta delta = plan.delta();
        String target = delta.cell();
        Map<FeatureKey, DeltaRow> rows = delta.rowsByKey();
        Map<String, Participant> participants = new TreeMap<>();
        Map<String, Counts> counts = new LinkedHashMap<>();
        // A delete whose keys all live elsewhere leaves the target alone; otherwise the target records the operation.
        boolean targetTakesPart = target != null
                && (delta.mode() != WriteMode.DELETE || !plan.inTarget().isEmpty() || plan.elsewhere().isEmpty());
        if (targetTakesPart) {
            Counts targetCounts = new Counts();
            counts.put(target, targetCounts);
            participants.put(target, new Participant(delta.mode().operationType(), (current, stager) -> {
                targetCounts.reset();
                return switch (delta.mode()) {
                    case APPEND -> append(delta, stager, targetCounts);
                    case REPLACE -> replace(current, delta, stager, targetCounts);
                    case UPSERT, DELETE -> merge(current, rows, stager, targetCounts, plan.targetScanOf(current));
                };
            }));
        }
        for (Map.Entry<String, Set<FeatureKey>> other : plan.elsewhere().entrySet()) {
            Map<FeatureKey, DeltaRow> removals = new LinkedHashMap<>();
            other.getValue().forEach(key -> removals.put(key, DeltaRow.deletion(rows.get(key).row())));
            boolean moveOut = other.getValue().stream().anyMatch(key -> !rows.get(key).delete() && target != null);
            Counts otherCounts = new Counts();
            counts.put(other.getKey(), otherCounts);
            participants.put(other.getKey(), new Participant(moveOut ? OperationType.MOVE_OUT : OperationType.DELETE,
                    (current, stager) -> {
                        otherCounts.reset();
                        return merge(current, removals, stager, otherCounts, null);
                    }));
        }
        if (participants.isEmpty()) {
            return new Committed(new OperationResult(delta.deltaId(), false, List.of(), 0, 0, 0, 0, 0, 0, 0, 0,
                    delta.duplicateKeys(), rows.size(), 0, 0, 0, 0, 0), Map.of());
        }
        Map<String, CommitOutcome> outcomes = archive.committer().commitAll(delta.operationIds(), participants);
        Map<FeatureKey, String> gone = outcomes.values().iterator().next().replay() ? Map.of()
                : removedKeys(delta, plan.elsewhere(), target == null ? null : counts.get(target));
        return new Committed(result(delta, outcomes, counts), gone);
    }

    /** Cells other than the target that hold delta keys: index candidates, each confirmed by a key scan. */
    private Map<String, Set<FeatureKey>> findElsewhere(Map<FeatureKey, Set<String>> candidates, Set<FeatureKey> unresolved,
                                                       String target) throws IOException {
        Map<String, Set<FeatureKey>> candidatesByCell = new TreeMap<>();
        for (FeatureKey key : unresolved) {
            candidates.getOrDefault(key, Set.of()).stream().filter(cell -> !cell.equals(target))
                    .forEach(cell -> candidatesByCell.computeIfAbsent(cell, c -> new HashSet<>()).add(key));
        }
        Map<String, Set<FeatureKey>> confirmed = new TreeMap<>();
        for (Map.Entry<String, Set<FeatureKey>> candidate : candidatesByCell.entrySet()) {
            Set<FeatureKey> found = scanLatest(candidate.getKey(), candidate.getValue(), null).result().found();
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
     *
     * @param justRead the partition's state if the caller has just read it, else null
     */
    private Scanned scanLatest(String cell, Set<FeatureKey> keys, PartitionCommit justRead) throws IOException {
        for (int attempt = 1; ; attempt++) {
            PartitionCommit state = attempt == 1 && justRead != null ? justRead : archive.partitionState(cell);
            try {
                return new Scanned(state, scanner.scan(state, keys));
            } catch (NoSuchFileException superseded) {
                if (attempt == SCAN_ATTEMPTS || archive.partitionState(cell).version() == state.version()) {
                    throw superseded;
                }
            }
        }
    }

    /** The index records a commit made stale: keys that left the other cells, deleted keys, keys a Replace removed. */
    private static Map<FeatureKey, String> removedKeys(PartitionDelta delta, Map<String, Set<FeatureKey>> elsewhere,
                                                      Counts targetCounts) {
        Map<FeatureKey, String> gone = new HashMap<>();
        String target = delta.cell();
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
        return gone;
    }

    /**
     * After the commits, removes index records of keys that left a cell. Best effort: a record left behind only
     * costs a confirming scan later.
     */
    private static void forget(KeyIndex index, String operations, Map<FeatureKey, String> gone) {
        try {
            if (!gone.isEmpty()) {
                index.record(Map.of(), gone);
            }
        } catch (IOException | RuntimeException e) {
            LOG.warn("{} committed; removing {} key-index records failed and they stay as harmless extra candidates: {}",
                    operations, gone.size(), e.toString());
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

    /**
     * Upsert and delete: rewrite only the files that hold a delta key, then add the new keys.
     *
     * @param known a scan of {@code current} for the same keys, or null to scan it here
     */
    private PartitionChange merge(PartitionCommit current, Map<FeatureKey, DeltaRow> rows, DataFileStager stager,
                                  Counts counts, KeyScanner.Result known) throws IOException {
        KeyScanner.Result scan = known != null ? known : scanner.scan(current, rows.keySet());
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
