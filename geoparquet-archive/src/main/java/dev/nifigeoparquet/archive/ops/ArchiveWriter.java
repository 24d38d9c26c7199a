package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.CommitOutcome;
import dev.nifigeoparquet.archive.commit.NewDataFile;
import dev.nifigeoparquet.archive.commit.PartitionCommitter;
import dev.nifigeoparquet.archive.commit.PartitionCommitter.Planned;
import dev.nifigeoparquet.archive.concurrent.Retry;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.error.CommitConflictException;
import dev.nifigeoparquet.archive.error.CorruptDataException;
import dev.nifigeoparquet.archive.error.ParticipantFailedException;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.OperationRecord;
import dev.nifigeoparquet.archive.format.RowChanges;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.ops.RunPlan.Batch;
import dev.nifigeoparquet.archive.ops.RunPlan.BatchPlan;
import dev.nifigeoparquet.archive.ops.RunPlan.Counts;
import dev.nifigeoparquet.archive.ops.RunPlan.PartitionWork;
import dev.nifigeoparquet.archive.ops.RunPlan.Settled;
import dev.nifigeoparquet.archive.storage.StorageCost;
import dev.nifigeoparquet.archive.storage.StorageMeter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies validated deltas under the commit protocol: append, upsert, delete or replace.
 *
 * <p>A run takes the batches of several partitions (each batch the deltas of one partition) and commits them as one
 * transaction: every partition it changes is rewritten once, in parallel on the workers, whichever batches have a
 * part in it (a key moving out of it, a delete reaching it). The plan is made on pinned versions of every partition it
 * reads; the commit is refused if any of them, or the key index's record of any of its keys, changed meanwhile, and
 * the run then plans again on the new state. So of two writers touching one key, one commits and the other re-plans:
 * per key, writes are linearizable across threads, processes and nodes.
 *
 * <p>What fails a batch and what fails a run: a batch whose partition is damaged (an unreadable data file) or whose
 * input the archive refuses (an Append of a stored key) fails alone, and the run goes on without it. A failure of the
 * storage, or a conflict that outlasts the attempts, fails every batch of the transaction it hits, none of which was
 * committed, and retrying them is safe; the run's earlier transactions stay committed and its later ones still run.
 * A batch writing a key that an earlier batch of the run also writes (or the same partition,
 * in an archive without a key) goes into a later transaction, after the earlier one committed.
 *
 * <p>Memory grows with the deltas and one row group per worker, never with a partition.
 */
public final class ArchiveWriter {

    private static final Logger LOG = LoggerFactory.getLogger(ArchiveWriter.class);

    /**
     * How many partitions' batches a run takes by default: enough for them to share the key index's lookups and one
     * journal commit, few enough that a run's deltas and its plan stay small in memory.
     */
    public static final int DEFAULT_PARTITIONS_PER_RUN = 50;

    private final GeoParquetArchive archive;
    private final Workers workers;
    private final RunPlanner planner;
    private final PartitionRewriter rewriter;

    /** A writer using the archive's workers (one per core). */
    public ArchiveWriter(GeoParquetArchive archive) {
        this(archive, archive.workers());
    }

    /** A writer rewriting partitions on {@code workers}. */
    public ArchiveWriter(GeoParquetArchive archive, Workers workers) {
        this.archive = archive;
        this.workers = workers;
        this.planner = new RunPlanner(archive, workers);
        this.rewriter = new PartitionRewriter(archive);
    }

    /** Applies one delta. */
    public OperationResult apply(PartitionDelta delta) throws IOException {
        return applyBatch(List.of(delta));
    }

    /**
     * Applies several deltas of one partition and mode with one rewrite of the partition. Deltas already committed are
     * left out (each is recognised by its own id), so a redelivered delta is never applied twice, whether it comes back
     * alone or in another batch. The result is a replay only when every delta was.
     */
    public OperationResult applyBatch(List<PartitionDelta> deltas) throws IOException {
        return applyAll(List.of(deltas)).get(0).orThrow();
    }

    /**
     * What became of one batch in {@link #applyAll}: its result, or the failure that left the archive without it, and
     * the storage requests it made.
     */
    public record BatchOutcome(OperationResult result, Exception failure, StorageCost cost) {

        /** The result, or the failure thrown as it was (a checked failure other than an I/O one wrapped). */
        public OperationResult orThrow() throws IOException {
            if (failure != null) {
                throw Workers.rethrowable(failure);
            }
            return result;
        }
    }

