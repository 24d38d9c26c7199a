package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.RowChanges;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.index.KeyRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;

/**
 * What one run (the batches of several partitions applied together) will do, decided on pinned versions of every
 * partition it read: per batch, what becomes of each of its keys; per partition, the one rewrite that carries out
 * every batch's part in it; and the key-index records of keys that change partition or get a stamp. Committing it is
 * all or nothing, and refused if any partition it read has moved on.
 */
final class RunPlan {

    /** The batches, in run order, each with its own fate. */
    final List<BatchPlan> batches;
    /** One rewrite per partition the run changes, by cell. */
    final Map<String, PartitionWork> work = new TreeMap<>();
    /**
     * The key index's records of the run: keys arriving in a partition that did not hold them, keys leaving one, keys
     * a sequenced write stamped where they are, and tombstones of sequenced deletions of keys stored nowhere.
     */
    final List<KeyRecord> records = new ArrayList<>();
    /** The key-index lookup the plan rests on; null for an archive without a key. */
    KeyIndex.Lookup lookup;

    RunPlan(List<BatchPlan> batches) {
        this.batches = batches;
    }

    /** Whether anything is left to commit. */
    boolean hasWork() {
        return !work.isEmpty();
    }

    /** The rewrite of a partition, created on first use. */
    PartitionWork workOn(String cell, PartitionCommit pinned) {
        return work.computeIfAbsent(cell, c -> new PartitionWork(c, pinned));
    }

    /** The batches still to be committed: neither replays, nor failed, nor without any partition to change. */
    List<BatchPlan> committing() {
        return batches.stream().filter(BatchPlan::commits).toList();
    }

    /** One batch of the run: the deltas of one partition (or of a Delete by key) and what the plan makes of them. */
    static final class BatchPlan {
        final int index;
        final List<PartitionDelta> deltas;
        /** The deltas not committed yet, combined; null for a replay. */
        PartitionDelta pending;
        /** The target's state when the whole batch was found committed already. */
        PartitionCommit replayOf;
        /** Why the batch cannot be applied; the other batches go on without it. */
        Exception failure;

        long inserted;
        long updated;
        long moved;
        long deleted;
        long olderSkipped;
        long absentDeletes;
        long bytesRead;
        /** The partitions this batch changes, in the order it touches them. */
        Set<String> cells = new LinkedHashSet<>();
        /** Its row changes in each of them. */
        Map<String, RowChanges> changes = new LinkedHashMap<>();

        BatchPlan(int index, List<PartitionDelta> deltas) {
            this.index = index;
            this.deltas = List.copyOf(deltas);
        }

        PartitionDelta first() {
            return deltas.get(0);
        }

        String target() {
            return first().cell();
        }

        boolean commits() {
            return failure == null && replayOf == null && !cells.isEmpty();
        }

        void change(String cell, RowChanges change) {
            cells.add(cell);
            changes.merge(cell, change, RowChanges::plus);
        }

        /** Starts over on a new plan: nothing decided yet. */
        void reset() {
            pending = null;
            replayOf = null;
            inserted = updated = moved = deleted = olderSkipped = absentDeletes = bytesRead = 0;
            cells.clear();
            changes.clear();
        }
    }

    /**
     * The one rewrite of a partition in a run: rows replaced and removed in the files that hold them, rows added at
     * the end, or, for a Replace, every file superseded by the new rows.
     */
    static final class PartitionWork {
        final String cell;
        /** The committed state the plan read; the commit is refused if the partition has moved on. */
        final PartitionCommit pinned;

        Map<FeatureKey, Group> replacements = new LinkedHashMap<>();
        Set<FeatureKey> removals = new HashSet<>();
        List<Group> appended = new ArrayList<>();
        /** Live files holding a replaced or removed key, in live-file order once sorted by {@link #filesInOrder}. */
        Set<String> filesHoldingKeys = new HashSet<>();

        boolean replaceAll;
        /** Batches with a part in this partition, by run index: each becomes one operation record of the commit. */
        Map<Integer, BatchPlan> batches = new TreeMap<>();
        /** The write mode of the batch that targets this partition; null when it only loses keys. */
        OperationType targetType;

        boolean keysMoveOut;

        PartitionWork(String cell, PartitionCommit pinned) {
            this.cell = cell;
            this.pinned = pinned;
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
