package dev.nifigeoparquet.archive.ops;

import java.util.List;

/**
 * What one operation did to one partition (or, summed with {@link #plus}, to several).
 *
 * @param deltaId            the operation id
 * @param replay             the id had already been committed, so nothing changed
 * @param partitionsTouched  cells whose state this operation committed (empty for a replay)
 * @param rowsBefore         rows in the touched partitions before
 * @param rowsAfter          rows in them after
 * @param inserted           rows with keys new to the partition (all rows for an archive without a key)
 * @param updated            archive rows replaced by a delta row with the same key (including keys that moved in
 *                           from another cell)
 * @param moved              keys whose new geometry moved them from another cell into this partition
 * @param deleted            archive rows removed
 * @param unchanged          archive rows kept as they were
 * @param olderVersionsSkipped delta rows ignored because the archive's row has a newer version
 * @param duplicateKeysInDelta delta rows dropped because a later row of the delta had the same key
 * @param absentKeysDeleted  deletes of keys the partition did not hold (counted, not an error)
 * @param filesWritten       data files written
 * @param bytesWritten       bytes of those files
 * @param filesRemoved       data files superseded
 * @param bytesRemoved       bytes of those files
 * @param bytesRead          bytes read from the archive (key column chunks scanned plus files rewritten)
 */
public record OperationResult(String deltaId, boolean replay, List<String> partitionsTouched, long rowsBefore, long rowsAfter,
                              long inserted, long updated, long moved, long deleted, long unchanged, long olderVersionsSkipped,
                              long duplicateKeysInDelta, long absentKeysDeleted, long filesWritten, long bytesWritten,
                              long filesRemoved, long bytesRemoved, long bytesRead) {

    public OperationResult {
        partitionsTouched = List.copyOf(partitionsTouched);
    }

    /** The net change of the row count. */
    public long netRows() {
        return rowsAfter - rowsBefore;
    }

    /** Two results added up (partitions concatenated; a combined result is a replay only if both are). */
    public OperationResult plus(OperationResult other) {
        List<String> cells = new java.util.ArrayList<>(partitionsTouched);
        other.partitionsTouched.stream().filter(cell -> !cells.contains(cell)).forEach(cells::add);
        return new OperationResult(deltaId.equals(other.deltaId) ? deltaId : deltaId + "," + other.deltaId,
                replay && other.replay, cells, rowsBefore + other.rowsBefore, rowsAfter + other.rowsAfter,
                inserted + other.inserted, updated + other.updated, moved + other.moved, deleted + other.deleted, unchanged + other.unchanged,
                olderVersionsSkipped + other.olderVersionsSkipped, duplicateKeysInDelta + other.duplicateKeysInDelta,
                absentKeysDeleted + other.absentKeysDeleted, filesWritten + other.filesWritten, bytesWritten + other.bytesWritten,
                filesRemoved + other.filesRemoved, bytesRemoved + other.bytesRemoved, bytesRead + other.bytesRead);
    }
}