    /**
     * Applies the batches of several partitions, as one run of UpsertGeoParquetPartition or the command line takes them.
     *
     * @return one outcome per batch, in order; the storage requests of a transaction are put on its first batch
     */
    public List<BatchOutcome> applyAll(List<List<PartitionDelta>> batches) {
        if (batches.stream().anyMatch(List::isEmpty)) {
            throw new IllegalArgumentException("Every batch needs at least one delta");
        }
        List<Batch> inputs = new ArrayList<>();
        for (int i = 0; i < batches.size(); i++) {
            inputs.add(new Batch(i, batches.get(i)));
        }
        OperationResult[] results = new OperationResult[inputs.size()];
        StorageCost[] costs = new StorageCost[inputs.size()];
        Arrays.fill(costs, StorageCost.NONE);
        Settled settled = new Settled();
        List<Batch> remaining = new ArrayList<>(inputs);
        while (!remaining.isEmpty()) {
            List<Batch> round = nextTransaction(remaining);
            remaining.removeAll(round);
            StorageMeter.Attempt<Void> attempt = StorageMeter.attempt(() -> {
                runTransaction(round, settled, results);
                return null;
            });
            if (attempt.failure() != null) {
                round.stream()
                        .filter(batch -> results[batch.index()] == null && settled.failure(batch) == null)
                        .forEach(batch -> settled.fail(batch, attempt.failure()));
            }
            costs[round.get(0).index()] = costs[round.get(0).index()].plus(attempt.cost());
        }
        List<BatchOutcome> outcomes = new ArrayList<>();
        for (Batch batch : inputs) {
            Exception failure = settled.failure(batch);
            outcomes.add(
                    failure != null
                            ? new BatchOutcome(null, failure, costs[batch.index()])
                            : new BatchOutcome(results[batch.index()], null, costs[batch.index()]));
        }
        return outcomes;
    }

    /**
     * The batches that can share one transaction: in run order, each whose keys (and, in an archive without a key,
     * whose partition) no earlier remaining batch has. The others wait for a later one, so they see its commit.
     */
    private List<Batch> nextTransaction(List<Batch> remaining) {
        List<Batch> together = new ArrayList<>();
        Set<FeatureKey> keys = new HashSet<>();
        Set<String> targets = new HashSet<>();
        boolean keyed = archive.descriptor().hasKey();
        for (Batch batch : remaining) {
            boolean independent = keyed || targets.add(batch.target());
            // A key in two deltas of one batch is the batch's own: they are combined into one rewrite.
            Set<FeatureKey> batchKeys = new HashSet<>();
            for (PartitionDelta delta : batch.deltas()) {
                batchKeys.addAll(delta.rowsByKey().keySet());
            }
            for (FeatureKey key : batchKeys) {
                independent &= keys.add(key);
            }
            if (independent) {
                together.add(batch);
            }
        }
        return together;
    }

    /** Plans and commits one transaction's batches, planning again while another writer gets in the way. */
    private void runTransaction(List<Batch> batches, Settled settled, OperationResult[] results) throws IOException {
        Retry.onConflict(
                        CommitConflictException.class,
                        archive.descriptor().protocol().maxCommitAttempts(),
                        "the archive")
                .run(attempt -> {
                    planAndCommit(batches, settled, results);
                    return null;
                });
    }

    /**
     * One attempt: plans the batches that have not failed and commits them. A batch whose partition is damaged fails and
     * the rest is planned again, from the same batches; another writer getting in the way (a stale plan, a lost commit,
     * a file superseded while it was rewritten) is a conflict, for the caller to redo.
     */
    private void planAndCommit(List<Batch> batches, Settled settled, OperationResult[] results) throws IOException {
        while (true) {
            List<Batch> live = batches.stream()
                    .filter(batch -> settled.failure(batch) == null)
                    .toList();
            if (live.isEmpty()) {
                return;
            }
            RunPlan plan = planner.plan(live, settled);
            if (!plan.hasWork()) {
                finish(plan, Committed.NOTHING, results);
                return;
            }
            try {
                finish(plan, commit(plan), results);
                return;
            } catch (ParticipantFailedException failed) {
                PartitionWork work = plan.work().get(failed.cell());
                // The partition is damaged: the batches that need it fail, the others go on without them.
                CorruptDataException failure = Failures.damage(
                        archive, work.cell(), work.pinned().version(), (Exception) failed.getCause(), "rewritten");
                work.batches().forEach(batch -> settled.fail(batch.batch(), failure));
            }
        }
    }

    /**
     * What a transaction committed: each partition's outcome and the bytes its rewrite read. The committer hands back
     * only each rewrite's change, so the writer gathers what each one read, by partition.
     */
    private record Committed(Map<String, CommitOutcome> outcomes, Map<String, Long> bytesRead) {
        static final Committed NOTHING = new Committed(Map.of(), Map.of());
    }

