package dev.nifigeoparquet.archive.parquet;

import java.util.Map;
import java.util.function.Predicate;
import org.apache.parquet.io.api.Binary;

/**
 * Parsed footers and bloom filters of files that never change, the most recently used kept, so a file read again is
 * not parsed again, and a lookup those alone rule out does not open the file at all. Worth it where the same files
 * are consulted by every operation, as the key index's shards are: parsing a shard's footer (statistics of every row
 * group) cost more than the lookup it served, and on an object store every file opened is requests.
 */
public final class FooterCache {

    /** About 4 KiB each: a filter sized for 2,048 distinct values at a 1% false-positive rate. */
    private static final int BLOOM_FILTERS_PER_FOOTER = 16;

    private final Map<String, GeoParquetFileReader.ParsedFooter> footers;
    private final Map<String, Predicate<Binary>> bloomFilters;

    public FooterCache(int capacity) {
        this.footers = new LruMap<>(capacity);
        this.bloomFilters = new LruMap<>(capacity * BLOOM_FILTERS_PER_FOOTER);
    }

    /** The bloom filter test cached for a file's row group and column, or null. */
    public synchronized Predicate<Binary> bloomFilter(String key, int rowGroup, String column) {
        return bloomFilters.get(key + "#" + rowGroup + "#" + column);
    }

    public synchronized void putBloomFilter(String key, int rowGroup, String column, Predicate<Binary> filter) {
        bloomFilters.put(key + "#" + rowGroup + "#" + column, filter);
    }

    /** The footer cached under {@code key}, or null. */
    public synchronized GeoParquetFileReader.ParsedFooter get(String key) {
        return footers.get(key);
    }

    public synchronized void put(String key, GeoParquetFileReader.ParsedFooter footer) {
        footers.put(key, footer);
    }
}
