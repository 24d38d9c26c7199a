package dev.nifigeoparquet.archive.storage;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * Puts a {@link StorageCost} on any operation without changing its result type: {@link #measure} runs the operation
 * and returns its result together with what it cost. A storage that knows its requests (an object store) reports
 * them with the {@code record} methods; every measurement open on the calling thread receives them, so nested
 * measurements (one operation inside a sweep) both see the requests.
 *
 * <p>Requests are recorded on the thread that makes them. Work an operation hands to other threads is measured there
 * and added to the caller's measurements with {@link #record(StorageCost)} (see {@code Workers}), which keeps the
 * attribution exact. A storage with no billed requests (the local
 * filesystem) records nothing, and its operations cost {@link StorageCost#NONE}.
 */
public final class StorageMeter {

    private static final ThreadLocal<Deque<StorageMeter>> OPEN = ThreadLocal.withInitial(ArrayDeque::new);

    private long puts;
    private long gets;
    private long lists;
    private long deletes;
    private long bytesUploaded;
    private long bytesDownloaded;
    private final List<StorageCost.DeletedObject> deleted = new ArrayList<>();

    private StorageMeter() {}

    /** An operation's result and what it cost. */
    public record Measured<T>(T result, StorageCost cost) {}

    /** Work to measure. */
    @FunctionalInterface
    public interface Operation<T> {
        T run() throws IOException;
    }

    /** Runs {@code operation} on this thread and returns its result with the storage requests it made. */
    public static <T> Measured<T> measure(Operation<T> operation) throws IOException {
        StorageMeter meter = new StorageMeter();
        Deque<StorageMeter> open = OPEN.get();
        open.push(meter);
        try {
            T result = operation.run();
            return new Measured<>(result, meter.snapshot());
        } finally {
            open.remove(meter);
            if (open.isEmpty()) {
                OPEN.remove();
            }
        }
    }

    /** An operation's result or failure, and what it cost either way. */
    public record Attempt<T>(T result, Exception failure, StorageCost cost) {}

    /** Like {@link #measure}, but a failure is returned with the requests made before it instead of thrown. */
    public static <T> Attempt<T> attempt(Operation<T> operation) {
        StorageMeter meter = new StorageMeter();
        Deque<StorageMeter> open = OPEN.get();
        open.push(meter);
        try {
            T result = operation.run();
            return new Attempt<>(result, null, meter.snapshot());
        } catch (IOException | RuntimeException e) {
            return new Attempt<>(null, e, meter.snapshot());
        } finally {
            open.remove(meter);
            if (open.isEmpty()) {
                OPEN.remove();
            }
        }
    }

    /** What the innermost open measurement on this thread has recorded so far; {@link StorageCost#NONE} when none is open. */
    public static StorageCost current() {
        StorageMeter meter = OPEN.get().peek();
        return meter == null ? StorageCost.NONE : meter.snapshot();
    }

    /**
     * Adds requests measured elsewhere (on a worker thread doing part of this thread's operation) to every measurement
     * open on this thread.
     */
    public static void record(StorageCost cost) {
        OPEN.get().forEach(m -> m.add(cost));
    }

    /** A PUT-class request. */
    public static void recordPut() {
        OPEN.get().forEach(m -> m.puts++);
    }

    /** Body bytes sent (counted apart from requests, so a request and its body can be recorded where each is known). */
    public static void recordUploaded(long bytes) {
        OPEN.get().forEach(m -> m.bytesUploaded += bytes);
    }

    public static void recordGet() {
        OPEN.get().forEach(m -> m.gets++);
    }

    public static void recordList() {
        OPEN.get().forEach(m -> m.lists++);
    }

    public static void recordDelete() {
        OPEN.get().forEach(m -> m.deletes++);
    }

    public static void recordDownloaded(long bytes) {
        OPEN.get().forEach(m -> m.bytesDownloaded += bytes);
    }

    /** An object deleted (its request is recorded separately); {@code age} null when unknown. */
    public static void recordDeletedObject(String path, Duration age) {
        OPEN.get().forEach(m -> m.deleted.add(new StorageCost.DeletedObject(path, age)));
    }

    private void add(StorageCost cost) {
        puts += cost.puts();
        gets += cost.gets();
        lists += cost.lists();
        deletes += cost.deletes();
        bytesUploaded += cost.bytesUploaded();
        bytesDownloaded += cost.bytesDownloaded();
        deleted.addAll(cost.deleted());
    }

    private StorageCost snapshot() {
        return new StorageCost(puts, gets, lists, deletes, bytesUploaded, bytesDownloaded, deleted);
    }
}
