package dev.nifigeoparquet.archive.cells;

import dev.nifigeoparquet.archive.concurrent.Workers;
import java.io.Closeable;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Writes cells' batches on helper threads, several cells side by side: each cell belongs to one lane, a lane writes
 * its batches one after another in the order they came, and the lanes run at once. Routing to hundreds of cells spends
 * most of its time in the cells' writers; on one thread that work, not the reading or the keying, set the pace.
 *
 * <p>A cell's writer is thus used by one thread at a time and takes its items in order, but not always on the same
 * thread, nor on the caller's: the sink must not touch what belongs to the caller's thread (a NiFi session's streams).
 * A new cell joins the lane that has been given the fewest items, so skewed cells spread over the lanes. At most
 * {@code maxHeldItems} items wait for a lane at once; {@link #write} blocks until they fit. {@link #end} queues a last
 * step for each cell (finishing its writer), which then runs side by side too. A failure of the sink or of a last step
 * stops every lane and is thrown, as it was thrown, by the next {@link #write}, {@link #end} or {@link #finish}. One
 * caller.
 *
 * @param <T> what is routed: a row, a record
 */
public final class CellLanes<T> implements CellBatches.Sink<T>, Closeable {

    /** Lanes by default: one per core, as many as can write at once. */
    public static int defaultLanes() {
        return Runtime.getRuntime().availableProcessors();
    }

    /** A cell's last step, after its batches. */
    @FunctionalInterface
    public interface CellEnd {
        void end(String cell) throws IOException;
    }

    private final Executor helpers;
    private final int maxHeldItems;
    private final CellBatches.Sink<T> sink;
    private final List<Lane> lanes = new ArrayList<>();
    private final Map<String, Lane> laneOfCell = new HashMap<>();
    private final Object lock = new Object();
    // Guarded by lock:
    private int heldItems;
    private int running;
    private Throwable failure;
    private boolean closed;

    /**
     * @param helpers      runs the lanes; it needs as many threads as lanes to run them all at once
     * @param lanes        how many cells may be written at once
     * @param maxHeldItems items waiting for their lane at most, at least a batch's
     */
    public CellLanes(Executor helpers, int lanes, int maxHeldItems, CellBatches.Sink<T> sink) {
        if (lanes < 1 || maxHeldItems < 1) {
            throw new IllegalArgumentException(
                    "Need at least one lane and one held item, was " + lanes + " and " + maxHeldItems);
        }
        this.helpers = helpers;
        this.maxHeldItems = maxHeldItems;
        this.sink = sink;
        for (int i = 0; i < lanes; i++) {
            this.lanes.add(new Lane());
        }
    }

    /** Queues a copy of the batch on its cell's lane; the list may be reused once this returns. */
    @Override
    public void write(String cell, List<T> batch) throws IOException {
        if (batch.isEmpty()) {
            return;
        }
        List<T> items = new ArrayList<>(batch);
        queue(cell, new Work(items.size(), () -> sink.write(cell, items)));
    }

    /** Queues {@code end} for each of {@code cells} on its lane, after the batches written to it. */
    public void end(Collection<String> cells, CellEnd end) throws IOException {
        for (String cell : cells) {
            queue(cell, new Work(0, () -> end.end(cell)));
        }
    }

    private void queue(String cell, Work work) throws IOException {
        Lane lane = laneOfCell.computeIfAbsent(cell, c -> leastGiven());
        lane.given += work.items();
        boolean start;
        synchronized (lock) {
            // A batch larger than the bound goes alone, once nothing else waits.
            while (failure == null && heldItems > 0 && heldItems + work.items() > maxHeldItems) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    throw interrupted();
                }
            }
            throwIfFailed();
            heldItems += work.items();
            lane.queue.add(work);
            start = !lane.scheduled;
            if (start) {
                lane.scheduled = true;
                running++;
            }
        }
        if (start) {
            try {
                helpers.execute(lane);
            } catch (RuntimeException refused) {
                synchronized (lock) {
                    lane.scheduled = false;
                    running--;
                    failure = failure == null ? refused : failure;
                    lock.notifyAll();
                }
                throw refused;
            }
        }
    }

    /** Waits until every batch is written and every last step taken, and throws the first failure if any. */
    public void finish() throws IOException {
        awaitWritten(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    }

    /**
     * Waits at most {@code timeout} for every batch to be written and every last step taken: whether they are; throws
     * the first failure once the lanes have stopped.
     */
    public boolean awaitWritten(long timeout, TimeUnit unit) throws IOException {
        long deadline = System.nanoTime() + unit.toNanos(timeout); // differences stay right past overflow
        synchronized (lock) {
            long left;
            while (running > 0 && (left = deadline - System.nanoTime()) > 0) {
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    throw interrupted();
                }
            }
            if (running > 0) {
                return false;
            }
            throwIfFailed();
            return true;
        }
    }

    /**
     * Stops the lanes after the batches they are writing and waits for them, so that nothing touches the writers once
     * this returns; batches not yet written are dropped. Safe after a failure.
     */
    @Override
    public void close() {
        boolean interrupted = false;
        synchronized (lock) {
            closed = true;
            while (running > 0) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private Lane leastGiven() {
        Lane least = lanes.get(0);
        for (Lane lane : lanes) {
            if (lane.given < least.given) {
                least = lane;
            }
        }
        return least;
    }

    private static InterruptedIOException interrupted() {
        Thread.currentThread().interrupt();
        return new InterruptedIOException("Interrupted while waiting for the cells' writers");
    }

    private void throwIfFailed() throws IOException {
        if (failure instanceof Error error) {
            throw error;
        }
        if (failure != null) {
            throw Workers.rethrowable((Exception) failure); // the sink throws nothing else
        }
    }

    /** What a lane does for a cell: write a batch of {@code items}, or take the cell's last step. */
    private record Work(int items, Step step) {}

    @FunctionalInterface
    private interface Step {
        void run() throws IOException;
    }

    /** One lane: its work, done one after another by whichever helper thread runs it. */
    private final class Lane implements Runnable {
        private final ArrayDeque<Work> queue = new ArrayDeque<>(); // guarded by lock
        private boolean scheduled; // guarded by lock
        private long given; // the caller's only

        @Override
        public void run() {
            while (true) {
                Work next;
                synchronized (lock) {
                    next = failure == null && !closed ? queue.poll() : null;
                    if (next == null) {
                        queue.clear();
                        scheduled = false;
                        running--;
                        lock.notifyAll();
                        return;
                    }
                }
                Throwable failed = null;
                try {
                    next.step().run();
                } catch (Exception | Error e) {
                    failed = e;
                } catch (Throwable e) { // thrown around the compiler's checks: the lane must still count itself done
                    failed = new IOException(e);
                }
                synchronized (lock) {
                    heldItems -= next.items();
                    if (failed != null && failure == null) {
                        failure = failed;
                    }
                    lock.notifyAll();
                }
            }
        }
    }
}
