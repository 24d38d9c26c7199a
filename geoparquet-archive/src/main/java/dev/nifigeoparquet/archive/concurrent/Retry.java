package dev.nifigeoparquet.archive.concurrent;

import dev.nifigeoparquet.archive.error.CommitConflictException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Runs work again while it fails with one type of exception, and only that type: whether a failure is worth another
 * attempt is said by its type, never by its message. Every other failure propagates at once, as it came.
 *
 * <p>Two uses. {@link #withBackoff} redoes work that lost a race to another writer (a commit conflict),
 * after a random pause that grows with each attempt (so two writers that collided do not collide again in step), up to
 * a bound, then gives up with the last conflict. {@link #onVanishedFile} reads again at once after a file vanished
 * under a concurrent writer, and gives up with the last failure.
 *
 * <p>An interrupt (NiFi stopping a processor) stops retrying at once: no further attempt starts on an interrupted
 * thread, and a pause ends when the thread is interrupted. The caller gets an {@link InterruptedIOException} whose cause
 * is the failure that would have been retried, and the thread keeps its interrupt status.
 *
 * @param <E> the failures that are retried
 */
public final class Retry<E extends IOException> {

    /** One attempt; {@code attempt} counts from 1. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run(int attempt) throws IOException;
    }

    /** What is thrown when the attempts are used up, from the last failure and the number of attempts made. */
    @FunctionalInterface
    public interface GiveUp<E extends IOException> {
        IOException after(E last, int attempts);
    }

    private static final long MAX_PAUSE_MILLIS = 1000;

    private final Class<E> retried;
    private final List<Class<? extends E>> propagated;
    private final int maxAttempts;
    private final boolean pause;
    private final GiveUp<E> giveUp;

    private Retry(
            Class<E> retried,
            List<Class<? extends E>> propagatedTypes,
            int maxAttempts,
            boolean pause,
            GiveUp<E> giveUp) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("At least one attempt, not " + maxAttempts);
        }
        this.retried = Objects.requireNonNull(retried);
        this.propagated = List.copyOf(propagatedTypes);
        this.maxAttempts = maxAttempts;
        this.pause = pause;
        this.giveUp = giveUp;
    }

    /**
     * Retries failures of type {@code type} (conflicts with other writers) up to {@code maxAttempts} attempts in all,
     * pausing longer before each; then throws what {@code giveUp} makes of the last one.
     */
    public static <E extends IOException> Retry<E> withBackoff(Class<E> type, int maxAttempts, GiveUp<E> giveUp) {
        return new Retry<>(type, List.of(), maxAttempts, true, giveUp);
    }

    /** Reads again at once while a file vanishes under a concurrent writer, up to {@code maxAttempts} attempts in all. */
    public static Retry<NoSuchFileException> onVanishedFile(int maxAttempts) {
        return new Retry<>(NoSuchFileException.class, List.of(), maxAttempts, false, (last, attempts) -> last);
    }

    /** The same retry, except that failures of {@code type} (a subtype of the retried one) propagate at once. */
    public Retry<E> except(Class<? extends E> type) {
        List<Class<? extends E>> types = new ArrayList<>(propagated);
        types.add(type);
        return new Retry<>(retried, types, maxAttempts, pause, giveUp);
    }

    /** Runs {@code attempt} until it returns, fails with something else than the retried type, or runs out of attempts. */
    public <T> T run(Attempt<T> attempt) throws IOException {
        for (int number = 1; ; number++) {
            E failure;
            try {
                return attempt.run(number);
            } catch (IOException e) {
                if (!retried.isInstance(e) || propagated.stream().anyMatch(type -> type.isInstance(e))) {
                    throw e;
                }
                failure = retried.cast(e);
            }
            if (number >= maxAttempts) {
                throw giveUp.after(failure, number);
            }
            waitBeforeAttempt(number + 1, failure);
        }
    }

    private void waitBeforeAttempt(int next, E failure) throws InterruptedIOException {
        if (Thread.currentThread().isInterrupted()) {
            throw interrupted(next, failure);
        }
        if (!pause) {
            return;
        }
        long maxMillis = Math.min(MAX_PAUSE_MILLIS, 10L << Math.min(next - 1, 6));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, maxMillis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw interrupted(next, failure);
        }
    }

    private static InterruptedIOException interrupted(int next, IOException failure) {
        InterruptedIOException interrupted = new InterruptedIOException(
                "Interrupted; attempt " + next + " was not made after: " + failure.getMessage());
        interrupted.initCause(failure);
        return interrupted;
    }

    /**
     * Retries conflicts of type {@code type} up to {@code maxAttempts} attempts in all, pausing before each; then throws
     * the last conflict {@linkplain CommitConflictException#afterAttempts as the end of the operation}, naming what was {@code contended}
     * ("the partition", "the archive").
     */
    public static <C extends CommitConflictException> Retry<C> onConflict(
            Class<C> type, int maxAttempts, String contended) {
        return withBackoff(type, maxAttempts, (last, attempts) -> last.afterAttempts(attempts, contended));
    }
}
