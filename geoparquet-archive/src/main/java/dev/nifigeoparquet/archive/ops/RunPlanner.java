package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.LiveFiles;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.error.StalePlanException;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.RowChanges;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.index.KeyRecord;
import dev.nifigeoparquet.archive.ops.RunPlan.Batch;
import dev.nifigeoparquet.archive.ops.RunPlan.BatchPlan;
import dev.nifigeoparquet.archive.ops.RunPlan.Counts;
import dev.nifigeoparquet.archive.ops.RunPlan.PartitionWork;
import dev.nifigeoparquet.archive.ops.RunPlan.Settled;
import dev.nifigeoparquet.archive.order.KeyStamp;
import dev.nifigeoparquet.archive.order.StampOrder;
import dev.nifigeoparquet.archive.order.VersionOrder;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;

/**
 * Decides what a run does, reading each partition at one pinned version: which deltas are replays, where each key
 * is now (its target partition's key scan, then the key index and a confirming scan of each other candidate), and
 * what becomes of it. The rules, for a key of an Upsert:
 * <ul>
 * <li>stored nowhere: inserted into the target;</li>
 * <li>stored with a newer version (the archive's version column), wherever that is: left alone;</li>
 * <li>stored in the target: replaced there;</li>
 * <li>stored in another partition: removed there and inserted into the target, in the same commit (a move).</li>
 * </ul>
 * A delete removes the key wherever it is; an Append refuses a key stored anywhere; a Replace makes the target hold
 * exactly the delta's rows and takes its keys out of other partitions. A row of a delta with a sequence is first
 * compared with the key's stamp in the key index and the stored row's version (section 6.4): an older write is left
 * out whatever it is, so that deltas applied in any order converge; an applied one stamps the key, and a deletion
 * leaves its stamp as a tombstone even where the key was stored nowhere. Scans run in parallel on the workers.
 */
final class RunPlanner {

    private final GeoParquetArchive archive;
    private final KeyScanner scanner;
    private final Workers workers;
    private final StampOrder stamps;
    private final VersionOrder versions;

    RunPlanner(GeoParquetArchive archive, Workers workers) {
        this.archive = archive;
        this.scanner = new KeyScanner(archive);
        this.workers = workers;
        this.stamps = StampOrder.of(archive.descriptor(), archive.schema());
        this.versions = stamps.versions();
    }

    /** The order of the archive's writes of one key. */
    StampOrder stamps() {
        return stamps;
    }

    /**
     * Plans the batches that have not failed; a batch that cannot be applied (a damaged partition it needs, an Append of
     * a stored key) gets its failure and the others are planned without it. Each failure and replay goes into {@code
     * settled} as it is found; a batch settled by an earlier attempt keeps its fate.
     *
     * @throws StalePlanException when a partition changed while it was being read; the caller plans again
     */
    RunPlan plan(List<Batch> batches, Settled settled) throws IOException {
        Draft plan = new Draft(batches, settled);
        Pins pins = new Pins();
        for (BatchDraft batch : plan.live()) {
            String target = batch.target();
            if (target == null) {
                batch.pending = PartitionDelta.combine(batch.deltas(), stamps);
                continue;
            }
            PartitionCommit state = pins.get(target);
            List<PartitionDelta> pending = batch.deltas().stream()
                    .filter(delta -> !delta.operationIds().stream().allMatch(state::hasCommitted))
                    .toList();
            if (pending.isEmpty()) {
                batch.replayed(state);
            } else {
                batch.pending = PartitionDelta.combine(pending, stamps);
            }
        }
        if (!archive.descriptor().hasKey()) {
            for (BatchDraft batch : plan.live()) {
                planUnkeyed(plan, batch, pins.get(batch.target()));
            }
            return plan.freeze();
        }
        Map<BatchDraft, TargetScan> targets = scanTargets(plan.live(), pins);
        Map<FeatureKey, BatchDraft> unresolved = new LinkedHashMap<>();
        // Keys whose stamp matters: those of sequenced rows, wherever they are, and every key not found in its target.
        Set<FeatureKey> lookedUp = new HashSet<>();
        for (BatchDraft batch : plan.live()) {
            Set<FeatureKey> inTarget =
                    targets.containsKey(batch) ? targets.get(batch).keys().found() : Set.of();
            for (FeatureKey key : batch.pending.rowsByKey().keySet()) {
                if (!inTarget.contains(key)) {
                    unresolved.put(key, batch);
                    lookedUp.add(key);
                } else if (batch.pending.sequenceOf(key) != null) {
                    lookedUp.add(key);
                }
            }
        }
        plan.lookup = new KeyIndex(archive).lookUp(lookedUp);
        Map<FeatureKey, Map<String, Group>> elsewhere = scanCandidates(plan.lookup, unresolved, pins);
        for (BatchDraft batch : plan.live()) {
            decide(plan, batch, targets.get(batch), elsewhere, pins);
        }
        return plan.freeze();
    }

