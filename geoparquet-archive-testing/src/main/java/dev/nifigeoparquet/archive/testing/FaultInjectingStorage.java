package dev.nifigeoparquet.archive.testing;

import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import org.apache.parquet.io.InputFile;

/**
 * Wraps an {@link ArchiveStorage} and fails at the Nth storage call, to prove that every step of every
 * operation leaves the archive recoverable. Every call counts, including the close of a staged stream
 * (the moment a data file is complete) and {@link #sync} (the moment staged files become durable).
 *
 * <p>Three faults: an {@link Fault#EXCEPTION} fails that one call and lets later calls through (a transient
 * I/O error); {@link Fault#CRASH_BEFORE} and {@link Fault#CRASH_AFTER} simulate the process dying just before
 * or just after the call takes effect: that call and every later one throw {@link SimulatedCrashException},
 * so no clean-up code can run.
 */
public final class FaultInjectingStorage implements ArchiveStorage {

    /** How the Nth call fails. */
    public enum Fault {
        EXCEPTION,
        CRASH_BEFORE,
        CRASH_AFTER
    }

    /** Thrown for an injected fault; an {@link IOException} so it travels the same paths a real one does. */
    public static final class SimulatedCrashException extends IOException {
        public SimulatedCrashException(String message) {
            super(message);
        }
    }

    private final ArchiveStorage delegate;
    private final long failAtCall;
    private final Fault fault;
    private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
    private volatile boolean crashed;

    /**
     * @param failAtCall the 1-based call that fails; 0 or less never fails (used to count calls)
     */
    public FaultInjectingStorage(ArchiveStorage delegate, long failAtCall, Fault fault) {
        this.delegate = Objects.requireNonNull(delegate);
        this.failAtCall = failAtCall;
        this.fault = Objects.requireNonNull(fault);
    }

    /** A wrapper that only records calls, to learn how many an operation makes. */
    public static FaultInjectingStorage counting(ArchiveStorage delegate) {
        return new FaultInjectingStorage(delegate, 0, Fault.EXCEPTION);
    }

    /** The calls made so far, in order, as "operation path". */
    public List<String> calls() {
        synchronized (calls) {
            return List.copyOf(calls);
        }
    }

    public int callCount() {
        return calls.size();
    }

    public boolean crashed() {
        return crashed;
    }

    @FunctionalInterface
    private interface StorageCall<T> {
        T run() throws IOException;
    }

    private <T> T call(String description, StorageCall<T> action) throws IOException {
        if (crashed) {
            throw new SimulatedCrashException("process already dead; refused " + description);
        }
        long number;
        synchronized (calls) {
            calls.add(description);
            number = calls.size();
        }
        if (number != failAtCall) {
            return action.run();
        }
        switch (fault) {
            case EXCEPTION -> throw new IOException("injected I/O failure at call " + number + ": " + description);
            case CRASH_BEFORE -> {
                crashed = true;
                throw new SimulatedCrashException("simulated crash before call " + number + ": " + description);
            }
            default -> {
                action.run();
                crashed = true;
                throw new SimulatedCrashException("simulated crash after call " + number + ": " + description);
            }
        }
    }

    @Override
    public List<StoredObject> list(String directory) throws IOException {
        return call("list " + directory, () -> delegate.list(directory));
    }

    @Override
    public StoredObject stat(String path) throws IOException {
        return call("stat " + path, () -> delegate.stat(path));
    }

    @Override
    public InputFile openInputFile(String path) throws IOException {
        return call("open " + path, () -> delegate.openInputFile(path));
    }

    @Override
    public byte[] readAllBytes(String path) throws IOException {
        return call("read " + path, () -> delegate.readAllBytes(path));
    }

    @Override
    public void createExclusive(String path, byte[] content) throws IOException {
        call("createExclusive " + path, () -> {
            delegate.createExclusive(path, content);
            return null;
        });
    }

    @Override
    public OutputStream createStaged(String path) throws IOException {
        return staged(path, call("createStaged " + path, () -> delegate.createStaged(path)));
    }

    @Override
    public OutputStream createStagedDeferred(String path) throws IOException {
        return staged(path, call("createStaged " + path, () -> delegate.createStagedDeferred(path)));
    }

    @Override
    public void sync(Collection<String> paths) throws IOException {
        call("sync " + paths.size() + " objects", () -> {
            delegate.sync(paths);
            return null;
        });
    }

    private OutputStream staged(String path, OutputStream stream) {
        return new FilterOutputStream(stream) {
            @Override
            public void write(int b) throws IOException {
                refuseIfCrashed();
                out.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                refuseIfCrashed();
                out.write(bytes, offset, length);
            }

            private void refuseIfCrashed() throws SimulatedCrashException {
                if (crashed) {
                    throw new SimulatedCrashException("process already dead; refused write to " + path);
                }
            }

            @Override
            public void close() throws IOException {
                call("closeStaged " + path, () -> {
                    out.close();
                    return null;
                });
            }
        };
    }

    @Override
    public void publish(String stagedPath, String finalPath) throws IOException {
        call("publish " + finalPath, () -> {
            delegate.publish(stagedPath, finalPath);
            return null;
        });
    }

    @Override
    public void publishReplacing(String stagedPath, String finalPath) throws IOException {
        call("publishReplacing " + finalPath, () -> {
            delegate.publishReplacing(stagedPath, finalPath);
            return null;
        });
    }

    @Override
    public void delete(String path) throws IOException {
        call("delete " + path, () -> {
            delegate.delete(path);
            return null;
        });
    }

    @Override
    public String describe() {
        return delegate.describe();
    }
}
