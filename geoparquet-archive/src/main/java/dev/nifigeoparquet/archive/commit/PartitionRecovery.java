package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.error.CommittedFileMissingException;
import dev.nifigeoparquet.archive.error.PartitionBusyException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.ProtocolSettings;
import dev.nifigeoparquet.archive.format.TransactionDecision;
import dev.nifigeoparquet.archive.format.WriterLease;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Brings one partition back to a clean state before it is written: finishes the publishing of the latest
 * commit (roll forward), deletes the files it superseded, and removes staged or temporary objects that no
 * commit references once they are older than the writer lease. It never scans other partitions.
 */
public final class PartitionRecovery {

    private static final int ATTEMPTS = 3;

    private final ArchiveStorage storage;
    private final ProtocolSettings settings;

    public PartitionRecovery(ArchiveStorage storage, ProtocolSettings settings) {
        this.storage = storage;
        this.settings = settings;
    }

    /** What recovery did, for logging and tests. */
    public record Report(
            PartitionCommit state,
            long topVersion,
            int published,
            int supersededDeleted,
            int stagingDeleted,
            int logEntriesPruned) {
        public boolean didAnything() {
            return published + supersededDeleted + stagingDeleted + logEntriesPruned > 0;
        }
    }

    /** Recovers the partition and returns its latest state. */
    public Report recover(String cell, Instant now) throws IOException {
        return recover(cell, now, Set.of());
    }

    /**
     * Recovers the partition, leaving alone the staged files this writer is about to commit ({@code own}, by their final
     * names): a writer whose clock runs ahead would otherwise take its own fresh files for abandoned ones.
     */
    public Report recover(String cell, Instant now, Set<String> own) throws IOException {
        PartitionLog log = new PartitionLog(storage, cell);
        for (int attempt = 1; ; attempt++) {
            PartitionLog.View view = settlePending(log, now);
            try {
                return recover(log, view, now, own);
            } catch (CommittedFileMissingException missing) {
                // A concurrent writer may have superseded and deleted the file after we read the state.
                if (attempt == ATTEMPTS || log.latestVersion() == view.topVersion()) {
                    throw missing;
                }
            }
        }
    }

    /**
     * A transaction whose entry tops the log and is still undecided either belongs to a live writer (younger than the
     * transaction timeout: the partition is busy, the caller retries later) or to one that died (older: it is aborted
     * here, and the entry never takes effect). Aborting early is always safe: the decision is created exclusively, so a
     * slow writer that then tries to commit finds it aborted and redoes its work.
     */
    private PartitionLog.View settlePending(PartitionLog log, Instant now) throws IOException {
        PartitionLog.View view = log.view();
        PartitionCommit pending = view.pending();
        if (pending == null) {
            return view;
        }
        if (!settings.pendingTransactionLease().expired(pending.committedAt(), now)) {
            throw new PartitionBusyException(log.cell(), pending.transaction());
        }
        TransactionRecords.decide(
                storage,
                pending.transaction(),
                pending.operationId(),
                TransactionDecision.Outcome.ABORTED,
                now,
                List.of(log.cell()));
        return log.view();
    }

