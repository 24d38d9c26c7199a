package dev.nifigeoparquet.archive.cells;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.concurrent.ComputeAhead;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class CellLanesTest {

    private final ExecutorService pool = Executors.newFixedThreadPool(4);

    @AfterEach
    void shutDown() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    void everyCellTakesItsItemsInOrderOneThreadAtATimeBesideTheCallerThenItsEnd() throws IOException {
        Thread caller = Thread.currentThread();
        Map<String, List<Object>> received = new ConcurrentHashMap<>();
        Set<String> inUse = ConcurrentHashMap.newKeySet();
        Set<Thread> writtenOn = ConcurrentHashMap.newKeySet();
        AtomicInteger taken = new AtomicInteger();
        int maxHeld = 64;
        Map<String, List<Object>> sent = new LinkedHashMap<>();
        int mostHeld = 0;
        try (CellLanes<Integer> lanes = new CellLanes<>(pool, 3, maxHeld, (cell, batch) -> {
            assertTrue(inUse.add(cell), "cell " + cell + " written by two threads at once");
            writtenOn.add(Thread.currentThread());
            received.computeIfAbsent(cell, c -> Collections.synchronizedList(new ArrayList<>()))
                    .addAll(batch);
            taken.addAndGet(batch.size());
            inUse.remove(cell);
        })) {
            SplittableRandom random = new SplittableRandom(11);
            List<Integer> batch = new ArrayList<>();
            int given = 0;
            for (int i = 0; i < 20_000; i += batch.size()) {
                // A skewed spread over 40 cells, batches of 1 to 16 items, the list reused as CellBatches reuses it.
                String cell = "c" + (int) Math.floor(40 * Math.pow(random.nextDouble(), 3));
                batch.clear();
                for (int k = random.nextInt(1, 17); k > 0; k--) {
                    batch.add(i + k);
                }
                sent.computeIfAbsent(cell, c -> new ArrayList<>()).addAll(batch);
                lanes.write(cell, batch);
                given += batch.size();
                mostHeld = Math.max(mostHeld, given - taken.get());
            }
            lanes.end(sent.keySet(), cell -> {
                assertTrue(inUse.add(cell), "cell " + cell + " ended while being written");
                received.get(cell).add("end");
                inUse.remove(cell);
            });
            lanes.finish();
        }

        sent.values().forEach(items -> items.add("end"));
        assertEquals(sent, received, "every item in its cell's order, then the cell's end");
        assertFalse(writtenOn.contains(caller), "written beside the caller");
        // Held: at most maxHeld waiting, plus the batch each of the three lanes is writing.
        assertTrue(mostHeld <= maxHeld + 3 * 16, "items held at once: " + mostHeld);
    }

    @Test
    void cellsOnDifferentLanesAreWrittenAtOnce() throws IOException {
        // Each of the two cells' writes waits for the other's: lanes taken one at a time would never meet.
        CyclicBarrier bothWriting = new CyclicBarrier(2);
        List<String> met = Collections.synchronizedList(new ArrayList<>());
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (CellLanes<String> lanes = new CellLanes<>(pool, 2, 10, (cell, batch) -> {
                try {
                    bothWriting.await(10, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IOException("the other cell was not written meanwhile", e);
                }
                met.add(cell);
            })) {
                lanes.write("a", List.of("1"));
                lanes.write("b", List.of("2"));
                lanes.finish();
            }
        });
        assertEquals(Set.of("a", "b"), Set.copyOf(met));
    }

    @Test
    void aCallerWaitingForRoomGoesOnOnceABatchIsWrittenWhileItsLaneIsStillBusy() throws Exception {
        CountDownLatch releaseA = new CountDownLatch(1);
        CountDownLatch releaseB = new CountDownLatch(1);
        List<String> written = Collections.synchronizedList(new ArrayList<>());
        ExecutorService caller = Executors.newSingleThreadExecutor();
        Map<String, CountDownLatch> heldUntilReleased = Map.of("a", releaseA, "b", releaseB);
        try (CellLanes<String> lanes = new CellLanes<>(pool, 1, 2, (cell, batch) -> {
            CountDownLatch release = heldUntilReleased.get(cell);
            if (release != null) {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            written.addAll(batch);
        })) {
            try {
                // One lane, two items held at most: a and b fill it, and c waits for room.
                var writes = caller.submit(() -> {
                    lanes.write("a", List.of("1"));
                    lanes.write("b", List.of("2"));
                    lanes.write("c", List.of("3"));
                    return null;
                });
                assertThrows(TimeoutException.class, () -> writes.get(200, TimeUnit.MILLISECONDS), "c waits for room");
                releaseA.countDown();
                // a is written; the lane goes on to b, which still blocks it, and c must find the room a left.
                writes.get(10, TimeUnit.SECONDS);
            } finally {
                releaseA.countDown();
                releaseB.countDown(); // a lane still blocked would keep close waiting
            }
            caller.submit(() -> {
                        lanes.finish();
                        return null;
                    })
                    .get(10, TimeUnit.SECONDS);
            assertEquals(List.of("1", "2", "3"), written);
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    void aNewCellJoinsTheLaneGivenTheFewestItems() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Set<String> written = ConcurrentHashMap.newKeySet();
        try (CellLanes<Integer> lanes = new CellLanes<>(pool, 2, 1_000, (cell, batch) -> {
            if (cell.equals("big")) {
                try {
                    release.await(); // holds up its lane and all that is queued behind it
                } catch (InterruptedException e) {
                    throw new IOException(e);
                }
            }
            written.add(cell);
        })) {
            try {
                lanes.write("big", List.of(1, 2, 3, 4, 5, 6, 7, 8)); // the first lane: 8 items
                lanes.write("small-1", List.of(1)); // the second: 1
                lanes.write("small-2", List.of(1)); // 2
                lanes.write("small-3", List.of(1, 2, 3)); // 5
                lanes.write("small-4", List.of(1)); // 6, still fewer than 8
                lanes.write("next", List.of(1, 2, 3)); // 9
                lanes.write("after", List.of(1)); // the first lane again: 8 < 9
                lanes.write("small-1", List.of(2, 3, 4, 5)); // a known cell stays on its lane, however loaded
                Set<String> secondLane = Set.of("small-1", "small-2", "small-3", "small-4", "next");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!written.containsAll(secondLane) && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                assertEquals(secondLane, Set.copyOf(written), "the second lane wrote its cells, the first is held up");
            } finally {
                release.countDown();
            }
            lanes.finish();
        }
        assertTrue(written.containsAll(List.of("big", "after")));
    }

    @Test
    void aFailureOfTheSinkIsThrownAsItWasAndStopsTheLanes() throws IOException {
        IOException diskFull = new IOException("disk full writing cell c3");
        AtomicInteger written = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        try (CellLanes<Integer> lanes = new CellLanes<>(pool, 2, 8, (cell, batch) -> {
            written.incrementAndGet();
            if (cell.equals("c3")) {
                failed.incrementAndGet();
                throw diskFull;
            }
        })) {
            IOException thrown = assertThrows(IOException.class, () -> {
                for (int i = 0; i < 10_000; i++) {
                    lanes.write("c" + i % 5, List.of(i));
                }
                lanes.finish();
            });
            assertSame(diskFull, thrown);
            assertThrows(IOException.class, lanes::finish, "still failed");
        }
        assertEquals(1, failed.get(), "no batch of the failed cell is written after the failure");
        assertTrue(written.get() < 1_000, "the lanes stopped long before the 10,000 batches given: " + written.get());
    }

    @Test
    void aThrowableThrownAroundTheCompilerStillEndsTheLanesAndIsThrown() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (CellLanes<Integer> lanes = new CellLanes<>(pool, 2, 8, (cell, batch) -> {
                CellLanesTest.<RuntimeException>sneakyThrow(new Throwable("a writer's undeclared failure"));
            })) {
                lanes.write("a", List.of(1));
                IOException thrown = assertThrows(IOException.class, lanes::finish);
                assertEquals("a writer's undeclared failure", thrown.getCause().getMessage());
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static <E extends Throwable> void sneakyThrow(Throwable thrown) throws E {
        throw (E) thrown;
    }

    @Test
    void aRefusingExecutorFailsTheWriteAndTheFinishDoesNotWaitForIt() {
        pool.shutdown();
        CellLanes<Integer> lanes = new CellLanes<>(pool, 2, 8, (cell, batch) -> {});
        assertThrows(RejectedExecutionException.class, () -> lanes.write("a", List.of(1)));
        assertTimeoutPreemptively(
                Duration.ofSeconds(10), () -> assertThrows(RejectedExecutionException.class, lanes::finish));
        lanes.close();
    }

    @Test
    void onTheCallerEveryBatchIsWrittenAsItComes() throws IOException {
        Thread caller = Thread.currentThread();
        List<String> out = new ArrayList<>();
        try (CellLanes<String> lanes = new CellLanes<>(ComputeAhead.ON_CALLER, 1, 4, (cell, batch) -> {
            assertSame(caller, Thread.currentThread());
            out.add(cell + batch);
        })) {
            lanes.write("a", List.of("1", "2"));
            assertEquals(List.of("a[1, 2]"), out, "written before write returns");
            lanes.write("b", List.of("3", "4", "5", "6", "7"));
            lanes.end(List.of("a", "b"), cell -> out.add(cell + " ends"));
            lanes.finish();
        }
        assertEquals(List.of("a[1, 2]", "b[3, 4, 5, 6, 7]", "a ends", "b ends"), out);
    }

    @Test
    void refusesNoLanes() {
        assertThrows(IllegalArgumentException.class, () -> new CellLanes<String>(pool, 0, 8, (cell, batch) -> {}));
        assertThrows(IllegalArgumentException.class, () -> new CellLanes<String>(pool, 2, 0, (cell, batch) -> {}));
    }
}
