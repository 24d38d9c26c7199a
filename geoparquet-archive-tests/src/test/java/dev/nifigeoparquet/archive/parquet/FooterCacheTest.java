package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;

/** The footer cache keeps bloom filters up to a budget in bytes, whatever the size of each. */
class FooterCacheTest {

    private static boolean any(Binary value) {
        return true;
    }

    @Test
    void largeBloomFiltersEvictTheLeastRecentlyUsedToStayWithinTheBudget() {
        // One footer's worth: 64 KiB of bloom filters.
        FooterCache cache = new FooterCache(1);
        cache.putBloomFilter("a", 0, "key", FooterCacheTest::any, 32 * 1024);
        cache.putBloomFilter("a", 1, "key", FooterCacheTest::any, 32 * 1024);
        assertNotNull(cache.bloomFilter("a", 0, "key"), "two filters of 32 KiB fit");
        cache.putBloomFilter("a", 2, "key", FooterCacheTest::any, 32 * 1024);
        // The first was used after the second was put, so the second is the least recently used.
        assertNull(cache.bloomFilter("a", 1, "key"), "the least recently used filter is dropped");
        assertNotNull(cache.bloomFilter("a", 0, "key"));
        assertNotNull(cache.bloomFilter("a", 2, "key"));

        for (int group = 0; group < 64; group++) {
            cache.putBloomFilter("b", group, "key", FooterCacheTest::any, 4 * 1024);
        }
        int kept = 0;
        for (int group = 0; group < 64; group++) {
            kept += cache.bloomFilter("b", group, "key") != null ? 1 : 0;
        }
        assertEquals(16, kept, "64 KiB holds 16 filters of 4 KiB");
    }
}
