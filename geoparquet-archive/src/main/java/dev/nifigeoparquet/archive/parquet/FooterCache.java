package dev.nifigeoparquet.archive.parquet;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parsed footers of files that never change, the most recently used kept, so a file read again is not parsed again.
 * Worth it where the same files are opened by every operation, as the key index's shards are: parsing a shard's
 * footer (statistics of every row group) cost more than the lookup it served.
 */
public final class FooterCache {

    private final Map<String, GeoParquetFileReader.ParsedFooter> footers;

    public FooterCache(int capacity) {
        this.footers = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, GeoParquetFileReader.ParsedFooter> eldest) {
                return size() > capacity;
            }
        };
    }

    /** The footer cached under {@code key}, or null. */
    public synchronized GeoParquetFileReader.ParsedFooter get(String key) {
        return footers.get(key);
    }

    public synchronized void put(String key, GeoParquetFileReader.ParsedFooter footer) {
        footers.put(key, footer);
    }
}
