package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.concurrent.Retry;
import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import dev.nifigeoparquet.archive.error.CommitConflictException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.CommitEntryParser;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.TransactionDecision;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A partition's commit log: versioned entries created exclusively, one per commit. The entry with the
 * highest version is the partition's state; older entries are history and are pruned.
 */
public final class PartitionLog {

    private static final int READ_ATTEMPTS = 3;

    private final ArchiveStorage storage;
    private final String cell;

    public PartitionLog(ArchiveStorage storage, String cell) {
        this.storage = storage;
        this.cell = cell;
        ArchiveLayout.logDirectory(cell); // validates the cell before any storage call
    }

    public String cell() {
        return cell;
    }

    /**
     * What the log says now.
     *
     * @param committed  the latest state in effect (a plain entry, or one whose transaction committed)
     * @param topVersion the highest version present, in effect or not; the next commit takes {@code topVersion + 1}
     * @param pending    the top entry when its transaction is not decided yet, else null
     * @param listed     the log directory's listing this view was read from: entries and debris (temporary names)
     */
    public record View(
            PartitionCommit committed, long topVersion, PartitionCommit pending, List<StoredObject> listed) {}

    /** The latest committed state, or {@link PartitionCommit#empty} when the partition has never been committed. */
    public PartitionCommit latest() throws IOException {
        return view().committed();
    }

    /**
     * Reads the log from its newest entry down to the first that is in effect: entries of aborted transactions are
     * skipped, and an undecided transaction's entry is reported as pending.
     */
    public View view() throws IOException {
        // An entry gone between the listing and its read was pruned by a concurrent writer's commit: list again.
        return Retry.onVanishedFile(READ_ATTEMPTS).run(attempt -> {
            List<Long> versions = new ArrayList<>();
            List<StoredObject> listed = storage.list(ArchiveLayout.logDirectory(cell));
            for (StoredObject entry : listed) {
                long version = ArchiveLayout.logEntryVersion(entry.name());
                if (version > 0) {
                    versions.add(version);
                }
            }
            versions.sort(Comparator.reverseOrder());
            return resolve(versions, listed);
        });
    }

    private View resolve(List<Long> newestFirst, List<StoredObject> listed) throws IOException {
        long top = newestFirst.isEmpty() ? 0 : newestFirst.get(0);
        PartitionCommit pending = null;
        for (long version : newestFirst) {
            PartitionCommit entry = read(version);
            if (entry.transaction() == null) {
                return new View(entry, top, pending, listed);
            }
            TransactionDecision decision = TransactionRecords.read(storage, entry.transaction());
            if (decision == null) {
                if (version == top) {
                    pending = entry;
                }
                continue;
            }
            if (decision.outcome() == TransactionDecision.Outcome.COMMITTED) {
                return new View(entry, top, pending, listed);
            }
        }
        return new View(PartitionCommit.empty(cell), top, pending, listed);
    }

    /** The highest committed version, 0 when none. */
    public long latestVersion() throws IOException {
        long latest = 0;
        for (StoredObject entry : storage.list(ArchiveLayout.logDirectory(cell))) {
            latest = Math.max(latest, ArchiveLayout.logEntryVersion(entry.name()));
        }
        return latest;
    }

    public PartitionCommit read(long version) throws IOException {
        String path = ArchiveLayout.logEntry(cell, version);
        String file = storage.describe() + "/" + path;
        PartitionCommit commit = CommitEntryParser.fromJson(storage.readAllBytes(path), file);
        if (commit.version() != version || !cell.equals(commit.cell())) {
            throw new ArchiveFormatException(
                    file, "the entry claims partition " + commit.cell() + " version " + commit.version());
        }
        return commit;
    }

    /**
     * Commits the next entry. Exactly one writer can create a given version: the loser gets a
     * {@link CommitConflictException} and must redo its work on the new state.
     */
    public void commit(PartitionCommit next) throws IOException {
        try {
            storage.createExclusive(ArchiveLayout.logEntry(cell, next.version()), CommitEntryParser.toJson(next));
        } catch (FileAlreadyExistsException e) {
            throw new CommitConflictException(cell, next.version(), e.getMessage());
        }
    }
}
