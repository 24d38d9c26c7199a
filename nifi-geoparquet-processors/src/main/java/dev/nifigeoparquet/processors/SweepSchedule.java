package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.ArchiveLease;
import dev.nifigeoparquet.archive.format.LeaseRecord;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.context.PropertyContext;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.processor.util.StandardValidators;

/**
 * When a processor without an incoming connection sweeps the whole archive: at most once per Sweep Interval across
 * every node and task, under the archive's lease for that sweep (docs/archive-format.md, section 5.12), so that the
 * archive is never swept twice at once and, on S3, not listed and read all day. Between checks nothing is read from the
 * storage: the next check waits until the sweep is due, or a few minutes while another node sweeps.
 */
final class SweepSchedule {

    /** How long a sweep may hold its lease: a node that dies mid-sweep leaves the archive to the others after it. */
    static final Duration SWEEP_LEASE_TIME = Duration.ofHours(6);
    /** How soon to look again while another holder sweeps. */
    private static final Duration BUSY_RECHECK = Duration.ofMinutes(5);

    /** The Sweep Interval property of the processors that sweep. */
    static final PropertyDescriptor SWEEP_INTERVAL = new PropertyDescriptor.Builder()
            .name("Sweep Interval")
            .description("Without an incoming connection: the least time between two sweeps of the whole archive,"
                    + " counted from the start of the last one that finished, on whichever node ran it. The processor may"
                    + " run on any schedule: a run before the sweep is due reads nothing, and the archive's lease lets one"
                    + " node and one task sweep at a time. A sweep that failed is due again at once. With CRON driven"
                    + " scheduling, set it a little under the CRON period (20 hours for a daily CRON), so that a run a few"
                    + " seconds early is not skipped. Ignored with an incoming connection.")
            .required(true)
            .defaultValue("1 day")
            .addValidator(StandardValidators.TIME_PERIOD_VALIDATOR)
            .build();

    /** The sweep itself, run while the lease is held. */
    @FunctionalInterface
    interface Sweep {
        void run() throws IOException;
    }

    private final String lease;
    private volatile Instant nextCheck = Instant.MIN;

    /** @param lease the archive's lease of this sweep ({@code sweep-compaction}, {@code sweep-verification}) */
    SweepSchedule(String lease) {
        this.lease = lease;
    }

    /** Forgets when to look next: a new schedule of the processor checks at once. */
    void reset() {
        nextCheck = Instant.MIN;
    }

    /**
     * Runs the sweep when it is due and this task takes the lease.
     *
     * @return whether it ran (successfully or not); false when it was not due or another holder sweeps
     * @throws IOException when the lease cannot be read or the sweep fails; the lease is then released as given up
     */
    boolean runIfDue(PropertyContext context, GeoParquetArchive archive, ComponentLog log, Sweep sweep)
            throws IOException {
        Instant now = archive.clock().instant();
        if (now.isBefore(nextCheck)) {
            return false;
        }
        Duration interval =
                Duration.ofMillis(context.getProperty(SWEEP_INTERVAL).asTimePeriod(TimeUnit.MILLISECONDS));
        ArchiveLease.Attempt attempt = new ArchiveLease(archive.storage(), lease, archive.clock())
                .tryAcquireIfDue(ArchiveLease.holderName(), SWEEP_LEASE_TIME, interval);
        if (attempt.held() == null) {
            // Due, yet not taken: another task or node holds the lease.
            boolean heldElsewhere = !attempt.dueAt().isAfter(now);
            nextCheck = heldElsewhere ? now.plus(BUSY_RECHECK) : attempt.dueAt();
            LeaseRecord latest = attempt.latest();
            log.debug(
                    "{}: {}; next check at {}",
                    lease,
                    heldElsewhere
                            ? "held by another task or node"
                                    + (latest == null
                                            ? ""
                                            : " (" + latest.holder() + " since " + latest.acquiredAt() + ")")
                            : "not due before " + attempt.dueAt(),
                    nextCheck);
            return false;
        }
        try (ArchiveLease.Held held = attempt.held()) {
            sweep.run();
            held.done();
            nextCheck = archive.clock().instant().plus(interval);
        }
        return true;
    }
}
