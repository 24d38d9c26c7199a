package dev.nifigeoparquet.archive.concurrent;

import dev.nifigeoparquet.archive.storage.StorageMeter;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded pool for the independent parts of one operation: rewriting or scanning several partitions at once. Each
 * part's storage requests are measured on the worker that makes them and added to the caller's measurements, so
 * {@link StorageMeter} stays exact. Threads end when idle, so an unused pool holds nothing.
 */
public final class Workers {

    /** How every worker thread's name starts, as thread dumps and monitoring show it. */
    public static final String THREAD_NAME_PREFIX = "geoparquet-worker-";

    private static final AtomicInteger POOLS = new AtomicInteger();
    private static final Duration IDLE_THREADS_END_AFTER = Duration.ofSeconds(10);

    private final int parallelism;
    private final ThreadPoolExecutor pool;
    private final ThreadGroup threads;

    private Workers(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("Parallelism must be at least 1, was " + parallelism);
        }
        this.parallelism = parallelism;
        int id = POOLS.incrementAndGet();
        this.threads = new ThreadGroup("geoparquet-workers-" + id);
        this.pool = DaemonThreadPools.endingWhenIdle(
                parallelism, threads, THREAD_NAME_PREFIX + id + "-", IDLE_THREADS_END_AFTER);
    }

    /** A pool of {@code parallelism} threads; 1 runs every part on the caller's thread. */
    public static Workers of(int parallelism) {
        return new Workers(parallelism);
    }

    /** The default: one thread per available core. */
    public static int defaultParallelism() {
        return Runtime.getRuntime().availableProcessors();
    }

    public int parallelism() {
        return parallelism;
    }

    /** One part of the work. */
    @FunctionalInterface
    public interface Task<I, O> {
        O run(I item) throws IOException;
    }

    /** A part's value, or the failure that ended it. */
    public record Outcome<O>(O value, Exception failure) {

        public boolean failed() {
            return failure != null;
        }
    }

    /**
     * Runs the task on every item and waits for all of them; one part's failure does not stop the others. Outcomes are
     * in the order of the items. Runs on the caller's thread when there is one item, one thread, or the caller is a
     * worker of this pool itself (waiting on the pool from inside it could starve it).
     *
     * @throws InterruptedIOException when the caller is interrupted while waiting; unfinished parts are cancelled: those
     *     not started never run, and those running are interrupted and waited for, so that none runs once this throws
     */
    public <I, O> List<Outcome<O>> map(List<I> items, Task<I, O> task) throws InterruptedIOException {
        List<Outcome<O>> outcomes = new ArrayList<>(items.size());
        if (items.size() <= 1 || parallelism == 1 || Thread.currentThread().getThreadGroup() == threads) {
            for (I item : items) {
                if (Thread.currentThread().isInterrupted()) {
                    throw new InterruptedIOException("Interrupted before all parts of the operation ran");
                }
                StorageMeter.Attempt<O> attempt = StorageMeter.attempt(() -> task.run(item));
                outcomes.add(new Outcome<>(attempt.result(), attempt.failure()));
            }
            return outcomes;
        }
        List<Future<StorageMeter.Attempt<O>>> futures = new ArrayList<>(items.size());
        RunningParts running = new RunningParts();
        for (I item : items) {
            futures.add(pool.submit(() -> running.run(() -> StorageMeter.attempt(() -> task.run(item)))));
        }
        try {
            for (Future<StorageMeter.Attempt<O>> future : futures) {
                StorageMeter.Attempt<O> attempt = future.get();
                StorageMeter.record(attempt.cost());
                outcomes.add(new Outcome<>(attempt.result(), attempt.failure()));
            }
            return outcomes;
        } catch (InterruptedException e) {
            running.abandon(futures);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for the parts of the operation");
        } catch (ExecutionException e) {
            // StorageMeter.attempt returns failures; only an Error reaches here.
            running.abandon(futures);
            throw new IllegalStateException("A part of the operation failed unexpectedly", e.getCause());
        }
    }

    /**
     * The parts of one {@link #map} running now. A caller that gives up on its parts waits until none runs: a NiFi task
     * terminated in the middle of a rewrite must not leave parts writing to the archive after it has ended.
     */
    private static final class RunningParts {
        private int running; // guarded by this
        private boolean abandoned; // guarded by this

        <T> T run(Callable<T> part) throws Exception {
            synchronized (this) {
                if (abandoned) {
                    throw new CancellationException("The operation was given up before this part ran");
                }
                running++;
            }
            try {
                return part.call();
            } finally {
                synchronized (this) {
                    running--;
                    notifyAll();
                }
            }
        }

        /** Cancels the parts (interrupting those running) and waits until none runs. */
        void abandon(List<? extends Future<?>> parts) {
            synchronized (this) {
                abandoned = true;
            }
            parts.forEach(part -> part.cancel(true));
            boolean interrupted = false;
            synchronized (this) {
                while (running > 0) {
                    try {
                        wait();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Like {@link #map}, but the first failure, in item order, is thrown once every part has ended. */
    public <I, O> List<O> mapAll(List<I> items, Task<I, O> task) throws IOException {
        return valuesOf(map(items, task));
    }

    /** The outcomes' values in order, or the first failure thrown as {@link #rethrowable} gives it. */
    public static <O> List<O> valuesOf(List<Outcome<O>> outcomes) throws IOException {
        List<O> values = new ArrayList<>(outcomes.size());
        for (Outcome<O> outcome : outcomes) {
            if (outcome.failed()) {
                throw rethrowable(outcome.failure());
            }
            values.add(outcome.value());
        }
        return values;
    }

    /** The failure as thrown: an I/O failure as it is, a runtime one unchecked. */
    public static IOException rethrowable(Exception failure) {
        if (failure instanceof RuntimeException runtime) {
            throw runtime;
        }
        return failure instanceof IOException io ? io : new IOException(failure);
    }
}
