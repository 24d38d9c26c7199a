package dev.nifigeoparquet.archive.parquet;

import java.util.LinkedHashMap;
import java.util.Map;

/** A map that keeps the {@code capacity} most recently used entries. Not synchronized. */
final class LruMap<K, V> extends LinkedHashMap<K, V> {

    private final int capacity;

    LruMap(int capacity) {
        super(16, 0.75f, true);
        this.capacity = capacity;
    }

    @Override
    protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
        return size() > capacity;
    }
}
