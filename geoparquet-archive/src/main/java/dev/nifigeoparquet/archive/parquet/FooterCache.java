package dev.nifigeoparquet.archive.parquet;

import java.util.Iterator;
import java.util.LinkedHashMap;
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

    /** What the bloom filters kept may hold in all: a filter's size follows the row group it was written for. */
    private static final long BLOOM_FILTER_BYTES_PER_FOOTER = 64 * 1024;

    private final Map<String, GeoParquetFileReader.ParsedFooter> footers;
    private final Map<String, SizedFilter> bloomFilters = new LinkedHashMap<>(16, 0.75f, true);
    private final long bloomFilterBudget;
    private long bloomFilterBytes;

    private record SizedFilter(Predicate<Binary> filter, long bytes) {}

    public FooterCache(int capacity) {
        this.footers = new LruMap<>(capacity);
        this.bloomFilterBudget = capacity * BLOOM_FILTER_BYTES_PER_FOOTER;
    }

    /** The bloom filter test cached for a file's row group and column, or null. */
    public synchronized Predicate<Binary> bloomFilter(String key, int rowGroup, String column) {
        SizedFilter cached = bloomFilters.get(key + "#" + rowGroup + "#" + column);
        return cached == null ? null : cached.filter();
    }

    /**
     * Keeps a bloom filter test, dropping the least recently used ones while the filters kept would hold more than the
     * budget.
     *
     * @param bytes the size of the filter the test holds
     */
    public synchronized void putBloomFilter(
            String key, int rowGroup, String column, Predicate<Binary> filter, long bytes) {
        SizedFilter replaced = bloomFilters.put(key + "#" + rowGroup + "#" + column, new SizedFilter(filter, bytes));
        bloomFilterBytes += bytes - (replaced == null ? 0 : replaced.bytes());
        Iterator<SizedFilter> eldest = bloomFilters.values().iterator();
        while (bloomFilterBytes > bloomFilterBudget && eldest.hasNext()) {
            bloomFilterBytes -= eldest.next().bytes();
            eldest.remove();
        }
    }

    /** The footer cached under {@code key}, or null. */
    public synchronized GeoParquetFileReader.ParsedFooter get(String key) {
        return footers.get(key);
    }

    public synchronized void put(String key, GeoParquetFileReader.ParsedFooter footer) {
        footers.put(key, footer);
    }
}
