package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.concurrent.Retry;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.error.BatchCreationException;
import dev.nifigeoparquet.archive.error.CommitConflictException;
import dev.nifigeoparquet.archive.error.CommitStateUnknownException;
import dev.nifigeoparquet.archive.error.PartiallyCommittedException;
import dev.nifigeoparquet.archive.error.ParticipantFailedException;
import dev.nifigeoparquet.archive.error.PartitionBusyException;
import dev.nifigeoparquet.archive.error.PublishIncompleteException;
import dev.nifigeoparquet.archive.error.StalePlanException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.CommitEntryParser;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.OperationRecord;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.ProtocolSettings;
import dev.nifigeoparquet.archive.format.RowChanges;
import dev.nifigeoparquet.archive.format.TransactionDecision;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Runs operations under the commit protocol (docs/archive-format.md, section 5).
 *
 * <p>One partition: recover it; read its state (an operation id it already holds makes the operation a replay);
 * let the update stage new files; create version N+1 exclusively (another writer took it: discard and redo);
 * publish. Until the exclusive creation the archive is unchanged; after it, the new state is in effect and
 * publishing is completed by whoever touches the partition next if this process dies.
 *
 * <p>Several partitions at once: the same steps, except that each participant's entry names a transaction, and the
 * transaction takes effect when its decision record is created exclusively as committed. An entry whose transaction
 * is undecided or aborted is not in effect.
 *
 * <p>Two ways in. {@link #commitAll} computes each participant's change on whatever state it finds and redoes it on
 * a newer one after a lost race: right for work that depends on one partition alone (compaction, the key index).
 * {@link #commitPlanned} commits changes planned on known versions of several partitions (keys found in one and
 * written to another): any newer commit of a participant makes the plan stale, and the caller plans again.
 */
public final class PartitionCommitter {

    /**
     * Threads publishing the partitions of a commit: they mostly wait on the storage, so more of them than cores pay;
     * shared by every committer of the JVM, and idle threads end.
     */
    private static final Workers PUBLISHERS = Workers.of(8);

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

    public ProtocolSettings settings() {
        return settings;
    }

    /**
     * One participant of an operation: what it does to one partition.
     *
     * @param rows the row changes to record for each of the operation's ids; null when they are not feature rows
     */
    public record Participant(OperationType type, PartitionUpdate update, RowChanges rows) {

        public Participant(OperationType type, PartitionUpdate update) {
            this(type, update, null);
        }
    }

    public CommitOutcome commit(String cell, String operationId, OperationType type, PartitionUpdate update)
            throws IOException {
        return commitAll(operationId, Map.of(cell, new Participant(type, update)))
                .get(cell);
    }

    /** Commits a change of one partition that records these row changes for the operation. */
    public CommitOutcome commit(
            String cell, String operationId, OperationType type, RowChanges rows, PartitionUpdate update)
            throws IOException {
        return commitAll(operationId, Map.of(cell, new Participant(type, update, rows)))
                .get(cell);
    }

    /**
     * Commits an operation on one or more partitions atomically: every participant's new state takes effect, or
     * none does. Outcomes are keyed by partition; for a replay every outcome says so.
     */
    public Map<String, CommitOutcome> commitAll(String operationId, Map<String, Participant> participants)
            throws IOException {
        return commitAll(List.of(Objects.requireNonNull(operationId, "operationId")), participants);
    }

    /**
     * Commits several operations as one (for example a batch of deltas for one partition): every id is recorded, so
     * each is recognised later on its own. When all were committed already this is a replay; when only some were,
     * {@link PartiallyCommittedException} names them, and the caller leaves them out and tries again.
     */
    @SuppressWarnings("try") // the locks are held for the try block, never used in it
    public Map<String, CommitOutcome> commitAll(List<String> operationIds, Map<String, Participant> participants)
            throws IOException {
        if (operationIds.isEmpty()) {
            throw new IllegalArgumentException("An operation needs an id");
        }
        if (participants.isEmpty()) {
            throw new IllegalArgumentException("An operation needs at least one partition");
        }
        TreeMap<String, Participant> sorted = new TreeMap<>(participants);
        try (Locks ignored = Locks.take(storage, sorted.keySet())) {
            return commitLocked(List.copyOf(operationIds), sorted);
        }
    }

    /** Commits on the state it finds, redoing the work while another writer gets in the way. */
    private Map<String, CommitOutcome> commitLocked(
            List<String> operationIds, SortedMap<String, Participant> participants) throws IOException {
        return Retry.onConflict(CommitConflictException.class, settings.maxCommitAttempts(), "the partition")
                .run(attempt -> commitOnce(operationIds, participants, attempt));
    }

    /**
     * One attempt: recovers and reads every participant, lets each stage its change, creates the entries. A partition
     * busy with another writer's transaction, a file superseded while it was read and a lost race are conflicts.
     */
    private Map<String, CommitOutcome> commitOnce(
            List<String> operationIds, SortedMap<String, Participant> participants, int attempt) throws IOException {
        String operationId = String.join(",", operationIds);
        Map<String, PartitionRecovery.Report> states = new LinkedHashMap<>();
        for (String cell : participants.keySet()) {
            states.put(cell, recovery.recover(cell, clock.instant()));
        }
        Set<String> committed = new TreeSet<>();
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
            states.forEach((cell, report) -> replays.put(
                    cell, new CommitOutcome(report.state(), report.state(), PartitionChange.none(), true, 1)));
            return replays;
        }
        Map<String, DataFileStager> stagers = new LinkedHashMap<>();
        Map<String, PartitionChange> changes = new LinkedHashMap<>();
        try {
            for (Map.Entry<String, Participant> participant : participants.entrySet()) {
                String cell = participant.getKey();
                DataFileStager stager = new DataFileStager(storage, cell);
                stagers.put(cell, stager);
                changes.put(
                        cell,
                        participant.getValue().update().apply(states.get(cell).state(), stager));
            }
        } catch (NoSuchFileException superseded) {
            discardAll(stagers);
            String moved = newerThanRead(states);
            if (moved == null) {
                throw superseded;
            }
            // Another writer (another process: this one holds the partitions' locks) committed a newer state and
            // deleted a file this attempt was reading: a lost race, redone on the new state like a lost commit.
            CommitConflictException lost =
                    new CommitConflictException(moved, -1, "another writer superseded a file while it was read");
            lost.initCause(superseded);
            throw lost;
        } catch (IOException | RuntimeException failure) {
            discardAll(stagers);
            throw failure;
        }
        try {
            DataFileStager.syncTogether(storage, stagers.values());
        } catch (IOException | RuntimeException failure) {
            discardAll(stagers);
            throw failure;
        }
        Instant now = clock.instant();
        String transaction = participants.size() > 1 ? ArchiveLayout.newTransactionId() : null;
        Map<String, CommitOutcome> outcomes = new LinkedHashMap<>();
        participants.forEach((cell, participant) -> {
            PartitionRecovery.Report state = states.get(cell);
            List<OperationRecord> rows =
                    participant.rows() == null ? null : List.of(new OperationRecord(operationIds, participant.rows()));
            PartitionCommit next = nextCommit(
                    state.state(),
                    state.topVersion() + 1,
                    operationIds,
                    participant.type(),
                    changes.get(cell),
                    now,
                    transaction,
                    rows);
            outcomes.put(cell, new CommitOutcome(state.state(), next, changes.get(cell), false, attempt));
        });
        if (!createEntries(operationId, outcomes, stagers, null)) {
            throw new CommitConflictException(
                    participants.firstKey(), -1, "another writer committed first or gave this transaction up");
        }
        publish(outcomes.keySet());
        return outcomes;
    }

    /**
     * A participant of a planned operation.
     *
     * @param cell           the partition
     * @param plannedVersion the committed version the plan read; the commit is refused when the partition moved on
     * @param type           what the commit does to it
     * @param operations     the operations that change it and their row changes in it; every id is recorded for
     *                       replay detection
     * @param update         stages the planned change; called once, with the planned state
     */
    public record Planned(
            String cell,
            long plannedVersion,
            OperationType type,
            List<OperationRecord> operations,
            PartitionUpdate update) {

        public Planned {
            operations = List.copyOf(operations);
        }

        public List<String> operationIds() {
            return operations.stream()
                    .flatMap(operation -> operation.ids().stream())
                    .toList();
        }
    }

    /**
     * A participant whose entry is created after all the others and that may be rebased: when its partition moved on
     * since the plan, it checks whether the newer commits conflict with the operation, and if not, adds its files to the
     * newer state instead of giving the whole transaction up. The key index's journal is one: every operation that
     * changes where keys live writes to it, mostly about different keys.
     */
    public interface LateParticipant {

        /** The partition. */
        String cell();

        /** Its committed state when the operation planned. */
        PartitionCommit planned();

        /** Stages the files this participant adds; called once. */
        List<NewDataFile> stage(DataFileStager stager) throws IOException;

        /** The format version its files need ({@link PartitionChange#formatVersion}). */
        default int formatVersion() {
            return PartitionCommit.FORMAT_VERSION;
        }

        /**
         * Throws {@link StalePlanException} when a commit made after {@code planned} (up to {@code current}) conflicts
         * with the operation.
         */
        void requireNoConflict(PartitionLog log, PartitionCommit planned, PartitionCommit current) throws IOException;
    }

    /**
     * Commits changes planned on known versions, atomically. Every participant must still be at its planned version
     * when its lock is held and it has been recovered, otherwise {@link StalePlanException} is thrown before anything
     * is staged. Participants are staged on {@code workers} in parallel, in the order given (put the largest first: the
     * threads then end together), the late participant's files first among them; then their entries are created, then
     * the late participant's (rebased over commits that do not conflict), then the decision. Any failure before the
     * decision leaves the archive unchanged; a lost race or a conflict surfaces as {@link StalePlanException} for the
     * caller to plan again. A participant's staging failure is thrown as {@link ParticipantFailedException}, naming it.
     *
     * @param late null when no participant is late
     * @return the outcome of each participant, the late one included
     */
    @SuppressWarnings("try") // the locks are held for the try block, never used in it
    public Map<String, CommitOutcome> commitPlanned(List<Planned> participants, LateParticipant late, Workers workers)
            throws IOException {
        if (participants.isEmpty() && late == null) {
            throw new IllegalArgumentException("An operation needs at least one partition");
        }
        // By partition: sorted to take the locks, and in the caller's order (the largest first, so the staging threads
        // finish together); a partition given twice keeps its last plan in both.
        Map<String, Planned> inCallerOrder = new LinkedHashMap<>();
        participants.forEach(participant -> inCallerOrder.put(participant.cell(), participant));
        TreeMap<String, Planned> sorted = new TreeMap<>(inCallerOrder);
        try (Locks ignored = Locks.take(storage, sorted.keySet())) {
            // Recovering reads each partition's log and staging directory: it waits on the storage, so the partitions
            // are recovered side by side, on the publishing threads.
            List<Planned> lockOrder = List.copyOf(sorted.values());
            List<PartitionRecovery.Report> reports =
                    Workers.valuesOf(PUBLISHERS.map(lockOrder, participant -> recoverWhenFree(participant.cell())));
            Map<String, PartitionRecovery.Report> states = new LinkedHashMap<>();
            for (int i = 0; i < lockOrder.size(); i++) {
                Planned participant = lockOrder.get(i);
                PartitionRecovery.Report report = reports.get(i);
                if (report.state().version() != participant.plannedVersion()) {
                    throw new StalePlanException(
                            participant.cell(),
                            "planned on version " + participant.plannedVersion() + ", now at "
                                    + report.state().version());
                }
                states.put(participant.cell(), report);
            }
            Map<String, DataFileStager> stagers = new LinkedHashMap<>();
            sorted.keySet().forEach(cell -> stagers.put(cell, new DataFileStager(storage, cell)));
            DataFileStager lateStager = late == null ? null : new DataFileStager(storage, late.cell());
            Map<String, CommitOutcome> committed;
            try {
                // The late participant's files are staged on the workers too, first: they depend on none of the
                // others, and for an append of many new keys the key index's journal takes as long as a mid-sized
                // rewrite, so it belongs with the large ones rather than after them all.
                List<String> stagingOrder = new ArrayList<>();
                if (late != null) {
                    stagingOrder.add(late.cell());
                }
                stagingOrder.addAll(inCallerOrder.keySet());
                List<Workers.Outcome<PartitionChange>> staged = workers.map(stagingOrder, cell -> {
                    if (late != null && cell.equals(late.cell())) {
                        return new PartitionChange(late.stage(lateStager), List.of(), late.formatVersion());
                    }
                    return inCallerOrder
                            .get(cell)
                            .update()
                            .apply(states.get(cell).state(), stagers.get(cell));
                });
                Map<String, Workers.Outcome<PartitionChange>> stagedByCell = new HashMap<>();
                for (int i = 0; i < stagingOrder.size(); i++) {
                    stagedByCell.put(stagingOrder.get(i), staged.get(i));
                }
                Map<String, PartitionChange> changes = new LinkedHashMap<>();
                for (Planned participant : sorted.values()) {
                    Workers.Outcome<PartitionChange> outcome = stagedByCell.get(participant.cell());
                    if (outcome.failed()) {
                        throw new ParticipantFailedException(participant.cell(), outcome.failure());
                    }
                    changes.put(participant.cell(), outcome.value());
                }
                List<NewDataFile> lateFiles = late == null
                        ? List.of()
                        : Workers.valuesOf(List.of(stagedByCell.get(late.cell())))
                                .get(0)
                                .added();
                // Every file of the transaction becomes durable at once, before any entry names one.
                List<DataFileStager> toSync = new ArrayList<>(stagers.values());
                toSync.add(lateStager);
                DataFileStager.syncTogether(storage, toSync);
                Instant now = clock.instant();
                String transaction =
                        sorted.size() + (late == null ? 0 : 1) > 1 ? ArchiveLayout.newTransactionId() : null;
                Map<String, CommitOutcome> outcomes = new LinkedHashMap<>();
                Set<String> allIds = new LinkedHashSet<>();
                for (Planned participant : sorted.values()) {
                    PartitionRecovery.Report state = states.get(participant.cell());
                    PartitionCommit next = nextCommit(
                            state.state(),
                            state.topVersion() + 1,
                            participant.operationIds(),
                            participant.type(),
                            changes.get(participant.cell()),
                            now,
                            transaction,
                            participant.operations());
                    outcomes.put(
                            participant.cell(),
                            new CommitOutcome(state.state(), next, changes.get(participant.cell()), false, 1));
                    allIds.addAll(participant.operationIds());
                }
                Map<String, DataFileStager> allStagers = new LinkedHashMap<>(stagers);
                if (late != null) {
                    allStagers.put(late.cell(), lateStager);
                }
                LateCommit lateCommit =
                        late == null ? null : new LateCommit(late, lateFiles, List.copyOf(allIds), transaction);
                if (!createEntries(String.join(",", allIds), outcomes, allStagers, lateCommit)) {
                    throw new StalePlanException(
                            sorted.isEmpty() ? late.cell() : sorted.firstKey(),
                            "another writer committed first or gave this transaction up");
                }
                committed = outcomes;
            } catch (CommitStateUnknownException unknown) {
                throw unknown; // the decision may exist: nothing may be discarded
            } catch (IOException | RuntimeException failure) {
                discardAll(stagers);
                if (lateStager != null) {
                    lateStager.discard();
                }
                throw failure;
            }
            // Committed: from here on a failure leaves publishing to the next writer, and no staged file may be
            // discarded.
            publish(committed.keySet());
            return committed;
        }
    }

    /** The late participant of a planned commit, and what it adds. */
    private record LateCommit(
            LateParticipant participant, List<NewDataFile> files, List<String> operationIds, String transaction) {}

    /** Recovers a partition, waiting while another writer's transaction holds it (bounded; then it is a conflict). */
    private PartitionRecovery.Report recoverWhenFree(String cell) throws IOException {
        return recoverWhenFree(cell, Set.of());
    }

    private PartitionRecovery.Report recoverWhenFree(String cell, Set<String> ownStaged) throws IOException {
        return Retry.onConflict(PartitionBusyException.class, settings.maxCommitAttempts(), "the partition")
                .run(attempt -> recovery.recover(cell, clock.instant(), ownStaged));
    }

    /** A participant whose log has an entry above the state this attempt read; null when none has. */
    private String newerThanRead(Map<String, PartitionRecovery.Report> states) throws IOException {
        for (Map.Entry<String, PartitionRecovery.Report> read : states.entrySet()) {
            if (new PartitionLog(storage, read.getKey()).latestVersion()
                    > read.getValue().topVersion()) {
                return read.getKey();
            }
        }
        return null;
    }

    private static void discardAll(Map<String, DataFileStager> stagers) {
        stagers.values().forEach(DataFileStager::discard);
    }

    /**
     * Creates the entries, the late participant's (rebased as needed) and, for several partitions, the decision. True
     * when the operation took effect; false after a definite loss (another writer's version, or the transaction given
     * up), when this attempt's staged files have been discarded. A failure to create the decision propagates as
     * {@link CommitStateUnknownException} without discarding: the commit may have happened.
     */
    private boolean createEntries(
            String operationId,
            Map<String, CommitOutcome> outcomes,
            Map<String, DataFileStager> stagers,
            LateCommit late)
            throws IOException {
        String transaction = late != null
                ? late.transaction()
                : outcomes.values().iterator().next().after().transaction();
        List<String> written = new ArrayList<>();
        try {
            if (transaction == null) {
                Map.Entry<String, CommitOutcome> entry =
                        outcomes.entrySet().iterator().next();
                try {
                    new PartitionLog(storage, entry.getKey())
                            .commit(entry.getValue().after());
                } catch (CommitConflictException lost) {
                    throw lost;
                } catch (IOException unknown) {
                    throw new CommitStateUnknownException(
                            "Creating commit " + entry.getValue().after().version() + " of partition " + entry.getKey(),
                            unknown);
                }
                return true;
            }
            createParticipantEntries(outcomes, written);
            if (late != null) {
                outcomes.put(late.participant().cell(), commitLate(late));
                written.add(late.participant().cell());
            }
        } catch (CommitConflictException conflict) {
            if (!written.isEmpty() && !abort(transaction, operationId, written)) {
                return true; // decided committed by this writer earlier: cannot happen, but the decision stands
            }
            discardAll(stagers);
            if (conflict instanceof StalePlanException stale) {
                throw stale;
            }
            return false;
        } catch (IOException | RuntimeException failure) {
            if (!written.isEmpty()) {
                abortQuietly(transaction, operationId, written);
            }
            throw failure;
        }
        TransactionDecision decision;
        try {
            decision = TransactionRecords.decide(
                    storage, transaction, operationId, TransactionDecision.Outcome.COMMITTED, clock.instant(), written);
        } catch (IOException unknown) {
            throw new CommitStateUnknownException("Deciding transaction " + transaction, unknown);
        }
        if (decision.outcome() == TransactionDecision.Outcome.COMMITTED) {
            return true;
        }
        discardAll(stagers);
        return false;
    }

    /**
     * Creates the entries of a transaction's participants, in partition order and durable together; the partitions
     * whose entries were created are added to {@code written}, also when a later one fails.
     *
     * @throws CommitConflictException when another writer created one of the versions first
     */
    private void createParticipantEntries(Map<String, CommitOutcome> outcomes, List<String> written)
            throws IOException {
        List<String> cells = new ArrayList<>(outcomes.keySet());
        List<String> paths = new ArrayList<>();
        List<byte[]> contents = new ArrayList<>();
        for (String cell : cells) {
            PartitionCommit entry = outcomes.get(cell).after();
            paths.add(ArchiveLayout.logEntry(cell, entry.version()));
            contents.add(CommitEntryParser.toJson(entry));
        }
        try {
            storage.createExclusiveAll(paths, contents);
            written.addAll(cells);
        } catch (BatchCreationException stopped) {
            written.addAll(cells.subList(0, stopped.created()));
            if (stopped.getCause() instanceof FileAlreadyExistsException taken) {
                String cell = cells.get(stopped.created());
                throw new CommitConflictException(
                        cell, outcomes.get(cell).after().version(), taken.getMessage());
            }
            throw stopped.getCause();
        }
    }

    /**
     * Creates the late participant's entry on its partition's current state: waits while another transaction holds it,
     * lets the participant refuse commits made since its plan, and rebases over the others.
     */
    @SuppressWarnings("try") // the locks are held for the try block, never used in it
    private CommitOutcome commitLate(LateCommit late) throws IOException {
        String cell = late.participant().cell();
        PartitionLog log = new PartitionLog(storage, cell);
        Set<String> ownStaged = new HashSet<>();
        late.files().forEach(file -> ownStaged.add(file.name()));
        try (Locks ignored = Locks.take(storage, List.of(cell))) {
            // A partition busy with another transaction and a lost race are waited out; a conflicting commit is final.
            return Retry.onConflict(CommitConflictException.class, settings.maxCommitAttempts(), "the partition")
                    .except(StalePlanException.class)
                    .run(attempt -> {
                        PartitionRecovery.Report report = recovery.recover(cell, clock.instant(), ownStaged);
                        late.participant()
                                .requireNoConflict(log, late.participant().planned(), report.state());
                        PartitionChange change = new PartitionChange(
                                late.files(), List.of(), late.participant().formatVersion());
                        PartitionCommit next = nextCommit(
                                report.state(),
                                report.topVersion() + 1,
                                late.operationIds(),
                                OperationType.INDEX,
                                change,
                                clock.instant(),
                                late.transaction(),
                                null);
                        log.commit(next);
                        return new CommitOutcome(report.state(), next, change, false, attempt);
                    });
        }
    }

    /** Gives the transaction up; false when it was decided committed already. */
    private boolean abort(String transaction, String operationId, List<String> written) throws IOException {
        return TransactionRecords.decide(
                                storage,
                                transaction,
                                operationId,
                                TransactionDecision.Outcome.ABORTED,
                                clock.instant(),
                                written)
                        .outcome()
                == TransactionDecision.Outcome.ABORTED;
    }

    /**
     * Finishes the publishing of each partition's latest commit, as the partition's next writer would (format section
     * 5.6): a writer that stopped between its commit and the end of its publishing leaves it undone. Waits while
     * another writer's transaction holds a partition (bounded; then it is a conflict). Returns the partitions where
     * anything was published or superseded files deleted.
     */
    public Set<String> finishPublishing(Collection<String> cells) throws IOException {
        Set<String> finished = new TreeSet<>();
        for (String cell : cells) {
            PartitionRecovery.Report report = recoverWhenFree(cell);
            if (report.published() + report.supersededDeleted() > 0) {
                finished.add(cell);
            }
        }
        return finished;
    }

    /** Gives the transaction up if the storage lets us; otherwise other writers do once it times out. */
    private void abortQuietly(String transaction, String operationId, List<String> written) {
        try {
            abort(transaction, operationId, written);
        } catch (IOException | RuntimeException ignored) {
            // Its entries stay undecided until another writer aborts them after the transaction timeout.
        }
    }

    /**
     * Publishing is recovery of the state just committed: one code path for normal runs and for crashes. The partitions
     * are published at once, each on its own thread: publishing is mostly waiting for the storage (links, and forcing
     * the new names to disk), which many partitions can do together.
     */
    private void publish(Set<String> cells) throws IOException {
        List<String> ordered = List.copyOf(cells);
        List<Workers.Outcome<Void>> outcomes = PUBLISHERS.map(ordered, cell -> {
            try {
                recovery.recover(cell, clock.instant());
            } catch (PartitionBusyException nextWriterHoldsIt) {
                // Another writer's transaction already tops the log, on top of this commit: publishing is recovery,
                // so that writer publishes this state with its own (or recovery does once its lease ends). This
                // operation is committed; failing it would only send the caller to retry what is done.
            }
            return null;
        });
        IOException first = null;
        for (int i = 0; i < ordered.size(); i++) {
            Exception failure = outcomes.get(i).failure();
            if (failure instanceof IOException e) {
                first = first == null ? new PublishIncompleteException(ordered.get(i), e) : first;
            } else if (failure instanceof RuntimeException e) {
                throw e;
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private PartitionCommit nextCommit(
            PartitionCommit current,
            long version,
            List<String> operationIds,
            OperationType type,
            PartitionChange change,
            Instant now,
            String transaction,
            List<OperationRecord> rows) {
        Set<String> removed = new HashSet<>(change.removed());
        if (!current.fileNames().containsAll(removed)) {
            List<String> unknown = new ArrayList<>(removed);
            unknown.removeAll(current.fileNames());
            throw new IllegalArgumentException(
                    "Partition " + current.cell() + " has no live files " + unknown + " to remove");
        }
        // A replacement takes the name and place of the file it supersedes; other new files take the place of the first
        // superseded file (after the replacements, if any), so rows keep their order across the partition's files, and
        // follow the existing files when nothing is superseded.
        Map<String, DataFileEntry> replacements = new LinkedHashMap<>();
        List<DataFileEntry> others = new ArrayList<>();
        List<String> addedNames = new ArrayList<>();
        for (NewDataFile added : change.added()) {
            if (added.replaces() != null) {
                if (!removed.contains(added.replaces()) || replacements.containsKey(added.replaces())) {
                    throw new IllegalArgumentException("Partition " + current.cell() + ": " + added.name()
                            + " replaces " + added.replaces() + ", which the change does not supersede exactly once");
                }
                replacements.put(
                        added.replaces(),
                        new DataFileEntry(added.replaces(), added.rows(), added.bytes(), now, added.name()));
            } else {
                others.add(new DataFileEntry(added.name(), added.rows(), added.bytes(), now));
            }
            addedNames.add(added.publishedName());
        }
        List<DataFileEntry> files = new ArrayList<>();
        int firstRemoved = -1;
        int afterReplacements = -1;
        for (DataFileEntry file : current.files()) {
            DataFileEntry replacement = replacements.get(file.name());
            if (replacement != null) {
                files.add(replacement);
                afterReplacements = files.size();
            } else if (removed.contains(file.name())) {
                firstRemoved = firstRemoved < 0 ? files.size() : firstRemoved;
            } else {
                files.add(file);
            }
        }
        files.addAll(
                afterReplacements >= 0 ? afterReplacements : firstRemoved >= 0 ? firstRemoved : files.size(), others);
        List<String> gone = change.removed().stream()
                .filter(name -> !replacements.containsKey(name))
                .toList();
        return current.next(
                version,
                operationIds,
                type,
                now,
                files,
                addedNames,
                gone,
                settings.operationIdRetention(),
                transaction,
                rows,
                change.formatVersion());
    }

    /** The in-process locks of some partitions, taken in name order so two writers cannot deadlock. */
    private static final class Locks implements AutoCloseable {
        private final List<ReentrantLock> held = new ArrayList<>();

        static Locks take(ArchiveStorage storage, Collection<String> cells) throws InterruptedIOException {
            Locks locks = new Locks();
            try {
                for (String cell : new TreeSet<>(cells)) {
                    ReentrantLock lock = PartitionLocks.lockFor(storage.describe(), cell);
                    lock.lockInterruptibly();
                    locks.held.add(lock);
                }
            } catch (InterruptedException e) {
                locks.close();
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("Interrupted while waiting for partitions " + cells);
            }
            return locks;
        }

        @Override
        public void close() {
            for (int i = held.size() - 1; i >= 0; i--) {
                held.get(i).unlock();
            }
            held.clear();
        }
    }
}
