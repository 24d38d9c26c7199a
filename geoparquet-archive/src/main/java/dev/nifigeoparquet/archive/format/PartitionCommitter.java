package dev.nifigeoparquet.archive.format;

import dev.nifigeoparquet.archive.format.PartitionRecovery.PartitionBusyException;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs operations under the commit protocol (docs/archive-format.md, section 5).
 *
 * <p>One partition: recover it; read its state (an operation id it already holds makes the operation a replay);
 * let the update stage new files; create version N+1 exclusively (another writer took it: discard and redo);
 * publish. Until the exclusive creation the archive is unchanged; after it, the new state is in effect and
 * publishing is completed by whoever touches the partition next if this process dies.
 *
 * <p>Several partitions at once (a key moving between cells, and the key index): the same steps, except that
 * each participant's entry names a transaction, and the transaction takes effect when its decision record is
 * created exclusively as committed. An entry whose transaction is undecided or aborted is not in effect.
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

    /** One participant of an operation: what it does to one partition. */
    public record Participant(OperationType type, PartitionUpdate update) {
    }

    public CommitOutcome commit(String cell, String operationId, OperationType type, PartitionUpdate update) throws IOException {
        return commitAll(operationId, Map.of(cell, new Participant(type, update))).get(cell);
    }

    /**
     * Commits an operation on one or more partitions atomically: every participant's new state takes effect, or
     * none does. Outcomes are keyed by partition; for a replay every outcome says so.
     */
    public Map<String, CommitOutcome> commitAll(String operationId, Map<String, Participant> participants) throws IOException {
        return commitAll(List.of(Objects.requireNonNull(operationId, "operationId")), participants);
    }

    /**
     * Commits several operations as one (for example a batch of deltas for one partition): every id is recorded, so
     * each is recognised later on its own. When all were committed already this is a replay; when only some were,
     * {@link PartiallyCommittedException} names them, and the caller leaves them out and tries again.
     */
    public Map<String, CommitOutcome> commitAll(List<String> operationIds, Map<String, Participant> participants) throws IOException {
        if (operationIds.isEmpty()) {
            throw new IllegalArgumentException("An operation needs an id");
        }
        if (participants.isEmpty()) {
            throw new IllegalArgumentException("An operation needs at least one partition");
        }
        // Sorted, so two writers lock overlapping partitions in the same order and cannot deadlock.
        TreeMap<String, Participant> sorted = new TreeMap<>(participants);
        List<ReentrantLock> locks = new ArrayList<>();
        try {
            for (String cell : sorted.keySet()) {
                ReentrantLock lock = PartitionLocks.lockFor(storage.describe(), cell);
                lock.lock();
                locks.add(lock);
            }
            return commitLocked(List.copyOf(operationIds), sorted);
        } finally {
            locks.forEach(ReentrantLock::unlock);
        }
    }

    private Map<String, CommitOutcome> commitLocked(List<String> operationIds, TreeMap<String, Participant> participants) throws IOException {
        String operationId = String.join(",", operationIds);
        for (int attempt = 1; ; attempt++) {
            Map<String, PartitionRecovery.Report> states = new LinkedHashMap<>();
            try {
                for (String cell : participants.keySet()) {
                    states.put(cell, recovery.recover(cell, clock.instant()));
                }
            } catch (PartitionBusyException busy) {
                retryOrGiveUp(attempt, busy);
                continue;
            }
            Set<String> committed = new java.util.TreeSet<>();
            for (String id : operationIds) {
                if (states.values().stream().anyMatch(report -> report.state().hasCommitted(id))) {
                    committed.add(id);
                }
            }
            if (!committed.isEmpty() && committed.size() < new HashSet<>(operationIds).size()) {
                throw new PartiallyCommittedException(committed);
            }
            if (!committed.isEmpty()) {
                Map<String, CommitOutcome> replays = new LinkedHashMap<>();
                states.forEach((cell, report) -> replays.put(cell,
                        new CommitOutcome(report.state(), report.state(), PartitionChange.none(), true, 1)));
                return replays;
            }
            Map<String, DataFileStager> stagers = new LinkedHashMap<>();
            Map<String, CommitOutcome> outcomes;
            try {
                outcomes = stage(operationIds, participants, states, stagers, attempt);
            } catch (java.nio.file.NoSuchFileException superseded) {
                discardAll(stagers);
                String moved = newerThanRead(states);
                if (moved == null) {
                    throw superseded;
                }
                // Another writer (another process: this one holds the partitions' locks) committed a newer state and
                // deleted a file this attempt was reading: a lost race, redone on the new state like a lost commit.
                retryOrGiveUp(attempt, new CommitConflictException(moved, -1, "another writer superseded a file while it was read"));
                continue;
            } catch (IOException | RuntimeException failure) {
                discardAll(stagers);
                throw failure;
            }
            if (commit(operationId, outcomes, stagers)) {
                publish(outcomes.keySet());
                return outcomes;
            }
            retryOrGiveUp(attempt, new CommitConflictException(participants.firstKey(), -1,
                    "another writer committed first or gave this transaction up"));
        }
    }

    /** A participant whose log has an entry above the state this attempt read; null when none has. */
    private String newerThanRead(Map<String, PartitionRecovery.Report> states) throws IOException {
        for (Map.Entry<String, PartitionRecovery.Report> read : states.entrySet()) {
            if (new PartitionLog(storage, read.getKey()).latestVersion() > read.getValue().topVersion()) {
                return read.getKey();
            }
        }
        return null;
    }

    private static void discardAll(Map<String, DataFileStager> stagers) {
        stagers.values().forEach(DataFileStager::discard);
    }

    /**
     * Lets every participant compute its change on its current state, staging new files; nothing is committed yet.
     */
    private Map<String, CommitOutcome> stage(List<String> operationIds, TreeMap<String, Participant> participants,
                                             Map<String, PartitionRecovery.Report> states,
                                             Map<String, DataFileStager> stagers, int attempt) throws IOException {
        Instant now = clock.instant();
        String transaction = participants.size() > 1 ? ArchiveLayout.newTransactionId() : null;
        Map<String, CommitOutcome> outcomes = new LinkedHashMap<>();
        for (Map.Entry<String, Participant> participant : participants.entrySet()) {
            String cell = participant.getKey();
            PartitionRecovery.Report state = states.get(cell);
            DataFileStager stager = new DataFileStager(storage, cell);
            stagers.put(cell, stager);
            PartitionChange change = participant.getValue().update().apply(state.state(), stager);
            PartitionCommit next = nextCommit(state.state(), state.topVersion() + 1, operationIds, participant.getValue().type(),
                    change, now, transaction);
            outcomes.put(cell, new CommitOutcome(state.state(), next, change, false, attempt));
        }
        return outcomes;
    }

    /**
     * Creates the entries (and, for several partitions, the decision). True when the operation took effect; false
     * after a definite loss (another writer's version, or the transaction given up), when this attempt's staged
     * files have been discarded and the operation is redone. Any other failure propagates without discarding:
     * the commit may have happened, and recovery removes the files later if it did not.
     */
    private boolean commit(String operationId, Map<String, CommitOutcome> outcomes, Map<String, DataFileStager> stagers) throws IOException {
        String transaction = outcomes.values().iterator().next().after().transaction();
        List<String> written = new ArrayList<>();
        try {
            for (Map.Entry<String, CommitOutcome> entry : outcomes.entrySet()) {
                new PartitionLog(storage, entry.getKey()).commit(entry.getValue().after());
                written.add(entry.getKey());
            }
        } catch (CommitConflictException conflict) {
            if (transaction != null && !written.isEmpty()) {
                TransactionDecision standing = TransactionRecords.decide(storage, transaction, operationId,
                        TransactionDecision.Outcome.ABORTED, clock.instant(), written);
                if (standing.outcome() != TransactionDecision.Outcome.ABORTED) {
                    return true;
                }
            }
            discardAll(stagers);
            return false;
        }
        if (transaction == null) {
            return true;
        }
        TransactionDecision decision = TransactionRecords.decide(storage, transaction, operationId,
                TransactionDecision.Outcome.COMMITTED, clock.instant(), List.copyOf(outcomes.keySet()));
        if (decision.outcome() == TransactionDecision.Outcome.COMMITTED) {
            return true;
        }
        discardAll(stagers);
        return false;
    }

    private void retryOrGiveUp(int attempt, CommitConflictException conflict) throws CommitConflictException {
        if (attempt >= settings.maxCommitAttempts()) {
            throw new CommitConflictException(conflict.getMessage() + "; gave up after " + attempt
                    + " attempts, the partition is being written concurrently", conflict.cell(), conflict.version());
        }
        long maxMillis = Math.min(1000, 10L << Math.min(attempt, 6));
        try {
            Thread.sleep(ThreadLocalRandom.current().nextLong(1, maxMillis + 1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Publishing is recovery of the state just committed: one code path for normal runs and for crashes. */
    private void publish(Set<String> cells) throws IOException {
        IOException first = null;
        for (String cell : cells) {
            try {
                recovery.recover(cell, clock.instant());
            } catch (PartitionRecovery.PartitionBusyException nextWriterHoldsIt) {
                // Another writer's transaction already tops the log, on top of this commit: publishing is recovery,
                // so that writer publishes this state with its own (or recovery does once its lease ends). This
                // operation is committed; failing it would only send the caller to retry what is done.
            } catch (IOException e) {
                first = first == null ? new PublishIncompleteException(cell, e) : first;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private PartitionCommit nextCommit(PartitionCommit current, long version, List<String> operationIds, OperationType type,
                                       PartitionChange change, Instant now, String transaction) {
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
        return current.next(version, operationIds, type, now, files, addedNames, change.removed(),
                settings.operationIdRetention(), transaction);
    }

    /** Some of a batch's operation ids were committed already; the caller drops those operations and retries. */
    public static final class PartiallyCommittedException extends IOException {
        private final Set<String> committed;

        public PartiallyCommittedException(Set<String> committed) {
            super("Operations " + committed + " of this batch were committed already");
            this.committed = Set.copyOf(committed);
        }

        public Set<String> committed() {
            return committed;
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
