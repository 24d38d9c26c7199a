package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import dev.nifigeoparquet.archive.error.LeaseUnavailableException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.LeaseRecord;
import dev.nifigeoparquet.archive.format.LeaseRecordParser;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A lease in the archive (docs/archive-format.md, section 5.12): whole-archive work that must not run twice at once,
 * in one process or across the nodes of a cluster, takes it first. Adoption takes {@code adoption}; the compaction and
 * verification sweeps take {@code sweep-compaction} and {@code sweep-verification}. The lease is a log of records
 * created exclusively, the storage's one atomic primitive, so of two processes taking it at once exactly one succeeds,
 * on a local file system and on S3 alike. A holder that dies leaves a record that lapses at its {@code expiresAt}; a
 * live holder renews it before then.
 */
public final class ArchiveLease {

    /** Records kept after each new one: enough for an operator to see the last holders. */
    static final int RECORDS_KEPT = 10;

    private static final int READ_ATTEMPTS = 5;

    private final ArchiveStorage storage;
    private final String name;
    private final Clock clock;

    public ArchiveLease(ArchiveStorage storage, String name, Clock clock) {
        ArchiveLayout.leaseDirectory(name);
        this.storage = storage;
        this.name = name;
        this.clock = clock;
    }

    /** A holder's name: this process and host, and a random part that tells two takers in one process apart. */
    public static String holderName() {
        return ManagementFactory.getRuntimeMXBean().getName() + "/"
                + UUID.randomUUID().toString().substring(0, 8);
    }

    /** The lease's newest record; empty when it was never taken. */
    public Optional<LeaseRecord> latest() throws IOException {
        for (int attempt = 1; ; attempt++) {
            long newest = -1;
            for (StoredObject object : storage.list(ArchiveLayout.leaseDirectory(name))) {
                newest = Math.max(newest, ArchiveLayout.versionOfRecordName(object.name()));
            }
            if (newest < 1) {
                return Optional.empty();
            }
            String path = ArchiveLayout.leaseRecord(name, newest);
            try {
                LeaseRecord record =
                        LeaseRecordParser.fromJson(storage.readAllBytes(path), storage.describe() + "/" + path);
                if (!record.lease().equals(name) || record.version() != newest) {
                    throw new ArchiveFormatException(
                            storage.describe() + "/" + path,
                            "the record names lease '" + record.lease() + "' version " + record.version());
                }
                return Optional.of(record);
            } catch (NoSuchFileException pruned) {
                if (attempt == READ_ATTEMPTS) {
                    throw pruned;
                }
            }
        }
    }

    /**
     * Takes the lease for {@code duration} unless someone holds it now.
     *
     * @return the lease taken; empty when another holder has it, or took it an instant earlier ({@link #latest} says who)
     */
    public Optional<Held> tryAcquire(String holder, Duration duration) throws IOException {
        Optional<LeaseRecord> latest = latest();
        Instant now = clock.instant();
        if (latest.isPresent() && latest.get().heldAt(now)) {
            return Optional.empty();
        }
        long version = latest.map(LeaseRecord::version).orElse(0L) + 1;
        LeaseRecord taken = new LeaseRecord(name, version, holder, LeaseRecord.State.HELD, now, now.plus(duration));
        if (!create(taken)) {
            return Optional.empty();
        }
        return Optional.of(new Held(taken));
    }

    /**
     * Takes the lease, or says who holds it.
     *
     * @throws LeaseUnavailableException when another holder has it
     */
    public Held acquire(String holder, Duration duration, String work) throws IOException {
        Optional<Held> held = tryAcquire(holder, duration);
        if (held.isPresent()) {
            return held.get();
        }
        throw new LeaseUnavailableException(storage.describe() + ": " + work + " is under way elsewhere"
                + latest().map(record -> " (" + record.holder() + ", since " + record.acquiredAt() + ", until "
                                + record.expiresAt() + ")")
                        .orElse("")
                + "; try again once it is done");
    }

