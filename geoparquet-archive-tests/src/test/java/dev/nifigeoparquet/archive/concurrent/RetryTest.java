package dev.nifigeoparquet.archive.concurrent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.CommitConflictException;
import dev.nifigeoparquet.archive.error.CommitStateUnknownException;
import dev.nifigeoparquet.archive.error.PartitionBusyException;
import dev.nifigeoparquet.archive.error.StalePlanException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The one retry helper: what it retries is said by the failure's type, and an interrupt ends it. */
class RetryTest {

    private static final String CELL = "8428309ffffffff";

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void retriesTheConflictUntilTheWorkSucceeds() throws IOException {
        AtomicInteger attempts = new AtomicInteger();
        String result = Retry.onConflict(CommitConflictException.class, 8, "the partition")
                .run(attempt -> {
                    assertEquals(attempts.incrementAndGet(), attempt);
                    if (attempt < 3) {
                        throw new CommitConflictException(CELL, attempt, "another writer");
                    }
                    return "done";
                });
        assertEquals("done", result);
        assertEquals(3, attempts.get());
    }

    @Test
    void givesUpAfterTheAttemptsWithTheLastConflict() {
        AtomicInteger attempts = new AtomicInteger();
        CommitConflictException gaveUp = assertThrows(
                CommitConflictException.class,
                () -> Retry.onConflict(CommitConflictException.class, 4, "the archive")
                        .run(attempt -> {
                            attempts.incrementAndGet();
                            throw new CommitConflictException(CELL, attempt, "another writer");
                        }));
        assertEquals(4, attempts.get());
        assertTrue(
                gaveUp.getMessage().contains("gave up after 4 attempts, the archive is being written concurrently"),
                gaveUp.getMessage());
        assertEquals(4, ((CommitConflictException) gaveUp.getCause()).version(), "the last conflict is the cause");
    }

    @Test
    void anyOtherFailurePropagatesAtOnce() {
        AtomicInteger attempts = new AtomicInteger();
        IOException unknown = new CommitStateUnknownException("Creating commit 4", new IOException("connection reset"));
        assertSame(
                unknown,
                assertThrows(
                        IOException.class,
                        () -> Retry.onConflict(CommitConflictException.class, 8, "the partition")
                                .run(attempt -> {
                                    attempts.incrementAndGet();
                                    throw unknown;
                                })),
                "a commit of unknown outcome is never retried blindly");
        assertEquals(1, attempts.get());

        // Only the type asked for: a busy partition is retried, a lost commit race is not.
        CommitConflictException lost = new CommitConflictException(CELL, 4, "another writer");
        assertSame(
                lost,
                assertThrows(
                        CommitConflictException.class,
                        () -> Retry.onConflict(PartitionBusyException.class, 8, "the partition")
                                .run(attempt -> {
                                    attempts.incrementAndGet();
                                    throw lost;
                                })));
        assertEquals(2, attempts.get());
    }

    @Test
    void anExceptedSubtypePropagatesAtOnce() {
        AtomicInteger attempts = new AtomicInteger();
        StalePlanException stale = new StalePlanException(CELL, "another writer recorded the key");
        assertSame(
                stale,
                assertThrows(
                        StalePlanException.class,
                        () -> Retry.onConflict(CommitConflictException.class, 8, "the partition")
                                .except(StalePlanException.class)
                                .run(attempt -> {
                                    attempts.incrementAndGet();
                                    throw stale;
                                })));
        assertEquals(1, attempts.get());
    }

    @Test
    void aVanishedFileIsReadAgainAtOnce() throws IOException {
        AtomicInteger attempts = new AtomicInteger();
        assertEquals(Integer.valueOf(3), Retry.onVanishedFile(3).<Integer>run(attempt -> {
            if (attempts.incrementAndGet() < 3) {
                throw new NoSuchFileException("log/" + CELL + "/00000000000000000004.json");
            }
            return attempt;
        }));
        NoSuchFileException gone = new NoSuchFileException("index/index-03/part-1.keys");
        assertSame(
                gone,
                assertThrows(
                        NoSuchFileException.class,
                        () -> Retry.onVanishedFile(3).run(attempt -> {
                            throw gone;
                        })),
                "the last failure, as it came");
    }

    @Test
    void anInterruptedThreadMakesNoFurtherAttempt() {
        AtomicInteger attempts = new AtomicInteger();
        InterruptedIOException stopped = assertThrows(
                InterruptedIOException.class,
                () -> Retry.onConflict(CommitConflictException.class, 8, "the partition")
                        .run(attempt -> {
                            attempts.incrementAndGet();
                            Thread.currentThread().interrupt(); // NiFi stopping the processor while the attempt ran
                            throw new CommitConflictException(CELL, attempt, "another writer");
                        }));
        assertEquals(1, attempts.get());
        assertInstanceOf(CommitConflictException.class, stopped.getCause());
        assertTrue(Thread.currentThread().isInterrupted(), "the caller still sees the interrupt");

        Thread.interrupted();
        attempts.set(0);
        assertThrows(
                InterruptedIOException.class,
                () -> Retry.onVanishedFile(3).run(attempt -> {
                    attempts.incrementAndGet();
                    Thread.currentThread().interrupt();
                    throw new NoSuchFileException("gone");
                }),
                "reads again at once, but not on an interrupted thread");
        assertEquals(1, attempts.get());
    }

    @Test
    void anInterruptEndsThePauseBeforeTheNextAttempt() throws Exception {
        AtomicInteger attempts = new AtomicInteger();
        AtomicReference<Throwable> outcome = new AtomicReference<>();
        CountDownLatch failedTwice = new CountDownLatch(2);
        Thread writer = new Thread(() -> {
            try {
                Retry.onConflict(CommitConflictException.class, 1_000, "the partition")
                        .run(attempt -> {
                            attempts.incrementAndGet();
                            failedTwice.countDown();
                            throw new CommitConflictException(CELL, attempt, "another writer");
                        });
            } catch (Throwable t) {
                outcome.set(t);
            }
        });
        writer.start();
        assertTrue(failedTwice.await(10, TimeUnit.SECONDS));
        int before = attempts.get();
        writer.interrupt();
        writer.join(TimeUnit.SECONDS.toMillis(10));
        assertTrue(!writer.isAlive(), "the retrying thread ended");
        assertInstanceOf(InterruptedIOException.class, outcome.get());
        assertTrue(
                attempts.get() <= before + 1,
                "at most the attempt under way when the interrupt came: " + attempts.get() + " after " + before);
    }
}
