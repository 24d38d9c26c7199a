package dev.nifigeoparquet.archive.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class CellBatchesTest {

    @Test
    void everyItemReachesItsCellInOrderInBatchesWithBoundedMemory() throws IOException {
        Map<String, List<Integer>> received = new LinkedHashMap<>();
        List<Integer> batchSizes = new ArrayList<>();
        int[] peak = {0};
        CellBatches<Integer> batches = new CellBatches<>(8, 40, (cell, batch) -> {
            batchSizes.add(batch.size());
            received.computeIfAbsent(cell, c -> new ArrayList<>()).addAll(batch);
        });
        Map<String, List<Integer>> sent = new LinkedHashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 5_000; i++) {
            // A skewed spread over 30 cells: a few large, many small.
            String cell = "c" + (int) Math.floor(30 * Math.pow(random.nextDouble(), 3));
            sent.computeIfAbsent(cell, c -> new ArrayList<>()).add(i);
            batches.add(cell, i);
            peak[0] = Math.max(peak[0], batches.buffered());
        }
        batches.flush();

        assertEquals(sent, received, "every item, in its cell's order");
        assertEquals(0, batches.buffered());
        assertTrue(peak[0] < 40, "never 40 items held: " + peak[0]);
        assertTrue(batchSizes.stream().allMatch(size -> size >= 1 && size <= 8), batchSizes.toString());
        double mean = batchSizes.stream().mapToInt(Integer::intValue).average().orElseThrow();
        assertTrue(mean > 2, "items leave in batches, not one by one: " + mean);
    }

    @Test
    void aFailingSinkFailsTheAddThatSentTheBatch() {
        CellBatches<String> batches = new CellBatches<>(2, 10, (cell, batch) -> {
            throw new IOException("disk full writing " + cell);
        });
        IOException failure = assertThrows(IOException.class, () -> {
            batches.add("a", "1");
            batches.add("a", "2");
        });
        assertEquals("disk full writing a", failure.getMessage());
    }

    @Test
    void refusesABatchLargerThanWhatMayBeHeld() {
        assertThrows(IllegalArgumentException.class, () -> new CellBatches<String>(10, 5, (cell, batch) -> {}));
        assertThrows(IllegalArgumentException.class, () -> new CellBatches<String>(0, 5, (cell, batch) -> {}));
    }
}