    /**
     * What {@link #tryAcquireIfDue} found.
     *
     * @param held    the lease taken; null when the work is not due or another holder has the lease
     * @param latest  the lease's newest record before the attempt; null when it was never taken
     * @param dueAt   when the work is due next, going by the last time it was done
     */
    public record Attempt(Held held, LeaseRecord latest, Instant dueAt) {}

    /**
     * Takes the lease for work done once per {@code interval} across every process (a sweep): only when nobody holds it
     * and the last holder to finish its work took the lease at least {@code interval} ago. Work given up is due at once.
     */
    public Attempt tryAcquireIfDue(String holder, Duration duration, Duration interval) throws IOException {
        Optional<LeaseRecord> latest = latest();
        Instant now = clock.instant();
        Instant dueAt = latest.filter(record -> record.state() == LeaseRecord.State.RELEASED)
                .map(record -> record.acquiredAt().plus(interval))
                .orElse(now);
        if ((latest.isPresent() && latest.get().heldAt(now)) || dueAt.isAfter(now)) {
            return new Attempt(null, latest.orElse(null), dueAt);
        }
        return new Attempt(tryAcquire(holder, duration).orElse(null), latest.orElse(null), dueAt);
    }

    /** Creates a record exclusively; false when another process created that version first. */
    private boolean create(LeaseRecord record) throws IOException {
        try {
            storage.createExclusive(
                    ArchiveLayout.leaseRecord(name, record.version()), LeaseRecordParser.toJson(record));
        } catch (FileAlreadyExistsException taken) {
            return false;
        }
        prune(record.version());
        return true;
    }

    /** Deletes the records more than {@value #RECORDS_KEPT} versions old. */
    private void prune(long newest) throws IOException {
        List<String> old = new ArrayList<>();
        for (StoredObject object : storage.list(ArchiveLayout.leaseDirectory(name))) {
            long version = ArchiveLayout.versionOfRecordName(object.name());
            if (version > 0 && version <= newest - RECORDS_KEPT) {
                old.add(object.path());
            }
        }
        for (String path : old) {
            try {
                storage.delete(path);
            } catch (NoSuchFileException alreadyPruned) {
                // another holder pruned it
            }
        }
    }

    /**
     * The lease as this process holds it: renew it while the work goes on, mark the work {@linkplain #done() done}, and
     * close it when the work ends.
     */
    public final class Held implements AutoCloseable {

        private LeaseRecord record;
        private boolean done;

        private Held(LeaseRecord record) {
            this.record = record;
        }

        /** The record this holder created last. */
        public LeaseRecord record() {
            return record;
        }

        /**
         * Extends the lease to {@code duration} from now.
         *
         * @throws LeaseUnavailableException when the lease lapsed and another holder took it: the work must stop
         */
        public void renew(Duration duration) throws IOException {
            LeaseRecord renewed = new LeaseRecord(
                    name,
                    record.version() + 1,
                    record.holder(),
                    LeaseRecord.State.HELD,
                    record.acquiredAt(),
                    clock.instant().plus(duration));
            if (!create(renewed)) {
                throw new LeaseUnavailableException(storage.describe() + ": lease " + name + " taken by "
                        + latest().map(LeaseRecord::holder).orElse("another holder") + " after " + record.holder()
                        + " let it lapse at " + record.expiresAt());
            }
            record = renewed;
        }

        /** Records that the work succeeded: closing then releases the lease as done, not given up. */
        public void done() {
            done = true;
        }

        /**
         * Releases the lease, its work done or given up; nothing to do when another holder took it after it lapsed.
         */
        @Override
        public void close() throws IOException {
            Instant now = clock.instant();
            create(new LeaseRecord(
                    name,
                    record.version() + 1,
                    record.holder(),
                    done ? LeaseRecord.State.RELEASED : LeaseRecord.State.ABANDONED,
                    record.acquiredAt(),
                    now));
        }
    }
}
