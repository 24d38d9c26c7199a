package dev.nifigeoparquet.archive.concurrent;

import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;

/**
 * Computes each item's result on a helper thread, a block of items at a time, while the calling thread reads the next
 * block and hands the finished one on. Reading and writing stay on the caller's thread (a NiFi session and its streams
 * belong to it); the pure work between them, such as decoding and keying a geometry, runs beside them on another core.
 *
 * <p>Items reach the sink in the order they were added, each with its result. One block is computed at a time, so the
 * function need not be thread-safe, and at most three blocks are held: the one being filled, the one being computed and
 * the one being handed on. A failure of the function or of the sink is thrown, as it was thrown, by the {@link #add} or
 * {@link #finish} that met it. Not thread-safe: one caller.
 *
 * @param <T> what is added: a row, a record
 * @param <R> what is computed for it
 */
public final class ComputeAhead<T, R> implements Closeable {

    /** Items per block: enough to make a hand-over's cost negligible, few enough to hold three blocks of records. */
    public static final int DEFAULT_BLOCK_SIZE = 1024;

    /** Runs every block on the caller's thread, when there is no helper to run it. */
    public static final Executor ON_CALLER = Runnable::run;

    /** The work done for one item. */
    @FunctionalInterface
    public interface Function<T, R> {
        R apply(T item) throws IOException;
    }

    /** Receives each item with its result, in the order the items were added. */
    @FunctionalInterface
    public interface Sink<T, R> {
        void accept(T item, R result) throws IOException;
    }

    private final Executor helper;
    private final int blockSize;
    private final Function<T, R> function;
    private final Sink<T, R> sink;
    private List<T> filling;
    private FutureTask<Block<T, R>> computing;

    public ComputeAhead(Executor helper, int blockSize, Function<T, R> function, Sink<T, R> sink) {
        if (blockSize < 1) {
            throw new IllegalArgumentException("A block needs at least one item, was " + blockSize);
        }
        this.helper = helper;
        this.blockSize = blockSize;
        this.function = function;
        this.sink = sink;
        this.filling = new ArrayList<>(blockSize);
    }

    public void add(T item) throws IOException {
        filling.add(item);
        if (filling.size() == blockSize) {
            handOver();
        }
    }

    /** Computes and hands on every item added so far. */
    public void finish() throws IOException {
        handOver(); // the partly filled block goes to the helper, the one before it to the sink
        handOver(); // the last block to the sink
    }

    /**
     * Waits for the block being computed, starts the one being filled, and then hands the computed one to the sink, so
     * the helper computes while the sink writes and the caller reads.
     */
    private void handOver() throws IOException {
        Block<T, R> computed = awaitComputing();
        if (!filling.isEmpty()) {
            List<T> items = filling;
            filling = new ArrayList<>(blockSize);
            FutureTask<Block<T, R>> next = new FutureTask<>(() -> compute(items));
            helper.execute(next); // a refused block is never awaited: close must not wait for it
            computing = next;
        }
        if (computed != null) {
            for (int i = 0; i < computed.items.size(); i++) {
                sink.accept(computed.items.get(i), computed.results.get(i));
            }
        }
    }

    private Block<T, R> compute(List<T> items) throws IOException {
        List<R> results = new ArrayList<>(items.size());
        for (T item : items) {
            results.add(function.apply(item));
        }
        return new Block<>(items, results);
    }

    private Block<T, R> awaitComputing() throws IOException {
        if (computing == null) {
            return null;
        }
        try {
            Block<T, R> block = computing.get();
            computing = null;
            return block;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for a block to be computed");
        } catch (ExecutionException e) {
            computing = null;
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw Workers.rethrowable((Exception) e.getCause()); // the function throws nothing else
        }
    }

    /**
     * Waits until no block is being computed, so that nothing touches the items or the function's state once this
     * returns; whatever was not handed on is dropped. Safe after a failure.
     */
    @Override
    public void close() {
        if (computing == null) {
            return;
        }
        boolean interrupted = false;
        while (true) {
            try {
                computing.get();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            } catch (ExecutionException e) {
                break; // already failing, or closed before the block was wanted
            }
        }
        computing = null;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private record Block<T, R>(List<T> items, List<R> results) {}
}
