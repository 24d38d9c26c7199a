package dev.nifigeoparquet.archive.format;

/**
 * What an operation did to the rows of one partition, as its commit entry records it. A key that moved between
 * partitions is {@code movedOut} of one and {@code movedIn} to the other; for the feature it is an update.
 *
 * @param inserted rows of keys new to the archive
 * @param updated  rows replaced in place by a newer row of the same key
 * @param deleted  rows removed from the archive
 * @param movedIn  rows whose key arrived from another partition
 * @param movedOut rows whose key left for another partition
 */
public record RowChanges(long inserted, long updated, long deleted, long movedIn, long movedOut) {

    public static final RowChanges NONE = new RowChanges(0, 0, 0, 0, 0);
    public static final RowChanges ONE_INSERTED = new RowChanges(1, 0, 0, 0, 0);
    public static final RowChanges ONE_UPDATED = new RowChanges(0, 1, 0, 0, 0);
    public static final RowChanges ONE_DELETED = new RowChanges(0, 0, 1, 0, 0);
    public static final RowChanges ONE_MOVED_IN = new RowChanges(0, 0, 0, 1, 0);
    public static final RowChanges ONE_MOVED_OUT = new RowChanges(0, 0, 0, 0, 1);

    /** {@code count} rows inserted, nothing else. */
    public static RowChanges inserted(long count) {
        return new RowChanges(count, 0, 0, 0, 0);
    }

    /** {@code count} rows updated in place, nothing else. */
    public static RowChanges updated(long count) {
        return new RowChanges(0, count, 0, 0, 0);
    }

    /** {@code count} rows deleted, nothing else. */
    public static RowChanges deleted(long count) {
        return new RowChanges(0, 0, count, 0, 0);
    }

    public RowChanges {
        if (inserted < 0 || updated < 0 || deleted < 0 || movedIn < 0 || movedOut < 0) {
            throw new IllegalArgumentException("Row changes are never negative: " + inserted + " inserted, " + updated
                    + " updated, " + deleted + " deleted, " + movedIn + " moved in, " + movedOut + " moved out");
        }
    }

    /** How the partition's row count changed. */
    public long net() {
        return inserted + movedIn - movedOut - deleted;
    }

    public RowChanges plus(RowChanges other) {
        return new RowChanges(
                inserted + other.inserted,
                updated + other.updated,
                deleted + other.deleted,
                movedIn + other.movedIn,
                movedOut + other.movedOut);
    }
}
