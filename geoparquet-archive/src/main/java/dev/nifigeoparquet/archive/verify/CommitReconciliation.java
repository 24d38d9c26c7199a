package dev.nifigeoparquet.archive.verify;

import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.commit.TransactionRecords;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.OperationRecord;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.TransactionDecision;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * Reconciles row counts from the commit records: each commit entry's recorded row changes explain its row count, each
 * entry follows from the one before, and an operation's entries add up to the net change it reported.
 */
final class CommitReconciliation {

    private final ArchiveStorage storage;

    CommitReconciliation(ArchiveStorage storage) {
        this.storage = storage;
    }

    /** A commit entry whose recorded operations do not explain its row count. */
    void checkEntry(PartitionCommit entry, Findings findings) {
        if (!entry.rowChangesReconcile()) {
            findings.problem(new Problem(
                    ArchiveLayout.logEntry(entry.cell(), entry.version()),
                    ProblemKind.COUNTS_DO_NOT_RECONCILE,
                    "commit " + entry.version() + " of partition " + entry.cell() + " starts from " + entry.rowsBefore()
                            + " rows and records operations " + entry.operations() + ", but holds " + entry.rowCount()
                            + " rows",
                    null));
        }
    }

    /**
     * Checks an operation against its commit entries and the partitions' logs since, up to {@code latest} (the states
     * the verification read).
     */
    void checkOperation(CommittedOperation operation, Map<String, PartitionCommit> latest, Findings findings)
            throws IOException {
        long net = 0;
        boolean complete = true;
        for (Map.Entry<String, Long> commit : operation.commits().entrySet()) {
            String cell = commit.getKey();
            PartitionLog log = new PartitionLog(storage, cell);
            PartitionCommit entry;
            try {
                entry = log.read(commit.getValue());
            } catch (NoSuchFileException pruned) {
                // Older entries are pruned after the log's retention: the entries kept since are checked instead,
                // from the oldest, and the operation's own net change cannot be.
                findings.problemOrVariation(
                        new Problem(
                                ArchiveLayout.logEntry(cell, commit.getValue()),
                                ProblemKind.COUNTS_DO_NOT_RECONCILE,
                                "commit " + commit.getValue() + " of partition " + cell + " has been pruned; operation "
                                        + operation.operationId() + " is reconciled from the entries still kept",
                                null),
                        true);
                complete = false;
                PartitionCommit current = latest.get(cell);
                PartitionCommit oldestKept = current == null ? null : oldestKeptAfter(log, commit.getValue(), current);
                if (oldestKept != null) {
                    checkEntry(oldestKept, findings);
                    checkChain(log, oldestKept, current, findings);
                }
                continue;
            }
            OperationRecord record = entry.operations().stream()
                    .filter(r -> r.ids().contains(operation.operationId()))
                    .findFirst()
                    .orElse(null);
            if (record == null || record.rows() == null) {
                findings.problem(new Problem(
                        ArchiveLayout.logEntry(cell, entry.version()),
                        ProblemKind.COUNTS_DO_NOT_RECONCILE,
                        "commit " + entry.version() + " of partition " + cell
                                + " does not record the row changes of operation " + operation.operationId(),
                        null));
                complete = false;
                continue;
            }
            net += record.rows().net();
            checkEntry(entry, findings);
            PartitionCommit current = latest.get(cell);
            if (current != null) {
                checkChain(log, entry, current, findings);
            }
        }
        if (complete && net != operation.netRows()) {
            findings.problem(new Problem(
                    storage.describe(),
                    ProblemKind.COUNTS_DO_NOT_RECONCILE,
                    "the commits of operation "
                            + operation.operationId() + " " + operation.commits() + " change the row count by " + net
                            + ", the operation reported "
                            + operation.netRows(),
                    null));
        }
    }

    /** The oldest entry in effect above {@code pruned}, up to {@code latest}; null when none is kept. */
    private PartitionCommit oldestKeptAfter(PartitionLog log, long pruned, PartitionCommit latest) throws IOException {
        List<Long> kept = new ArrayList<>();
        for (StoredObject object : storage.list(ArchiveLayout.logDirectory(log.cell()))) {
            long version = ArchiveLayout.logEntryVersion(object.name());
            if (version > pruned && version <= latest.version()) {
                kept.add(version);
            }
        }
        Collections.sort(kept);
        for (long version : kept) {
            try {
                PartitionCommit entry = log.read(version);
                if (inEffect(entry)) {
                    return entry;
                }
            } catch (NoSuchFileException prunedSince) {
                // pruned after the listing: the next one kept is the oldest
            }
        }
        return null;
    }

    /**
     * Every entry in effect after {@code from}, up to {@code to}, explains its row count and starts from the count the
     * one before left. An entry a writer prunes meanwhile breaks the chain there: the link across it is not checked, the
     * entries after it are.
     */
    private void checkChain(PartitionLog log, PartitionCommit from, PartitionCommit to, Findings findings)
            throws IOException {
        PartitionCommit previous = from;
        for (long version = from.version() + 1; version <= to.version(); version++) {
            PartitionCommit entry;
            try {
                entry = log.read(version);
            } catch (NoSuchFileException pruned) {
                previous = null;
                continue;
            }
            if (!inEffect(entry)) {
                continue;
            }
            checkEntry(entry, findings);
            if (previous != null && entry.rowsBefore() != null && entry.rowsBefore() != previous.rowCount()) {
                findings.problem(new Problem(
                        ArchiveLayout.logEntry(entry.cell(), version),
                        ProblemKind.COUNTS_DO_NOT_RECONCILE,
                        "commit " + version + " of partition " + entry.cell() + " starts from " + entry.rowsBefore()
                                + " rows, but commit " + previous.version() + " left " + previous.rowCount(),
                        null));
            }
            previous = entry;
        }
    }

    private boolean inEffect(PartitionCommit entry) throws IOException {
        if (entry.transaction() == null) {
            return true;
        }
        TransactionDecision decision = TransactionRecords.read(storage, entry.transaction());
        return decision != null && decision.outcome() == TransactionDecision.Outcome.COMMITTED;
    }
}
