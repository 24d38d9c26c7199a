package dev.nifigeoparquet.archive.cells;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Holds routed items by cell and hands them to a sink a batch at a time, so that each cell's writer takes many items
 * in a row. A per-cell Parquet writer keeps a column writer per column; writing item by item, in the order the cells
 * come, to hundreds of such writers spent more time on CPU cache misses than on encoding: a batch finds its writer's
 * state in the caches.
 *
 * <p>A cell's items reach the sink in the order they were added. A cell's batch goes out when it holds
 * {@code batchSize} items; every pending batch goes out once {@code maxBuffered} items are held in all, which bounds the
 * memory; {@link #flush()} sends the rest. Not thread-safe.
 *
 * @param <T> what is routed: a row, a record
 */
public final class CellBatches<T> {

    /** Items per batch: a larger batch gained nothing when routing a million parcels to 560 cells. */
    public static final int DEFAULT_BATCH_SIZE = 256;

    /** Receives a cell's batch; the list is reused once the call returns, so a sink must not keep it. */
    @FunctionalInterface
    public interface Sink<T> {
        void write(String cell, List<T> batch) throws IOException;
    }

    private final int batchSize;
    private final int maxBuffered;
    private final Sink<T> sink;
    private final Map<String, List<T>> pending = new LinkedHashMap<>();
    private int buffered;

    public CellBatches(int batchSize, int maxBuffered, Sink<T> sink) {
        if (batchSize < 1 || maxBuffered < batchSize) {
            throw new IllegalArgumentException(
                    "Need 1 <= batch size <= maximum buffered, was " + batchSize + " and " + maxBuffered);
        }
        this.batchSize = batchSize;
        this.maxBuffered = maxBuffered;
        this.sink = sink;
    }

    public void add(String cell, T item) throws IOException {
        List<T> batch = pending.computeIfAbsent(cell, c -> new ArrayList<>());
        batch.add(item);
        buffered++;
        if (batch.size() >= batchSize) {
            send(cell, batch);
        } else if (buffered >= maxBuffered) {
            flush();
        }
    }

    /** Sends every pending item, cell by cell in the order the cells first came. */
    public void flush() throws IOException {
        for (Map.Entry<String, List<T>> batch : pending.entrySet()) {
            if (!batch.getValue().isEmpty()) {
                send(batch.getKey(), batch.getValue());
            }
        }
    }

    /** Items held now. */
    public int buffered() {
        return buffered;
    }

    private void send(String cell, List<T> batch) throws IOException {
        sink.write(cell, batch);
        buffered -= batch.size();
        batch.clear();
    }
}
