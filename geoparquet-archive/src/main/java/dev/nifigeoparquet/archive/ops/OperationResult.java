package dev.nifigeoparquet.archive.ops;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What one operation (the deltas of one partition applied together) did to the archive.
 *
 * <p>Row counts are attributed as if the operations of one run were applied one after another in their order: an
 * operation's {@code rowsBefore} and {@code rowsAfter} cover the partitions it committed to, before and after its own
 * changes, so {@code rowsAfter - rowsBefore} is exactly its {@code inserted - deleted}, whatever else the same run or
 * another writer did to those partitions. What the archive holds is reconciled from the commit entries it names.
 *
 * @param deltaId    the operation id (several deltas applied together: their ids joined by commas)
 * @param replay     every delta had already been committed, so nothing changed
 * @param commits    the commit entries that hold this operation's changes, one per partition it changed (empty for a
 *                   replay): its target, and the partitions its keys left
 * @param rowsBefore rows in those partitions before this operation's changes
 * @param rowsAfter  rows in them after
 * @param rows       what happened to the delta's rows
 * @param files      data files written and superseded for this operation
 * @param bytesRead  bytes read from the archive (key and version column chunks scanned plus files rewritten)
 */
public record OperationResult(
        String deltaId,
        boolean replay,
        List<Commit> commits,
        long rowsBefore,
        long rowsAfter,
        RowCounts rows,
        FileCounts files,
        long bytesRead) {

    public OperationResult {
        commits = List.copyOf(commits);
        if (rowsBefore < 0 || rowsAfter < 0 || bytesRead < 0) {
            throw new IllegalArgumentException("Counts are never negative: " + rowsBefore + " rows before, " + rowsAfter
                    + " after, " + bytesRead + " bytes read");
        }
    }

    /** One commit entry of the operation: a partition and the version the operation created. */
    public record Commit(String cell, long version) {

        @Override
        public String toString() {
            return cell + "@" + version;
        }
    }

    /**
     * What happened to the delta's rows; never negative.
     *
     * @param inserted             rows with keys new to the archive (every row of an archive without a key)
     * @param updated              features replaced by the delta's newer row, wherever they were: in the target
     *                             partition or, for keys that moved, in another one
     * @param moved                of the updated features, those whose new geometry moved them from another partition
     * @param deleted              features removed, from whichever partition held them
     * @param olderVersionsSkipped delta rows ignored because the stored row has a newer version
     * @param duplicateKeysInDelta delta rows dropped because a later row of the delta had the same key
     * @param absentKeysDeleted    deletes of keys the archive did not hold (counted, not an error)
     */
    public record RowCounts(
            long inserted,
            long updated,
            long moved,
            long deleted,
            long olderVersionsSkipped,
            long duplicateKeysInDelta,
            long absentKeysDeleted) {

        public static final RowCounts NONE = new RowCounts(0, 0, 0, 0, 0, 0, 0);

        public RowCounts {
            if (inserted < 0
                    || updated < 0
                    || moved < 0
                    || deleted < 0
                    || olderVersionsSkipped < 0
                    || duplicateKeysInDelta < 0
                    || absentKeysDeleted < 0
                    || moved > updated) {
                throw new IllegalArgumentException(
                        "Inconsistent row counts: " + inserted + " inserted, " + updated + " updated, "
                                + moved + " moved, " + deleted + " deleted, " + olderVersionsSkipped + " skipped, "
                                + duplicateKeysInDelta
                                + " duplicates, " + absentKeysDeleted + " absent");
            }
        }

        /** Nothing changed; {@code count} delta rows were dropped for a later row of the same key. */
        public static RowCounts duplicatesOnly(long count) {
            return new RowCounts(0, 0, 0, 0, 0, count, 0);
        }

        public RowCounts plus(RowCounts other) {
            return new RowCounts(
                    inserted + other.inserted,
                    updated + other.updated,
                    moved + other.moved,
                    deleted + other.deleted,
                    olderVersionsSkipped + other.olderVersionsSkipped,
                    duplicateKeysInDelta + other.duplicateKeysInDelta,
                    absentKeysDeleted + other.absentKeysDeleted);
        }
    }

    /**
     * Data files written and superseded. A partition rewritten for several operations of one run is counted once, on
     * the operation whose target it is (or the first one that changed it).
     */
    public record FileCounts(long written, long bytesWritten, long removed, long bytesRemoved) {

        public static final FileCounts NONE = new FileCounts(0, 0, 0, 0);

        public FileCounts plus(FileCounts other) {
            return new FileCounts(
                    written + other.written,
                    bytesWritten + other.bytesWritten,
                    removed + other.removed,
                    bytesRemoved + other.bytesRemoved);
        }
    }

    /** An operation that had nothing to do (an empty delta). */
    public static OperationResult nothing(String deltaId) {
        return new OperationResult(deltaId, false, List.of(), 0, 0, RowCounts.NONE, FileCounts.NONE, 0);
    }

    /** A replay: nothing changed; the rows the operation's partition holds now. */
    public static OperationResult replayOf(String deltaId, long rowsNow, long duplicateKeysInDelta) {
        return new OperationResult(
                deltaId,
                true,
                List.of(),
                rowsNow,
                rowsNow,
                RowCounts.duplicatesOnly(duplicateKeysInDelta),
                FileCounts.NONE,
                0);
    }

    /** The cells this operation committed to. */
    public List<String> partitionsTouched() {
        return commits.stream().map(Commit::cell).toList();
    }

    /** Rows of the partitions it committed to that it left as they were. */
    public long unchanged() {
        return rowsBefore - rows.updated() - rows.deleted();
    }

    /** The net change of the row count: inserted minus deleted. */
    public long netRows() {
        return rowsAfter - rowsBefore;
    }

    public long inserted() {
        return rows.inserted();
    }

    public long updated() {
        return rows.updated();
    }

    public long moved() {
        return rows.moved();
    }

    public long deleted() {
        return rows.deleted();
    }

    public long olderVersionsSkipped() {
        return rows.olderVersionsSkipped();
    }

    public long duplicateKeysInDelta() {
        return rows.duplicateKeysInDelta();
    }

    public long absentKeysDeleted() {
        return rows.absentKeysDeleted();
    }

    public long filesWritten() {
        return files.written();
    }

    public long bytesWritten() {
        return files.bytesWritten();
    }

    public long filesRemoved() {
        return files.removed();
    }

    public long bytesRemoved() {
        return files.bytesRemoved();
    }

    /**
     * Two results added up: counts summed, commits merged (the later version of a partition kept); a combined result is
     * a replay only if both are.
     */
    public OperationResult plus(OperationResult other) {
        Map<String, Commit> merged = new LinkedHashMap<>();
        for (Commit commit : commits) {
            merged.put(commit.cell(), commit);
        }
        for (Commit commit : other.commits) {
            merged.merge(commit.cell(), commit, (a, b) -> a.version() >= b.version() ? a : b);
        }
        return new OperationResult(
                deltaId.equals(other.deltaId) ? deltaId : deltaId + "," + other.deltaId,
                replay && other.replay,
                new ArrayList<>(merged.values()),
                rowsBefore + other.rowsBefore,
                rowsAfter + other.rowsAfter,
                rows.plus(other.rows),
                files.plus(other.files),
                bytesRead + other.bytesRead);
    }
}