    /** Commits the plan's partitions and, when keys change partition, the key index's records, as one transaction. */
    private Committed commit(RunPlan plan) throws IOException {
        Map<String, Long> bytesRead = new ConcurrentHashMap<>();
        List<Planned> participants = new ArrayList<>();
        for (PartitionWork work : plan.work().values()) {
            List<OperationRecord> operations = new ArrayList<>();
            work.batches()
                    .forEach(batch -> operations.add(new OperationRecord(
                            batch.pending().operationIds(),
                            batch.changes().getOrDefault(work.cell(), RowChanges.NONE),
                            batch.pending().sequences())));
            participants.add(
                    new Planned(work.cell(), work.pinned().version(), work.type(), operations, (current, stager) -> {
                        PartitionRewriter.Rewritten rewritten = rewriter.rewrite(current, work, stager);
                        bytesRead.put(work.cell(), rewritten.bytesRead());
                        return rewritten.change();
                    }));
        }
        // The largest rewrites first: the pool's threads then run out of work at about the same time.
        participants.sort(Comparator.comparingLong((Planned participant) ->
                        plan.work().get(participant.cell()).expectedBytes())
                .reversed());
        KeyIndex index = archive.descriptor().hasKey() ? new KeyIndex(archive) : null;
        PartitionCommitter.LateParticipant journal =
                index == null || plan.records().isEmpty() ? null : index.journalRecords(plan.lookup(), plan.records());
        Map<String, CommitOutcome> outcomes = archive.committer().commitPlanned(participants, journal, workers);
        if (journal != null) {
            try {
                index.foldIfDue();
            } catch (IOException | RuntimeException e) {
                LOG.warn("The key index's journal could not be folded now; the next writer folds it: {}", e.toString());
            }
        }
        return new Committed(outcomes, bytesRead);
    }

    /** Each batch's result: replays, batches that found nothing to change, and those the transaction committed. */
    private void finish(RunPlan plan, Committed committed, OperationResult[] results) {
        Map<String, CommitOutcome> outcomes = committed.outcomes();
        Map<String, Long> running = new HashMap<>();
        outcomes.forEach((cell, outcome) -> running.put(cell, outcome.before().rowCount()));
        Map<String, Integer> chargedTo = new HashMap<>();
        plan.work()
                .values()
                .forEach(work -> chargedTo.put(
                        work.cell(),
                        work.batches().stream()
                                .filter(batch -> work.cell().equals(batch.target()))
                                .findFirst()
                                .orElse(work.batches().get(0))
                                .index()));
        for (BatchPlan batch : plan.batches()) {
            if (batch.failure() != null) {
                continue;
            }
            if (batch.replayOf() != null) {
                PartitionDelta all = PartitionDelta.combine(batch.deltas(), planner.stamps());
                results[batch.index()] =
                        OperationResult.replayOf(all.deltaId(), batch.replayOf().rowCount(), all.duplicateKeys());
                continue;
            }
            long before = 0;
            long after = 0;
            List<OperationResult.Commit> commits = new ArrayList<>();
            OperationResult.FileCounts files = OperationResult.FileCounts.NONE;
            Counts counts = batch.counts();
            long bytesRead = counts.bytesRead();
            for (String cell : batch.cells()) {
                CommitOutcome outcome = outcomes.get(cell);
                long rows = running.get(cell);
                before += rows;
                rows += batch.changes().get(cell).net();
                running.put(cell, rows);
                after += rows;
                commits.add(new OperationResult.Commit(cell, outcome.after().version()));
                if (chargedTo.get(cell) == batch.index()) {
                    files = files.plus(filesOf(outcome));
                    bytesRead += committed.bytesRead().getOrDefault(cell, 0L);
                }
            }
            OperationResult.RowCounts rows = new OperationResult.RowCounts(
                    counts.inserted(),
                    counts.updated(),
                    counts.moved(),
                    counts.deleted(),
                    counts.olderSkipped(),
                    batch.pending().duplicateKeys(),
                    counts.absentDeletes());
            results[batch.index()] = new OperationResult(
                    batch.pending().deltaId(), false, commits, before, after, rows, files, bytesRead);
        }
    }

    private static OperationResult.FileCounts filesOf(CommitOutcome outcome) {
        Set<String> removed = new HashSet<>(outcome.change().removed());
        return new OperationResult.FileCounts(
                outcome.change().added().size(),
                outcome.change().added().stream().mapToLong(NewDataFile::bytes).sum(),
                removed.size(),
                outcome.before().files().stream()
                        .filter(file -> removed.contains(file.name()))
                        .mapToLong(DataFileEntry::bytes)
                        .sum());
    }
}
