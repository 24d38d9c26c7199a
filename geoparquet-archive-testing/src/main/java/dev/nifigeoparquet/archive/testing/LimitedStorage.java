package dev.nifigeoparquet.archive.testing;

import dev.nifigeoparquet.archive.error.StorageFullException;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Storage that runs out of something: a {@link #diskFull disk that fills up} after a number of bytes, or a
 * {@link #readOnly root that refuses every change}. Both throw what the local storage throws for the real condition
 * ({@link StorageFullException} around the JDK's {@code IOException: No space left on device}, as
 * {@code LocalArchiveStorage} reports a write that fails on a full file system; {@link AccessDeniedException} naming the
 * path), so the engine meets the same exception types and messages as in production.
 */
public final class LimitedStorage extends ForwardingStorage {

    public static final String NO_SPACE = "No space left on device";

    private final long capacity;
    private final boolean readOnly;
    private final AtomicLong written = new AtomicLong();

    private LimitedStorage(ArchiveStorage delegate, long capacity, boolean readOnly) {
        super(delegate);
        this.capacity = capacity;
        this.readOnly = readOnly;
    }

    /**
     * Accepts {@code capacity} bytes, counted over every staged stream and every exclusively created object, and
     * fails every write beyond them: a disk that fills up part-way through a data file or a commit entry.
     */
    public static LimitedStorage diskFull(ArchiveStorage delegate, long capacity) {
        return new LimitedStorage(delegate, capacity, false);
    }

    /** Reads pass; every creation, publication and deletion fails as on a root without write permission. */
    public static LimitedStorage readOnly(ArchiveStorage delegate) {
        return new LimitedStorage(delegate, Long.MAX_VALUE, true);
    }

    /** Bytes accepted so far. */
    public long written() {
        return written.get();
    }

    private void take(long bytes, String path) throws IOException {
        if (written.addAndGet(bytes) > capacity) {
            written.addAndGet(-bytes);
            throw new StorageFullException(
                    "The file system of " + describe() + " is full (0 bytes left): " + NO_SPACE,
                    new IOException(NO_SPACE + ": " + path));
        }
    }

    private void refuseChange(String path) throws AccessDeniedException {
        if (readOnly) {
            throw new AccessDeniedException(describe() + "/" + path, null, "Read-only file system");
        }
    }

    @Override
    public void createExclusive(String path, byte[] content) throws IOException {
        refuseChange(path);
        take(content.length, path);
        delegate.createExclusive(path, content);
    }

    @Override
    public OutputStream createStaged(String path) throws IOException {
        refuseChange(path);
        return new FilterOutputStream(delegate.createStaged(path)) {
            @Override
            public void write(int b) throws IOException {
                take(1, path);
                out.write(b);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                take(length, path);
                out.write(bytes, offset, length);
            }
        };
    }

    @Override
    public void publish(String stagedPath, String finalPath) throws IOException {
        refuseChange(finalPath);
        delegate.publish(stagedPath, finalPath);
    }

    @Override
    public void publishReplacing(String stagedPath, String finalPath) throws IOException {
        refuseChange(finalPath);
        delegate.publishReplacing(stagedPath, finalPath);
    }

    @Override
    public void delete(String path) throws IOException {
        refuseChange(path);
        delegate.delete(path);
    }
}
