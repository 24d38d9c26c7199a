package dev.nifigeoparquet.archive.testing;

import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * Storage that holds the first writer to stage a file at a chosen path until the test lets it go, so that another
 * writer can be run to completion in between: a deterministic interleaving of two processes.
 */
public final class PausingStorage extends ForwardingStorage {

    private final Predicate<String> pauseBeforeStaging;
    private final AtomicBoolean paused = new AtomicBoolean();
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch resumed = new CountDownLatch(1);

    /** @param pauseBeforeStaging selects the staged path whose first creation waits for {@link #resume()} */
    public PausingStorage(ArchiveStorage delegate, Predicate<String> pauseBeforeStaging) {
        super(delegate);
        this.pauseBeforeStaging = pauseBeforeStaging;
    }

    /** Waits until a writer is held at the chosen staging; false when none arrived in time. */
    public boolean awaitPaused(long seconds) throws InterruptedException {
        return arrived.await(seconds, TimeUnit.SECONDS);
    }

    /** Lets the held writer go on (and every later one through). */
    public void resume() {
        resumed.countDown();
    }

    @Override
    public OutputStream createStaged(String path) throws IOException {
        if (pauseBeforeStaging.test(path) && paused.compareAndSet(false, true)) {
            arrived.countDown();
            try {
                if (!resumed.await(60, TimeUnit.SECONDS)) {
                    throw new IOException("Held at " + path + " and never resumed");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("Interrupted while held at " + path);
            }
        }
        return delegate.createStaged(path);
    }
}
