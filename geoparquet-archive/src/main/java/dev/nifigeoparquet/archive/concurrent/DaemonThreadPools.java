package dev.nifigeoparquet.archive.concurrent;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Pools of daemon threads for the engine's and the processors' helpers: a helper thread must neither keep the JVM
 * alive nor, in a NiFi that runs for months, outlive the work it was made for.
 */
public final class DaemonThreadPools {

    private DaemonThreadPools() {}

    /**
     * A pool of at most {@code threads} daemon threads with an unbounded queue. Its threads are named
     * {@code namePrefix} followed by a count from 1, belong to {@code group} (null: the creating thread's group), and
     * end after {@code idle} without work, so an unused pool holds no thread.
     */
    public static ThreadPoolExecutor endingWhenIdle(int threads, ThreadGroup group, String namePrefix, Duration idle) {
        if (threads < 1) {
            throw new IllegalArgumentException("A pool needs at least 1 thread, was " + threads);
        }
        if (idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("Idle threads must be kept for a positive time, was " + idle);
        }
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                threads, threads, idle.toNanos(), TimeUnit.NANOSECONDS, new LinkedBlockingQueue<>(), runnable -> {
                    Thread thread = new Thread(group, runnable, namePrefix + count.incrementAndGet());
                    thread.setDaemon(true);
                    return thread;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
