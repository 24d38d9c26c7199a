package dev.nifigeoparquet.archive.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class DaemonThreadPoolsTest {

    @Test
    void runsAsManyAtOnceAsItHasThreadsOnNamedDaemonThreadsOfTheGroup() throws Exception {
        ThreadGroup group = new ThreadGroup("pool-test");
        ThreadPoolExecutor pool = DaemonThreadPools.endingWhenIdle(3, group, "helper ", Duration.ofMinutes(1));
        try {
            // Three tasks that each wait for the other two: they pass only if the pool runs all three at once.
            CyclicBarrier allRunning = new CyclicBarrier(3);
            Set<Thread> ran = ConcurrentHashMap.newKeySet();
            List<Future<?>> tasks = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                tasks.add(pool.submit(() -> {
                    ran.add(Thread.currentThread());
                    allRunning.await(10, TimeUnit.SECONDS);
                    return null;
                }));
            }
            for (Future<?> task : tasks) {
                task.get(10, TimeUnit.SECONDS);
            }
            Set<String> names = new HashSet<>();
            for (Thread thread : ran) {
                assertTrue(thread.isDaemon(), thread.getName());
                assertSame(group, thread.getThreadGroup());
                names.add(thread.getName());
            }
            assertEquals(Set.of("helper 1", "helper 2", "helper 3"), names);
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void queuesWhatItsThreadsCannotTakeYet() throws Exception {
        ThreadPoolExecutor pool = DaemonThreadPools.endingWhenIdle(1, null, "one ", Duration.ofMinutes(1));
        try {
            List<Integer> order = new ArrayList<>(); // one thread: no two tasks touch it at once
            List<Future<?>> tasks = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                int task = i;
                tasks.add(pool.submit(() -> order.add(task)));
            }
            for (Future<?> task : tasks) {
                task.get(10, TimeUnit.SECONDS);
            }
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                expected.add(i);
            }
            assertEquals(expected, order, "every task, in the order given");
            assertEquals(1, pool.getLargestPoolSize());
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void idleThreadsEndAndComeBackWithWork() throws Exception {
        ThreadPoolExecutor pool = DaemonThreadPools.endingWhenIdle(2, null, "idle ", Duration.ofMillis(50));
        try {
            assertEquals("first", pool.submit(() -> "first").get(10, TimeUnit.SECONDS));
            assertTrue(pool.getLargestPoolSize() >= 1);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pool.getPoolSize() > 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(0, pool.getPoolSize(), "an idle pool holds no thread");
            assertEquals("again", pool.submit(() -> "again").get(10, TimeUnit.SECONDS));
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void refusesAPoolWithoutThreadsOrIdleTime() {
        assertThrows(
                IllegalArgumentException.class,
                () -> DaemonThreadPools.endingWhenIdle(0, null, "none ", Duration.ofSeconds(1)));
        assertThrows(
                IllegalArgumentException.class,
                () -> DaemonThreadPools.endingWhenIdle(1, null, "none ", Duration.ZERO));
    }
}
