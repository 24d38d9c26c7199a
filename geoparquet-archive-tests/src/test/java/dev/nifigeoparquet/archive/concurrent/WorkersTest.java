package dev.nifigeoparquet.archive.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.io.InterruptedIOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class WorkersTest {

    @Test
    void mapsEveryItemInOrderOnThePool() throws Exception {
        List<Workers.Outcome<Integer>> outcomes = Workers.of(2).map(List.of(1, 2, 3, 4, 5), item -> item * 10);
        assertEquals(
                List.of(10, 20, 30, 40, 50),
                outcomes.stream().map(Workers.Outcome::value).toList());
    }

    /**
     * A NiFi task terminated in the middle of a rewrite is interrupted while it waits for the parts: when map throws,
     * the parts that were running have ended (each was interrupted and finished its cleanup) and the parts still queued
     * never ran.
     */
    @Test
    void anInterruptedCallerReturnsOnceItsRunningPartsHaveEndedAndTheQueuedOnesNeverRun() throws Exception {
        Workers workers = Workers.of(2);
        CountDownLatch bothRunning = new CountDownLatch(2);
        Set<Integer> started = ConcurrentHashMap.newKeySet();
        AtomicInteger running = new AtomicInteger();
        Workers.Task<Integer, Integer> part = item -> {
            started.add(item);
            running.incrementAndGet();
            try {
                bothRunning.countDown();
                Thread.sleep(TimeUnit.MINUTES.toMillis(1));
                return item;
            } catch (InterruptedException e) {
                // A part's cleanup (closing and deleting what it staged) takes a while after the interrupt.
                long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                throw new InterruptedIOException("part " + item + " interrupted");
            } finally {
                running.decrementAndGet();
            }
        };
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        AtomicInteger runningWhenThrown = new AtomicInteger(-1);
        Thread caller = new Thread(() -> {
            try {
                workers.map(List.of(1, 2, 3, 4), part);
            } catch (InterruptedIOException | RuntimeException e) {
                runningWhenThrown.set(running.get());
                thrown.set(e);
            }
        });
        caller.start();
        bothRunning.await();
        caller.interrupt();
        caller.join(TimeUnit.SECONDS.toMillis(30));

        assertFalse(caller.isAlive(), "map returned");
        assertInstanceOf(InterruptedIOException.class, thrown.get());
        assertEquals(0, runningWhenThrown.get(), "no part ran any more when map threw");
        assertEquals(Set.of(1, 2), started, "the queued parts never ran");
    }
}