    /** An archive without a key: an Append adds its rows, a Replace supersedes every file. */
    private static void planUnkeyed(Draft plan, BatchDraft batch, PartitionCommit state) {
        PartitionDelta delta = batch.pending;
        WorkDraft work = plan.workOn(delta.cell(), state);
        work.targetType = delta.mode().operationType();
        work.batches.add(batch.index);
        work.appended.addAll(delta.unkeyedRows());
        batch.inserted = delta.unkeyedRows().size();
        if (delta.mode() == WriteMode.REPLACE) {
            work.replaceAll = true;
            batch.deleted = state.rowCount();
        }
        batch.change(delta.cell(), RowChanges.inserted(batch.inserted).plus(RowChanges.deleted(batch.deleted)));
    }

    private static boolean scansTarget(BatchDraft batch) {
        return batch.target() != null && batch.pending.mode() != WriteMode.APPEND;
    }

    /** A target's key scan, and for a Replace every key the target holds. */
    private record TargetScan(KeyScanner.Result keys, Set<FeatureKey> allKeys) {}

    /**
     * Scans each target for its batch's keys. An Append's keys must be new, which the key index alone tells (it never
     * misses a stored key): its target is not scanned, and the index's candidates, the target among them, are confirmed
     * like any other's.
     */
    private Map<BatchDraft, TargetScan> scanTargets(List<BatchDraft> batches, Pins pins) throws IOException {
        // The largest partitions first, so the workers run out of scans at about the same time: in batch order, a large
        // partition scanned last left the other worker idle for most of its scan.
        Map<BatchDraft, Long> rows = new HashMap<>();
        for (BatchDraft batch : batches) {
            if (scansTarget(batch)) {
                rows.put(batch, pins.get(batch.target()).rowCount());
            }
        }
        List<BatchDraft> withTarget = batches.stream()
                .filter(rows::containsKey)
                .sorted(Comparator.comparingLong(rows::get).reversed())
                .toList();
        List<Workers.Outcome<TargetScan>> scans = workers.map(withTarget, batch -> {
            PartitionCommit state = pins.get(batch.target());
            KeyScanner.Result keys =
                    scanner.scan(state, batch.pending.rowsByKey().keySet());
            return new TargetScan(keys, batch.pending.mode() == WriteMode.REPLACE ? allKeys(state) : null);
        });
        Map<BatchDraft, TargetScan> targets = new HashMap<>();
        for (int i = 0; i < withTarget.size(); i++) {
            BatchDraft batch = withTarget.get(i);
            Workers.Outcome<TargetScan> scan = scans.get(i);
            if (scan.failed()) {
                batch.fail(partitionFailure(batch.target(), scan.failure(), pins));
            } else {
                targets.put(batch, scan.value());
                batch.bytesRead += scan.value().keys().bytesRead();
            }
        }
        return targets;
    }

