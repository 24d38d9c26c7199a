package dev.nifigeoparquet.archive.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.FailureKind;
import dev.nifigeoparquet.archive.error.LeaseUnavailableException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.LeaseRecord;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A lease in the archive: one holder at a time across processes, lapsing, renewed, and due once per interval. */
class ArchiveLeaseTest {

    private static final Instant T0 = Instant.parse("2026-12-04T03:00:00Z");
    private static final Duration HOUR = Duration.ofHours(1);

    @TempDir
    Path temp;

    @Test
    void ofEightProcessesTakingTheLeaseAtOnceExactlyOneGetsIt() throws Exception {
        int takers = 8;
        CyclicBarrier start = new CyclicBarrier(takers);
        ExecutorService pool = Executors.newFixedThreadPool(takers);
        try {
            List<Future<Boolean>> attempts = new ArrayList<>();
            for (int i = 0; i < takers; i++) {
                // Each through its own alias of the directory: nothing in the process serialises them.
                Path alias = Files.createSymbolicLink(temp.resolve("alias-" + i), temp.resolve("archive"));
                Files.createDirectories(temp.resolve("archive"));
                ArchiveLease lease =
                        new ArchiveLease(new LocalArchiveStorage(alias), "sweep-compaction", Clock.systemUTC());
                String holder = "taker-" + i;
                attempts.add(pool.submit(() -> {
                    start.await();
                    return lease.tryAcquire(holder, HOUR).isPresent();
                }));
            }
            int won = 0;
            for (Future<Boolean> attempt : attempts) {
                won += attempt.get() ? 1 : 0;
            }
            assertEquals(1, won, "exactly one taker holds the lease");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aHeldLeaseRefusesOthersUntilItLapsesOrIsReleased() throws Exception {
        MutableClock clock = new MutableClock(T0);
        LocalArchiveStorage storage = new LocalArchiveStorage(temp);
        ArchiveLease lease = new ArchiveLease(storage, "adoption", clock);

        ArchiveLease.Held first = lease.tryAcquire("node-1", HOUR).orElseThrow();
        assertTrue(lease.tryAcquire("node-2", HOUR).isEmpty(), "held by node-1");
        LeaseUnavailableException busy =
                assertThrows(LeaseUnavailableException.class, () -> lease.acquire("node-2", HOUR, "adopting"));
        assertTrue(busy.getMessage().contains("node-1"), busy.getMessage());
        assertEquals(FailureKind.TRANSIENT, FailureKind.of(busy), "tried again later, it succeeds");

        clock.set(T0.plus(HOUR).plusSeconds(1));
        ArchiveLease.Held second = lease.tryAcquire("node-2", HOUR).orElseThrow(() -> new AssertionError("lapsed"));
        assertThrows(LeaseUnavailableException.class, () -> first.renew(HOUR), "node-1 lost the lease it let lapse");
        second.renew(HOUR);
        assertEquals(T0.plus(HOUR).plusSeconds(1), second.record().acquiredAt(), "a renewal keeps acquiredAt");
        second.done();
        second.close();
        assertEquals(LeaseRecord.State.RELEASED, lease.latest().orElseThrow().state());
        assertTrue(lease.tryAcquire("node-3", HOUR).isPresent(), "free once released");
    }

    @Test
    void workIsDueAnIntervalAfterItWasLastDoneAndAtOnceAfterItWasGivenUp() throws Exception {
        MutableClock clock = new MutableClock(T0);
        ArchiveLease lease = new ArchiveLease(new LocalArchiveStorage(temp), "sweep-verification", clock);
        Duration day = Duration.ofDays(1);

        ArchiveLease.Attempt first = lease.tryAcquireIfDue("node-1", HOUR, day);
        assertNotNull(first.held(), "never done: due");
        ArchiveLease.Attempt meanwhile = lease.tryAcquireIfDue("node-2", HOUR, day);
        assertNull(meanwhile.held(), "running on node-1");
        first.held().done();
        first.held().close();

        clock.set(T0.plus(Duration.ofHours(23)));
        ArchiveLease.Attempt early = lease.tryAcquireIfDue("node-2", HOUR, day);
        assertNull(early.held(), "done 23 hours ago");
        assertEquals(T0.plus(day), early.dueAt());

        clock.set(T0.plus(day));
        ArchiveLease.Attempt due = lease.tryAcquireIfDue("node-2", HOUR, day);
        assertNotNull(due.held(), "a day after the last run");
        due.held().close(); // given up: not marked done

        clock.set(T0.plus(day).plusSeconds(5));
        assertNotNull(lease.tryAcquireIfDue("node-1", HOUR, day).held(), "work given up is due at once");
    }

    @Test
    void onlyTheNewestRecordsAreKept() throws Exception {
        MutableClock clock = new MutableClock(T0);
        LocalArchiveStorage storage = new LocalArchiveStorage(temp);
        ArchiveLease lease = new ArchiveLease(storage, "sweep-compaction", clock);
        for (int i = 0; i < 30; i++) {
            Optional<ArchiveLease.Held> held = lease.tryAcquire("node", HOUR);
            held.orElseThrow().done();
            held.get().close();
        }
        try (Stream<Path> records = Files.list(temp.resolve(ArchiveLayout.leaseDirectory("sweep-compaction")))) {
            assertEquals(ArchiveLease.RECORDS_KEPT, records.count());
        }
        assertEquals(60, lease.latest().orElseThrow().version());
        assertFalse(lease.latest().orElseThrow().heldAt(clock.instant()));
    }

    /** A clock the test sets. */
    static final class MutableClock extends Clock {
        private Instant now;

        MutableClock(Instant now) {
            this.now = now;
        }

        void set(Instant instant) {
            now = instant;
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }
}
