package dev.nifigeoparquet.archive.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.format.FeatureKey;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class LongHashSetTest {

    @Test
    void holdsMillionsOfHashesAndFindsEveryRepeat() {
        int count = 3_000_000;
        LongHashSet set = new LongHashSet(1_000); // grows past its initial estimate
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < count; i++) {
            assertTrue(set.add(KeyHashes.hash(new FeatureKey(List.of(Long.toString(random.nextLong()))))));
        }
        assertEquals(count, set.size());
        SplittableRandom replay = new SplittableRandom(42);
        for (int i = 0; i < count; i++) {
            long hash = KeyHashes.hash(new FeatureKey(List.of(Long.toString(replay.nextLong()))));
            assertTrue(set.contains(hash));
            assertFalse(set.add(hash), "a repeat is found");
        }
        assertFalse(set.contains(12345L));
        assertTrue(set.add(0L));
        assertFalse(set.add(0L));
        assertEquals(count + 1, set.size());
    }

    @Test
    void keyHashesSeparateValuesAndColumns() {
        assertEquals(
                KeyHashes.hash(new FeatureKey(List.of("a", "bc"))), KeyHashes.hash(new FeatureKey(List.of("a", "bc"))));
        assertNotEquals(
                KeyHashes.hash(new FeatureKey(List.of("a", "bc"))), KeyHashes.hash(new FeatureKey(List.of("ab", "c"))));
        assertNotEquals(KeyHashes.hash(new FeatureKey(List.of("1"))), KeyHashes.hash(new FeatureKey(List.of("2"))));
    }
}