    /**
     * Each directory is listed once. The log's and the staging directory's listings also serve the clean-up at the end:
     * an object created after them is younger than the lease, so a second listing could not delete it either.
     */
    private Report recover(PartitionLog log, PartitionLog.View view, Instant now, Set<String> own) throws IOException {
        String cell = log.cell();
        PartitionCommit latest = view.committed();
        // Staging is listed before the partition directory: a concurrent publish links a file into the partition
        // before it unlinks the staged name, so in this order a file being published is seen in at least one of
        // the two listings. In the other order it can fall between them and look lost.
        List<StoredObject> stagedObjects = storage.list(ArchiveLayout.stagingDirectory(cell));
        Set<String> staged = new HashSet<>();
        for (StoredObject object : stagedObjects) {
            staged.add(object.name());
        }
        Set<String> present = new HashSet<>();
        for (StoredObject object : storage.list(ArchiveLayout.partitionDirectory(cell))) {
            present.add(object.name());
        }

        int published = 0;
        for (DataFileEntry file : latest.files()) {
            if (file.stagedAs() != null) {
                // Content replacing a live file of the same name: while its staged object exists it is not published
                // (the name still holds the old content); publishing it is one replacing step.
                String stagedName = file.stagedAs() + ArchiveLayout.REPLACEMENT_SUFFIX;
                if (staged.contains(stagedName)) {
                    storage.publishReplacing(
                            ArchiveLayout.replacementFile(cell, file.stagedAs()),
                            ArchiveLayout.dataFile(cell, file.name()));
                    staged.remove(stagedName);
                    published++;
                } else if (!present.contains(file.name())) {
                    throw new CommittedFileMissingException(
                            storage.describe() + "/" + ArchiveLayout.dataFile(cell, file.name()), latest.version());
                }
                continue;
            }
            String stagedName = file.name() + ArchiveLayout.STAGED_SUFFIX;
            // A file both present and still staged is published too: an interrupted publish (linked, not yet
            // unlinked) is completed, and a storage that writes data at its final key before the commit (an
            // object store, which has no rename) removes its staging record here.
            if (present.contains(file.name()) && !staged.contains(stagedName)) {
                continue;
            }
            if (!staged.contains(stagedName)) {
                throw new CommittedFileMissingException(
                        storage.describe() + "/" + ArchiveLayout.dataFile(cell, file.name()), latest.version());
            }
            storage.publish(ArchiveLayout.stagedFile(cell, file.name()), ArchiveLayout.dataFile(cell, file.name()));
            staged.remove(stagedName);
            published++;
        }

        int supersededDeleted = 0;
        List<String> deletedPaths = new ArrayList<>();
        for (String removed : latest.removed()) {
            if (present.contains(removed)) {
                storage.delete(ArchiveLayout.dataFile(cell, removed));
                deletedPaths.add(ArchiveLayout.dataFile(cell, removed));
                supersededDeleted++;
            }
        }
        // Published names are durable when publishing returns, so the successors are in place before any superseded
        // file
        // goes. The removals are made durable together: not needed for the archive (the commit says the files are gone,
        // and recovery deletes them again), but a plain reader after a power loss would otherwise see them back until
        // the
        // next writer of the partition.
        if (!deletedPaths.isEmpty()) {
            storage.sync(deletedPaths);
        }

        WriterLease lease = settings.lease();
        int stagingDeleted = 0;
        for (StoredObject object : stagedObjects) {
            String name = object.name();
            boolean referenced;
            if (name.endsWith(ArchiveLayout.REPLACEMENT_SUFFIX)) {
                String stagedAs = name.substring(0, name.length() - ArchiveLayout.REPLACEMENT_SUFFIX.length());
                referenced = own.contains(stagedAs)
                        || latest.files().stream().anyMatch(file -> stagedAs.equals(file.stagedAs()));
            } else {
                String finalName = name.endsWith(ArchiveLayout.STAGED_SUFFIX)
                        ? name.substring(0, name.length() - ArchiveLayout.STAGED_SUFFIX.length())
                        : null;
                referenced = finalName != null
                        && (own.contains(finalName)
                                || latest.files().stream()
                                        .anyMatch(file -> file.stagedAs() == null
                                                && file.name().equals(finalName)));
            }
            if (!referenced && lease.expired(object.lastModified(), now)) {
                storage.delete(object.path());
                stagingDeleted++;
            }
        }

        int pruned = 0;
        for (StoredObject entry : view.listed()) {
            long version = ArchiveLayout.logEntryVersion(entry.name());
            boolean oldEntry = version > 0 && version <= latest.version() - settings.logEntryRetention();
            boolean debris = version < 0 && lease.expired(entry.lastModified(), now);
            if (oldEntry || debris) {
                storage.delete(entry.path());
                pruned++;
            }
        }
        return new Report(latest, view.topVersion(), published, supersededDeleted, stagingDeleted, pruned);
    }
}
