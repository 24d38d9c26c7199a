package dev.nifigeoparquet.archive.commit;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serialises operations on one partition inside one JVM, so concurrent tasks take turns instead of losing
 * commit races. Across processes the exclusive commit is the guarantee; this lock only avoids wasted work.
 */
public final class PartitionLocks {

    private static final ConcurrentMap<String, ReentrantLock> LOCKS = new ConcurrentHashMap<>();

    private PartitionLocks() {}

    /** The lock of one partition of the archive at {@code archiveLocation}. */
    public static ReentrantLock lockFor(String archiveLocation, String cell) {
        return LOCKS.computeIfAbsent(archiveLocation + "#" + cell, key -> new ReentrantLock(true));
    }
}
