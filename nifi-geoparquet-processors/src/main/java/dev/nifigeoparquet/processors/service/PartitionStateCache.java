package dev.nifigeoparquet.processors.service;

import dev.nifigeoparquet.archive.format.PartitionCommit;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * A small least-recently-used cache of partitions' latest committed states, each entry valid for a fixed time.
 * A size of zero disables it. Entries may be stale by up to the expiration: readers that must see the newest
 * state go to the engine under the partition lock instead.
 */
final class PartitionStateCache {

    private record Cached(PartitionCommit state, long loadedAtNanos) {
    }

    /** Loads a partition's state from the archive. */
    @FunctionalInterface
    interface Loader {
        PartitionCommit load(String cell) throws java.io.IOException;
    }

    private final int maxEntries;
    private final long expirationNanos;
    private final LongSupplier nanoClock;
    private final LinkedHashMap<String, Cached> entries;

    PartitionStateCache(int maxEntries, Duration expiration, LongSupplier nanoClock) {
        this.maxEntries = maxEntries;
        this.expirationNanos = expiration.toNanos();
        this.nanoClock = nanoClock;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
                return size() > PartitionStateCache.this.maxEntries;
            }
        };
    }

    PartitionCommit get(String cell, Loader loader) throws java.io.IOException {
        if (maxEntries == 0) {
            return loader.load(cell);
        }
        long now = nanoClock.getAsLong();
        synchronized (entries) {
            Cached entry = entries.get(cell);
            if (entry != null && now - entry.loadedAtNanos() < expirationNanos) {
                return entry.state();
            }
        }
        PartitionCommit state = loader.load(cell);
        synchronized (entries) {
            entries.put(cell, new Cached(state, now));
        }
        return state;
    }

    int size() {
        synchronized (entries) {
            return entries.size();
        }
    }
}
