package dev.nifigeoparquet.archive.format;

import dev.nifigeoparquet.archive.storage.ArchiveStorage;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs one operation on one partition under the commit protocol:
 * <ol>
 *   <li>recover the partition (finish an interrupted publish, delete superseded and stale staged files);</li>
 *   <li>read the latest state; an operation id it already holds makes the operation a no-op (replay);</li>
 *   <li>let the update stage its new files and say which live files it supersedes;</li>
 *   <li>commit version N+1 exclusively; if another writer took N+1, discard the staged files and redo from 2;</li>
 *   <li>publish the new files into the partition directory and delete the superseded ones.</li>
 * </ol>
 * Until step 4 the archive is unchanged; from step 4 the new state is the archive's state, and step 5 is
 * completed by whoever touches the partition next if this process dies.
 */
public final class PartitionCommitter {

    private final ArchiveStorage storage;
    private final ProtocolSettings settings;
    private final Clock clock;
    private final PartitionRecovery recovery;

    public PartitionCommitter(ArchiveStorage storage, ProtocolSettings settings, Clock clock) {
        this.storage = Objects.requireNonNull(storage);
        this.settings = Objects.requireNonNull(settings);
        this.clock = Objects.requireNonNull(clock);
        this.recovery = new PartitionRecovery(storage, settings);
    }

    public CommitOutcome commit(String cell, String operationId, OperationType type, PartitionUpdate update) throws IOException {
        Objects.requireNonNull(operationId, "operationId");
        ReentrantLock lock = PartitionLocks.lockFor(storage.describe(), cell);
        lock.lock();
        try {
            return commitLocked(cell, operationId, type, update);
        } finally {
            lock.unlock();
        }
    }

    private CommitOutcome commitLocked(String cell, String operationId, OperationType type, PartitionUpdate update) throws IOException {
        PartitionLog log = new PartitionLog(storage, cell);
        PartitionCommit current = recovery.recover(cell, clock.instant()).state();
        for (int attempt = 1; ; attempt++) {
            if (current.hasCommitted(operationId)) {
                return new CommitOutcome(current, current, PartitionChange.none(), true, attempt);
            }
            DataFileStager stager = new DataFileStager(storage, cell);
            PartitionCommit next;
            PartitionChange change;
            try {
                change = update.apply(current, stager);
                next = nextCommit(current, operationId, type, change, clock.instant());
                log.commit(next);
            } catch (CommitConflictException conflict) {
                stager.discard();
                if (attempt >= settings.maxCommitAttempts()) {
                    throw new CommitConflictException(cell, conflict.version(),
                            "gave up after " + attempt + " attempts; the partition is being written concurrently");
                }
                backOff(attempt);
                current = recovery.recover(cell, clock.instant()).state();
                continue;
            } catch (IOException | RuntimeException failure) {
                stager.discard();
                throw failure;
            }
            publish(cell);
            return new CommitOutcome(current, next, change, false, attempt);
        }
    }

    /** Publishing is recovery of the state just committed: one code path for normal runs and for crashes. */
    private void publish(String cell) throws IOException {
        try {
            recovery.recover(cell, clock.instant());
        } catch (IOException e) {
            throw new PublishIncompleteException(cell, e);
        }
    }

    private PartitionCommit nextCommit(PartitionCommit current, String operationId, OperationType type,
                                       PartitionChange change, Instant now) {
        Set<String> removed = new HashSet<>(change.removed());
        if (!current.fileNames().containsAll(removed)) {
            List<String> unknown = new ArrayList<>(removed);
            unknown.removeAll(current.fileNames());
            throw new IllegalArgumentException("Partition " + current.cell() + " has no live files " + unknown + " to remove");
        }
        // New files take the place of the first file they supersede, so rows keep their order across the
        // partition's files; with nothing superseded they follow the existing files.
        List<DataFileEntry> newEntries = new ArrayList<>();
        List<String> addedNames = new ArrayList<>();
        for (NewDataFile added : change.added()) {
            newEntries.add(new DataFileEntry(added.name(), added.rows(), added.bytes(), now));
            addedNames.add(added.name());
        }
        List<DataFileEntry> files = new ArrayList<>();
        boolean placed = false;
        for (DataFileEntry file : current.files()) {
            if (!removed.contains(file.name())) {
                files.add(file);
            } else if (!placed) {
                files.addAll(newEntries);
                placed = true;
            }
        }
        if (!placed) {
            files.addAll(newEntries);
        }
        return current.next(operationId, type, now, files, addedNames, change.removed(), settings.operationIdRetention());
    }

    private static void backOff(int attempt) {
        long maxMillis = Math.min(1000, 10L << Math.min(attempt, 6));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, maxMillis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The operation is committed, but publishing its files or deleting superseded ones failed. The archive's state
     * is the new one; the next operation on the partition, or a retry of this one (a no-op replay), completes it.
     */
    public static final class PublishIncompleteException extends IOException {
        public PublishIncompleteException(String cell, IOException cause) {
            super("Partition " + cell + " was committed but publishing its files did not complete ("
                    + cause.getMessage() + "); the next operation on the partition completes it", cause);
        }
    }
}
