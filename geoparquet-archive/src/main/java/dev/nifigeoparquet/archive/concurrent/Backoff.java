package dev.nifigeoparquet.archive.concurrent;

import java.io.InterruptedIOException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The pause between two attempts of work that lost a race: random (so two writers that collided do not collide again
 * in step) and growing with each attempt, up to a second. An interrupt ends it at once: a stopping processor must not
 * sit out its retries.
 */
public final class Backoff {

    private static final long MAX_MILLIS = 1000;

    private Backoff() {
    }

    /** Waits before attempt {@code attempt + 1}. */
    public static void pause(int attempt) throws InterruptedIOException {
        long maxMillis = Math.min(MAX_MILLIS, 10L << Math.min(attempt, 6));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, maxMillis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting to retry (attempt " + attempt + ")");
        }
    }
}
