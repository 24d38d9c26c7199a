package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.RowChanges;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.index.KeyRecord;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.example.data.Group;

/**
 * What one run (the batches of several partitions applied together) will do, decided on pinned versions of every
 * partition it read: per batch, what becomes of each of its keys; per partition, the one rewrite that carries out
 * every batch's part in it; and the key-index records of keys that change partition or get a stamp. Committing it is
 * all or nothing, and refused if any partition it read has moved on. A plan is a value: another attempt makes a new
 * one from the same batches. Its collections are read-only views of those the planner built, which it no longer
 * touches.
 *
 * @param batches the batches, in run order, each with its own fate
 * @param work one rewrite per partition the run changes, by cell
 * @param records the key index's records of the run: keys arriving in a partition that did not hold them, keys leaving
 *     one, keys a sequenced write stamped where they are, and tombstones of sequenced deletions of keys stored nowhere
 * @param lookup the key-index lookup the plan rests on; null for an archive without a key
 */
record RunPlan(
        List<BatchPlan> batches, Map<String, PartitionWork> work, List<KeyRecord> records, KeyIndex.Lookup lookup) {

    RunPlan {
        batches = List.copyOf(batches);
        work = Collections.unmodifiableMap(work);
        records = Collections.unmodifiableList(records);
    }

    /** Whether anything is left to commit. */
    boolean hasWork() {
        return !work.isEmpty();
    }

    /** One batch of a run, as the caller gave it: the deltas of one partition (or of a Delete by key). */
    record Batch(int index, List<PartitionDelta> deltas) {

        Batch {
            deltas = List.copyOf(deltas);
        }

        PartitionDelta first() {
            return deltas.get(0);
        }

        String target() {
            return first().cell();
        }
    }

    /**
     * What a run has settled for good about its batches, kept by the writer across its attempts: the batches that
     * failed and those found committed already. The planner adds to it as it finds them, so that a batch keeps its fate
     * even when the plan that found it is then given up (another partition read stale, the storage failing).
     */
    static final class Settled {
        private final Map<Integer, Exception> failures = new HashMap<>();
        private final Map<Integer, PartitionCommit> replays = new HashMap<>();

        /** Why the batch cannot be applied; the other batches go on without it. */
        Exception failure(Batch batch) {
            return failures.get(batch.index());
        }

        /** The target's state when the whole batch was found committed already. */
        PartitionCommit replayOf(Batch batch) {
            return replays.get(batch.index());
        }

        /** Neither failed nor a replay: still to be planned. */
        boolean open(Batch batch) {
            return failure(batch) == null && replayOf(batch) == null;
        }

        void fail(Batch batch, Exception failure) {
            failures.put(batch.index(), failure);
        }

        void replayed(Batch batch, PartitionCommit state) {
            replays.put(batch.index(), state);
        }
    }

    /**
     * What the plan makes of one batch.
     *
     * @param pending the deltas not committed yet, combined; null for a replay
     * @param replayOf the target's state when the whole batch was found committed already
     * @param failure why the batch cannot be applied; the other batches go on without it
     * @param changes its row changes in each partition it changes, in the order it touches them
     */
    record BatchPlan(
            Batch batch,
            PartitionDelta pending,
            PartitionCommit replayOf,
            Exception failure,
            Counts counts,
            Map<String, RowChanges> changes) {

        BatchPlan {
            changes = Collections.unmodifiableMap(changes);
        }

        int index() {
            return batch.index();
        }

        List<PartitionDelta> deltas() {
            return batch.deltas();
        }

        String target() {
            return batch.target();
        }

        /** The partitions this batch changes, in the order it touches them. */
        Set<String> cells() {
            return changes.keySet();
        }
    }

    /** What becomes of a batch's keys, and the bytes its planning read. */
    record Counts(
            long inserted,
            long updated,
            long moved,
            long deleted,
            long olderSkipped,
            long absentDeletes,
            long bytesRead) {}

    /**
     * The one rewrite of a partition in a run: rows replaced and removed in the files that hold them, rows added at
     * the end, or, for a Replace, every file superseded by the new rows.
     *
     * @param pinned the committed state the plan read; the commit is refused if the partition has moved on
     * @param filesHoldingKeys live files holding a replaced or removed key, in live-file order once sorted by {@link
     *     #filesInOrder}
     * @param batches batches with a part in this partition, in run order: each becomes one operation record of the
     *     commit
     * @param targetType the write mode of the batch that targets this partition; null when it only loses keys
     */
    record PartitionWork(
            String cell,
            PartitionCommit pinned,
            Map<FeatureKey, Group> replacements,
            Set<FeatureKey> removals,
            List<Group> appended,
            Set<String> filesHoldingKeys,
            boolean replaceAll,
            List<BatchPlan> batches,
            OperationType targetType,
            boolean keysMoveOut) {

        PartitionWork {
            replacements = Collections.unmodifiableMap(replacements);
            removals = Collections.unmodifiableSet(removals);
            appended = Collections.unmodifiableList(appended);
            filesHoldingKeys = Collections.unmodifiableSet(filesHoldingKeys);
            batches = List.copyOf(batches);
        }

        /**
         * About how many bytes the rewrite reads or writes: the files it rewrites (all of them for a Replace), plus a
         * guess for the rows it adds. Only for ordering the rewrites.
         */
        long expectedBytes() {
            long bytes = 0;
            for (DataFileEntry file : pinned.files()) {
                if (replaceAll || filesHoldingKeys.contains(file.name())) {
                    bytes += file.bytes();
                }
            }
            return bytes + 512L * appended.size();
        }

        /** The files to rewrite, in the partition's live-file order. */
        List<String> filesInOrder() {
            return pinned.fileNames().stream()
                    .filter(filesHoldingKeys::contains)
                    .toList();
        }

        /** What the commit entry says the commit did. */
        OperationType type() {
            if (targetType != null) {
                return targetType;
            }
            return keysMoveOut ? OperationType.MOVE_OUT : OperationType.DELETE;
        }
    }
}