    /** Where else the unresolved keys are: the index's candidates, each confirmed by a scan of that partition. */
    private Map<FeatureKey, Map<String, Group>> scanCandidates(
            KeyIndex.Lookup lookup, Map<FeatureKey, BatchDraft> unresolved, Pins pins) throws IOException {
        Map<String, Set<FeatureKey>> wantedByCell = new TreeMap<>();
        unresolved.forEach((key, batch) -> {
            if (batch.failure() == null) {
                lookup.candidates().getOrDefault(key, Set.of()).stream()
                        .filter(cell -> !(scansTarget(batch) && cell.equals(batch.target())))
                        .forEach(cell -> wantedByCell
                                .computeIfAbsent(cell, c -> new HashSet<>())
                                .add(key));
            }
        });
        List<String> cells = List.copyOf(wantedByCell.keySet());
        List<Workers.Outcome<KeyScanner.Result>> scans =
                workers.map(cells, cell -> scanner.scan(pins.get(cell), wantedByCell.get(cell)));
        Map<FeatureKey, Map<String, Group>> elsewhere = new HashMap<>();
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            Workers.Outcome<KeyScanner.Result> scan = scans.get(i);
            if (scan.failed()) {
                Exception failure = partitionFailure(cell, scan.failure(), pins);
                wantedByCell.get(cell).forEach(key -> unresolved.get(key).fail(failure));
                continue;
            }
            scan.value()
                    .stored()
                    .forEach((key, stored) ->
                            elsewhere.computeIfAbsent(key, k -> new TreeMap<>()).put(cell, stored));
            scan.value().fileOf().forEach((key, file) -> pins.fileOf.put(new Located(cell, key), file));
            BatchDraft first = wantedByCell.get(cell).stream()
                    .map(unresolved::get)
                    .min((a, b) -> a.index - b.index)
                    .orElseThrow();
            first.bytesRead += scan.value().bytesRead();
        }
        return elsewhere;
    }

    /**
     * What a partition's read failure means: a stale plan when the partition moved on meanwhile (another writer superseded
     * the file), otherwise the failure of the batches that need the partition, which is damaged or unreadable. Failures
     * of the storage itself end the run.
     */
    private Exception partitionFailure(String cell, Exception failure, Pins pins) throws IOException {
        return Failures.damage(archive, cell, pins.get(cell).version(), failure, "read");
    }

    /** Decides the fate of every key of one batch and adds its part to the partitions' rewrites. */
    private void decide(
            Draft plan,
            BatchDraft batch,
            TargetScan targetScan,
            Map<FeatureKey, Map<String, Group>> elsewhere,
            Pins pins)
            throws IOException {
        if (batch.failure() != null || batch.replayOf() != null) {
            return;
        }
        PartitionDelta delta = batch.pending;
        String target = delta.cell();
        KeyScanner.Result inTarget = targetScan == null ? null : targetScan.keys();
        Map<FeatureKey, Group> storedInTarget = inTarget == null ? Map.of() : inTarget.stored();
        if (delta.mode() == WriteMode.APPEND) {
            List<String> held = new ArrayList<>();
            for (FeatureKey key : delta.rowsByKey().keySet()) {
                if (storedInTarget.containsKey(key)) {
                    held.add(key + " (in " + target + ")");
                }
                elsewhere.getOrDefault(key, Map.of()).keySet().forEach(cell -> held.add(key + " (in " + cell + ")"));
            }
            if (!held.isEmpty()) {
                batch.fail(new DeltaRejectedException(
                        "Append to partition " + target,
                        "the archive already holds keys " + held.subList(0, Math.min(10, held.size()))
                                + (held.size() > 10 ? " and " + (held.size() - 10) + " more" : "")
                                + "; use Upsert to change existing features"));
                return;
            }
        }
        Edits edits = new Edits(plan, batch, pins, inTarget, archive.clock().instant());
        if (delta.mode() == WriteMode.REPLACE) {
            decideReplace(edits, delta, targetScan, elsewhere);
        } else {
            for (Map.Entry<FeatureKey, DeltaRow> entry : delta.rowsByKey().entrySet()) {
                decideKey(
                        edits,
                        entry.getKey(),
                        entry.getValue(),
                        storedInTarget.get(entry.getKey()),
                        elsewhere.getOrDefault(entry.getKey(), Map.of()));
            }
        }
        // The target records the operation, so a redelivery is recognised, unless a Delete only reached other
        // partitions.
        boolean changedElsewhere = batch.cells.stream().anyMatch(cell -> !cell.equals(target));
        if (target != null && (delta.mode() != WriteMode.DELETE || batch.cells.contains(target) || !changedElsewhere)) {
            edits.target().targetType = delta.mode().operationType();
            batch.change(target, RowChanges.NONE);
        }
        batch.cells.forEach(cell -> plan.work.get(cell).batches.add(batch.index));
    }

    private void decideKey(
            Edits edits, FeatureKey key, DeltaRow row, Group storedInTarget, Map<String, Group> storedElsewhere)
            throws IOException {
        BatchDraft batch = edits.batch;
        boolean stored = storedInTarget != null || !storedElsewhere.isEmpty();
        KeyStamp recorded = edits.plan.lookup.stamps().get(key);
        Long sequence = batch.pending.sequenceOf(key);
        KeyStamp write = sequence == null ? null : stamps.stampOf(row.row(), sequence, edits.now);
        if (write != null
                && stamps.isOlder(write, stored, newestStoredVersion(storedInTarget, storedElsewhere), recorded)) {
            batch.olderSkipped++;
            return;
        }
        // What the key's records carry: this write's stamp, or for an unsequenced one the stamp the key had.
        KeyStamp after = write != null ? write : recorded;
        if (row.delete()) {
            if (!stored) {
                batch.absentDeletes++;
                if (write != null) {
                    edits.plan.records.add(KeyRecord.tombstone(key, write));
                }
                return;
            }
            if (storedInTarget != null) {
                edits.remove(edits.targetCell(), key, RowChanges.ONE_DELETED, after);
            }
            for (String cell : storedElsewhere.keySet()) {
                edits.remove(cell, key, RowChanges.ONE_DELETED, after);
            }
            batch.deleted += (storedInTarget == null ? 0 : 1) + storedElsewhere.size();
            return;
        }
        if (write == null
                && versions != null
                && ((storedInTarget != null && versions.deltaIsOlder(row.row(), storedInTarget))
                        || storedElsewhere.values().stream()
                                .anyMatch(copy -> versions.deltaIsOlder(row.row(), copy)))) {
            batch.olderSkipped++;
            return;
        }
        if (storedInTarget != null) {
            edits.replace(key, row.row(), write);
            batch.updated++;
            // A copy of the key in another partition is a leftover of an inconsistent archive: the delta's row is the
            // one kept.
            for (String cell : storedElsewhere.keySet()) {
                edits.remove(cell, key, RowChanges.ONE_DELETED, after);
            }
            batch.deleted += storedElsewhere.size();
            return;
        }
        boolean first = true;
        for (String cell : storedElsewhere.keySet()) {
            edits.remove(cell, key, first ? RowChanges.ONE_MOVED_OUT : RowChanges.ONE_DELETED, after);
            if (!first) {
                batch.deleted++;
            }
            first = false;
        }
        if (storedElsewhere.isEmpty()) {
            edits.append(key, row.row(), RowChanges.ONE_INSERTED, after);
            batch.inserted++;
        } else {
            edits.append(key, row.row(), RowChanges.ONE_MOVED_IN, after);
            batch.updated++;
            batch.moved++;
        }
    }

    /** The greatest version among a key's stored rows (null when none has one, or the archive has no version column). */
    private Binary newestStoredVersion(Group storedInTarget, Map<String, Group> storedElsewhere) {
        if (versions == null) {
            return null;
        }
        Binary newest = storedInTarget == null ? null : versions.valueOf(storedInTarget);
        for (Group stored : storedElsewhere.values()) {
            Binary version = versions.valueOf(stored);
            if (versions.compare(version, newest) > 0) {
                newest = version;
            }
        }
        return newest;
    }

    /** The target becomes exactly the delta's rows; its keys are taken out of other partitions. Versions do not apply. */
    private static void decideReplace(
            Edits edits, PartitionDelta delta, TargetScan targetScan, Map<FeatureKey, Map<String, Group>> elsewhere)
            throws IOException {
        BatchDraft batch = edits.batch;
        WorkDraft target = edits.target();
        target.replaceAll = true;
        Set<FeatureKey> held = targetScan.allKeys();
        long kept = 0;
        for (Map.Entry<FeatureKey, DeltaRow> entry : delta.rowsByKey().entrySet()) {
            FeatureKey key = entry.getKey();
            Map<String, Group> others = elsewhere.getOrDefault(key, Map.of());
            KeyStamp recorded = edits.plan.lookup.stamps().get(key);
            if (entry.getValue().delete()) {
                for (String cell : others.keySet()) {
                    edits.remove(cell, key, RowChanges.ONE_DELETED, recorded);
                }
                batch.deleted += others.size();
                continue;
            }
            target.appended.add(entry.getValue().row());
            if (held.contains(key)) {
                kept++;
                batch.updated++;
            } else if (!others.isEmpty()) {
                boolean first = true;
                for (String cell : others.keySet()) {
                    edits.remove(cell, key, first ? RowChanges.ONE_MOVED_OUT : RowChanges.ONE_DELETED, recorded);
                    batch.deleted += first ? 0 : 1;
                    first = false;
                }
                edits.plan.records.add(KeyRecord.present(key, delta.cell(), recorded));
                batch.change(delta.cell(), RowChanges.ONE_MOVED_IN);
                batch.updated++;
                batch.moved++;
            } else {
                edits.plan.records.add(KeyRecord.present(key, delta.cell(), recorded));
                batch.change(delta.cell(), RowChanges.ONE_INSERTED);
                batch.inserted++;
            }
        }
        for (FeatureKey key : held) {
            DeltaRow row = delta.rowsByKey().get(key);
            if (row == null || row.delete()) {
                // Keys the target held were not looked up: their stamps stay as the index has them.
                edits.plan.records.add(KeyRecord.gone(key, delta.cell(), null));
            }
        }
        long replacedAway = target.pinned.rowCount() - kept;
        batch.deleted += replacedAway;
        batch.change(delta.cell(), RowChanges.updated(kept).plus(RowChanges.deleted(replacedAway)));
    }

    /** Every key a partition holds (a Replace must know which keys it takes out). */
    private Set<FeatureKey> allKeys(PartitionCommit state) throws IOException {
        Set<FeatureKey> keys = new HashSet<>();
        for (DataFileEntry file : state.files()) {
            try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), state, file)) {
                reader.project(archive.descriptor().keyColumns());
                FeatureKey.Extractor extractor = FeatureKey.extractor(
                        reader.readSchema(), archive.descriptor().keyColumns());
                reader.rows().forEachRemaining(row -> keys.add(extractor.keyOf(row)));
            }
        }
        return keys;
    }

    /** One batch's changes, added to the partitions' rewrites and the index records as they are decided. */
    private static final class Edits {
        final Draft plan;
        final BatchDraft batch;
        final Pins pins;
        final KeyScanner.Result inTarget;
        /** When the plan's stamps are recorded. */
        final Instant now;

        Edits(Draft plan, BatchDraft batch, Pins pins, KeyScanner.Result inTarget, Instant now) {
            this.plan = plan;
            this.batch = batch;
            this.pins = pins;
            this.inTarget = inTarget;
            this.now = now;
        }

        String targetCell() {
            return batch.pending.cell();
        }

        WorkDraft target() throws IOException {
            return plan.workOn(targetCell(), pins.get(targetCell()));
        }

        /** Replaces the key's row in the target; a sequenced write ({@code stamp} not null) records its stamp there. */
        void replace(FeatureKey key, Group row, KeyStamp stamp) throws IOException {
            WorkDraft work = target();
            work.replacements.put(key, row);
            work.filesHoldingKeys.add(inTarget.fileOf().get(key));
            batch.change(targetCell(), RowChanges.ONE_UPDATED);
            if (stamp != null) {
                plan.records.add(KeyRecord.present(key, targetCell(), stamp));
            }
        }

        void append(FeatureKey key, Group row, RowChanges change, KeyStamp stamp) throws IOException {
            target().appended.add(row);
            plan.records.add(KeyRecord.present(key, targetCell(), stamp));
            batch.change(targetCell(), change);
        }

        void remove(String cell, FeatureKey key, RowChanges change, KeyStamp stamp) throws IOException {
            WorkDraft work = plan.workOn(cell, pins.get(cell));
            work.removals.add(key);
            boolean inTargetScan = cell.equals(targetCell())
                    && inTarget != null
                    && inTarget.fileOf().containsKey(key);
            work.filesHoldingKeys.add(
                    inTargetScan ? inTarget.fileOf().get(key) : pins.fileOf.get(new Located(cell, key)));
            work.keysMoveOut |= change.movedOut() > 0;
            plan.records.add(KeyRecord.gone(key, cell, stamp));
            batch.change(cell, change);
        }
    }

    /**
     * The plan as it is decided, frozen into a {@link RunPlan} at the end of {@link #plan}. A batch's failure or replay
     * goes into the run's {@link Settled} when it is found rather than into the draft.
     */
    private static final class Draft {
        final Settled settled;
        final List<BatchDraft> batches;
        final Map<String, WorkDraft> work = new TreeMap<>();
        final List<KeyRecord> records = new ArrayList<>();
        KeyIndex.Lookup lookup;

        Draft(List<Batch> batches, Settled settled) {
            this.settled = settled;
            this.batches = batches.stream()
                    .map(batch -> new BatchDraft(batch, settled))
                    .toList();
        }

        /** The batches still to decide: neither failed nor replays. */
        List<BatchDraft> live() {
            return batches.stream().filter(batch -> settled.open(batch.input)).toList();
        }

        /** The rewrite of a partition, created on first use. */
        WorkDraft workOn(String cell, PartitionCommit pinned) {
            return work.computeIfAbsent(cell, c -> new WorkDraft(c, pinned));
        }

        /** The plan; the draft is dropped, so its collections are handed over rather than copied. */
        RunPlan freeze() {
            Map<Integer, BatchPlan> frozen = new LinkedHashMap<>();
            batches.forEach(batch -> frozen.put(batch.index, batch.freeze()));
            Map<String, PartitionWork> frozenWork = new TreeMap<>();
            work.forEach((cell, draft) -> frozenWork.put(cell, draft.freeze(frozen)));
            return new RunPlan(List.copyOf(frozen.values()), frozenWork, records, lookup);
        }
    }

    /** One batch's part of the plan as it is decided. */
    private static final class BatchDraft {
        final Batch input;
        final int index;
        private final Settled settled;
        /** The deltas not committed yet, combined; null for a replay. */
        PartitionDelta pending;

        long inserted;
        long updated;
        long moved;
        long deleted;
        long olderSkipped;
        long absentDeletes;
        long bytesRead;
        /** The partitions this batch changes, in the order it touches them. */
        final Set<String> cells = new LinkedHashSet<>();
        /** Its row changes in each of them. */
        final Map<String, RowChanges> changes = new LinkedHashMap<>();

        BatchDraft(Batch input, Settled settled) {
            this.input = input;
            this.index = input.index();
            this.settled = settled;
        }

        List<PartitionDelta> deltas() {
            return input.deltas();
        }

        String target() {
            return input.target();
        }

        Exception failure() {
            return settled.failure(input);
        }

        PartitionCommit replayOf() {
            return settled.replayOf(input);
        }

        void fail(Exception failure) {
            settled.fail(input, failure);
        }

        void replayed(PartitionCommit state) {
            settled.replayed(input, state);
        }

        void change(String cell, RowChanges change) {
            cells.add(cell);
            changes.merge(cell, change, RowChanges::plus);
        }

        BatchPlan freeze() {
            Counts counts = new Counts(inserted, updated, moved, deleted, olderSkipped, absentDeletes, bytesRead);
            return new BatchPlan(input, pending, replayOf(), failure(), counts, changes);
        }
    }

    /** One partition's rewrite as it is decided. */
    private static final class WorkDraft {
        final String cell;
        final PartitionCommit pinned;
        final Map<FeatureKey, Group> replacements = new LinkedHashMap<>();
        final Set<FeatureKey> removals = new HashSet<>();
        final List<Group> appended = new ArrayList<>();
        final Set<String> filesHoldingKeys = new HashSet<>();
        boolean replaceAll;
        /** The run indexes of the batches with a part in it. */
        final Set<Integer> batches = new TreeSet<>();

        OperationType targetType;
        boolean keysMoveOut;

        WorkDraft(String cell, PartitionCommit pinned) {
            this.cell = cell;
            this.pinned = pinned;
        }

        PartitionWork freeze(Map<Integer, BatchPlan> plans) {
            return new PartitionWork(
                    cell,
                    pinned,
                    replacements,
                    removals,
                    appended,
                    filesHoldingKeys,
                    replaceAll,
                    batches.stream().map(plans::get).toList(),
                    targetType,
                    keysMoveOut);
        }
    }

    /** A key in a partition. */
    private record Located(String cell, FeatureKey key) {}

    /** Every partition's state, read once per plan, so every scan of it sees the same version. */
    private final class Pins {
        private final Map<String, PartitionCommit> states = new ConcurrentHashMap<>();
        /** Which live file of a candidate partition holds a key, from the confirming scans. */
        Map<Located, String> fileOf = new ConcurrentHashMap<>();

        /** The pinned state: the first read of the partition in this plan, whichever thread made it. */
        PartitionCommit get(String cell) throws IOException {
            PartitionCommit pinned = states.get(cell);
            if (pinned != null) {
                return pinned;
            }
            PartitionCommit read = archive.partitionState(cell);
            PartitionCommit first = states.putIfAbsent(cell, read);
            return first != null ? first : read;
        }
    }
}
