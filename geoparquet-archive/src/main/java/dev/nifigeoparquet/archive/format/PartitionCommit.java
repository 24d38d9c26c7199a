package dev.nifigeoparquet.archive.format;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One commit entry of a partition's log: the complete state of the partition after the commit (so every entry
 * is its own checkpoint), plus what the commit changed.
 *
 * @param formatVersion      the log entry format, {@link #FORMAT_VERSION}
 * @param cell               the partition's H3 cell
 * @param version            1 for the first commit; 0 only for {@link #empty(String)}, which is never written
 * @param operationId        the delta id of the operation; replays of an id in {@code recentOperationIds} are no-ops
 * @param operationType      what the commit did
 * @param committedAt        when it was committed
 * @param files              the live data files after the commit, in order
 * @param added              file names this commit added (they are staged until published)
 * @param removed            file names this commit superseded (deleted right after the commit)
 * @param rowCount           rows in the partition after the commit
 * @param recentOperationIds operation ids committed to this partition, oldest first, bounded by the archive's retention
 * @param transaction        for an entry written by a multi-partition transaction, its id: the entry takes effect only
 *                           if the transaction's decision record says committed; null for a plain commit
 * @param rowsBefore         rows in the partition before the commit (the state it was applied to); null in entries
 *                           written before it was recorded
 * @param operations         the operations this commit applied and their row changes; {@code rowsBefore} plus the sum
 *                           of their net changes is {@code rowCount}. Empty in entries written before it was recorded
 */
public record PartitionCommit(
        int formatVersion,
        String cell,
        long version,
        String operationId,
        OperationType operationType,
        Instant committedAt,
        List<DataFileEntry> files,
        List<String> added,
        List<String> removed,
        long rowCount,
        List<String> recentOperationIds,
        String transaction,
        Long rowsBefore,
        List<OperationRecord> operations) {

    /** The format version of entries that need nothing newer: every entry but those of a stamped key index. */
    public static final int FORMAT_VERSION = 1;
    /**
     * The highest entry format version this implementation reads and writes: 2 adds key stamps to the key index
     * (docs/archive-format.md, sections 6.4 and 13.3).
     */
    public static final int HIGHEST_FORMAT_VERSION = 2;

    public PartitionCommit {
        Objects.requireNonNull(cell, "cell");
        files = List.copyOf(files);
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        recentOperationIds = List.copyOf(recentOperationIds);
        operations = operations == null ? List.of() : List.copyOf(operations);
        long counted = files.stream().mapToLong(DataFileEntry::rows).sum();
        if (counted != rowCount) {
            throw new IllegalArgumentException("Commit " + version + " of " + cell + " declares " + rowCount
                    + " rows but its files hold " + counted);
        }
    }

    /** The state of a partition that has never been committed. */
    public static PartitionCommit empty(String cell) {
        return new PartitionCommit(
                FORMAT_VERSION,
                cell,
                0,
                null,
                null,
                null,
                List.of(),
                List.of(),
                List.of(),
                0,
                List.of(),
                null,
                null,
                List.of());
    }

    public boolean isEmptyPartition() {
        return version == 0;
    }

    public boolean hasCommitted(String id) {
        return recentOperationIds.contains(id);
    }

    public long totalBytes() {
        return files.stream().mapToLong(DataFileEntry::bytes).sum();
    }

    public List<String> fileNames() {
        return files.stream().map(DataFileEntry::name).toList();
    }

    /**
     * Whether the recorded row changes explain the row count: {@code rowsBefore} plus the operations' net changes. True
     * for entries that do not record them (older entries, and the key index's).
     */
    public boolean rowChangesReconcile() {
        if (rowsBefore == null
                || operations.isEmpty()
                || operations.stream().anyMatch(operation -> operation.rows() == null)) {
            return true;
        }
        return rowsBefore
                        + operations.stream()
                                .mapToLong(operation -> operation.rows().net())
                                .sum()
                == rowCount;
    }

    /** The commit that follows this one, remembering at most {@code idRetention} operation ids. */
    public PartitionCommit next(
            String id,
            OperationType type,
            Instant now,
            List<DataFileEntry> newFiles,
            List<String> addedNames,
            List<String> removedNames,
            int idRetention) {
        return next(
                version + 1,
                List.of(id),
                type,
                now,
                newFiles,
                addedNames,
                removedNames,
                idRetention,
                null,
                null,
                FORMAT_VERSION);
    }

    /**
     * The commit that follows this state at {@code newVersion} (higher than {@code version + 1} when entries of
     * aborted transactions lie between), written by {@code transactionId} or plainly when null. It applies several
     * operations at once when given several ids (a batch of deltas for one partition): each id is remembered, so a
     * later redelivery of any one of them alone is recognised as a replay.
     *
     * @param records       the operations' row changes; null to record all ids in one record without row changes
     * @param formatVersion the format version the change needs; the entry follows the higher of it and this state's
     */
    public PartitionCommit next(
            long newVersion,
            List<String> operationIds,
            OperationType type,
            Instant now,
            List<DataFileEntry> newFiles,
            List<String> addedNames,
            List<String> removedNames,
            int idRetention,
            String transactionId,
            List<OperationRecord> records,
            int formatVersion) {
        if (operationIds.isEmpty()) {
            throw new IllegalArgumentException("A commit needs at least one operation id");
        }
        String id = String.join(",", operationIds);
        List<String> ids = new ArrayList<>(recentOperationIds);
        ids.addAll(operationIds);
        while (ids.size() > idRetention) {
            ids.remove(0);
        }
        long rows = newFiles.stream().mapToLong(DataFileEntry::rows).sum();
        if (newVersion <= version) {
            throw new IllegalArgumentException(
                    "Next version " + newVersion + " of " + cell + " must follow " + version);
        }
        List<OperationRecord> operations = records != null ? records : List.of(new OperationRecord(operationIds, null));
        return new PartitionCommit(
                Math.max(formatVersion, this.formatVersion),
                cell,
                newVersion,
                id,
                type,
                now,
                newFiles,
                addedNames,
                removedNames,
                /* rowCount= */ rows,
                ids,
                transactionId,
                /* rowsBefore= */ rowCount,
                operations);
    }
}
