package dev.nifigeoparquet.archive.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ComputeAheadTest {

    private final ExecutorService pool = Executors.newFixedThreadPool(4);

    @AfterEach
    void shutDown() throws InterruptedException {
        pool.shutdownNow();
        assertTrue(pool.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    void everyItemReachesTheSinkInOrderWithItsResultComputedOnTheHelper() throws IOException {
        Thread caller = Thread.currentThread();
        Set<Thread> computedOn = ConcurrentHashMap.newKeySet();
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        List<Integer> items = new ArrayList<>();
        List<String> results = new ArrayList<>();
        int added = 0;
        int mostHeld = 0;
        try (ComputeAhead<Integer, String> ahead = new ComputeAhead<>(
                pool,
                10,
                item -> {
                    computedOn.add(Thread.currentThread());
                    mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                    try {
                        return "#" + item * 2;
                    } finally {
                        running.decrementAndGet();
                    }
                },
                (item, result) -> {
                    assertSame(caller, Thread.currentThread(), "the sink runs on the caller's thread");
                    items.add(item);
                    results.add(result);
                })) {
            for (int i = 0; i < 1_005; i++) {
                ahead.add(i);
                added++;
                mostHeld = Math.max(mostHeld, added - items.size());
            }
            ahead.finish();
        }

        assertEquals(1_005, items.size());
        for (int i = 0; i < items.size(); i++) {
            assertEquals(i, items.get(i), "order kept");
            assertEquals("#" + 2 * i, results.get(i));
        }
        assertFalse(computedOn.contains(caller), "computed beside the caller, not on it");
        assertEquals(1, mostAtOnce.get(), "one block at a time, though the pool has four threads");
        assertTrue(mostHeld <= 30, "at most three blocks held: " + mostHeld);
    }

    @Test
    void onTheCallerEverythingRunsInline() throws IOException {
        Thread caller = Thread.currentThread();
        List<String> out = new ArrayList<>();
        try (ComputeAhead<String, Integer> ahead = new ComputeAhead<>(
                ComputeAhead.ON_CALLER,
                3,
                item -> {
                    assertSame(caller, Thread.currentThread());
                    return item.length();
                },
                (item, length) -> out.add(item + "=" + length))) {
            for (String item : List.of("a", "bb", "ccc", "dddd")) {
                ahead.add(item);
            }
            ahead.finish();
        }
        assertEquals(List.of("a=1", "bb=2", "ccc=3", "dddd=4"), out);
    }

    @Test
    void aFailureOfTheFunctionIsThrownAsItWasWithTheItemsBeforeItHandedOn() throws IOException {
        List<Integer> out = new ArrayList<>();
        try (ComputeAhead<Integer, Integer> ahead = new ComputeAhead<>(
                pool,
                4,
                item -> {
                    if (item == 9) {
                        throw new IOException("cannot key record 9");
                    }
                    return item;
                },
                (item, result) -> out.add(result))) {
            IOException failure = assertThrows(IOException.class, () -> {
                for (int i = 0; i < 20; i++) {
                    ahead.add(i);
                }
                ahead.finish();
            });
            assertEquals("cannot key record 9", failure.getMessage());
        }
        assertEquals(List.of(0, 1, 2, 3, 4, 5, 6, 7), out, "the blocks before the failing one were handed on");

        try (ComputeAhead<Integer, Integer> ahead = new ComputeAhead<>(
                pool,
                4,
                item -> {
                    throw new UncheckedIOException(new IOException("bad WKB"));
                },
                (item, result) -> {})) {
            ahead.add(1);
            assertThrows(UncheckedIOException.class, ahead::finish, "an unchecked failure stays unchecked");
        }
    }

    @Test
    void aFailureOfTheSinkIsThrownByTheCallThatMetIt() throws IOException {
        try (ComputeAhead<Integer, Integer> ahead = new ComputeAhead<>(pool, 2, item -> item, (item, result) -> {
            throw new IOException("disk full at " + item);
        })) {
            ahead.add(1);
            ahead.add(2); // block [1, 2] goes to the helper
            ahead.add(3);
            IOException failure = assertThrows(IOException.class, () -> ahead.add(4));
            assertEquals("disk full at 1", failure.getMessage());
        }
    }

    @Test
    void closeWaitsForTheBlockBeingComputed() throws InterruptedException {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean finished = new AtomicBoolean();
        AtomicBoolean closedEarly = new AtomicBoolean();
        Thread closer;
        ComputeAhead<Integer, Integer> ahead = new ComputeAhead<>(
                pool,
                1,
                item -> {
                    started.countDown();
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    finished.set(true);
                    return item;
                },
                (item, result) -> {});
        try {
            ahead.add(1);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        assertTrue(started.await(10, TimeUnit.SECONDS));
        closer = new Thread(() -> {
            ahead.close();
            closedEarly.set(!finished.get());
        });
        closer.start();
        // The closer blocks in close until the block is done: it parks, and the block is still running.
        awaitParked(closer);
        assertFalse(finished.get());
        assertTrue(closer.isAlive(), "close waits while the block is computed");
        release.countDown();
        closer.join(10_000);
        assertFalse(closer.isAlive());
        assertFalse(closedEarly.get(), "close returned only once the block was done");
    }

    /** Waits until {@code thread} parks (waits on a lock or a condition), without sleeping a guessed time. */
    private static void awaitParked(Thread thread) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(thread + " did not wait: " + thread.getState());
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void aHelperThatRefusesTheBlockFailsTheAddAndCloseDoesNotWait() {
        ExecutorService stopped = Executors.newSingleThreadExecutor();
        stopped.shutdown();
        ComputeAhead<Integer, Integer> ahead = new ComputeAhead<>(stopped, 2, item -> item, (item, result) -> {});
        assertThrows(RejectedExecutionException.class, () -> {
            ahead.add(1);
            ahead.add(2);
        });
        assertTimeoutPreemptively(Duration.ofSeconds(10), ahead::close);
    }

    @Test
    void refusesAnEmptyBlock() {
        assertThrows(
                IllegalArgumentException.class,
                () -> new ComputeAhead<Integer, Integer>(pool, 0, item -> item, (item, result) -> {}));
    }
}
