package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StorageOutputFile;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Hands out staged data files for one attempt of one operation on one partition, and remembers them so a
 * failed or conflicting attempt can remove what it staged. Its files are made durable together with those of the
 * operation's other partitions ({@link #syncTogether}), before any commit entry names them.
 */
public final class DataFileStager {

    private final ArchiveStorage storage;
    private final String cell;
    private final List<String> stagedPaths = new ArrayList<>();

    DataFileStager(ArchiveStorage storage, String cell) {
        this.storage = storage;
        this.cell = cell;
    }

    /**
     * Makes every file these stagers handed out durable, together: one {@link ArchiveStorage#sync} for the whole
     * operation instead of a forced file and directory per file.
     */
    static void syncTogether(ArchiveStorage storage, Collection<DataFileStager> stagers) throws IOException {
        List<String> paths = new ArrayList<>();
        for (DataFileStager stager : stagers) {
            if (stager != null) {
                paths.addAll(stager.stagedPaths);
            }
        }
        if (!paths.isEmpty()) {
            storage.sync(paths);
        }
    }

    /** A staged file under a fresh name; {@link StagedFile#name()} is the name it will have once published. */
    public StagedFile stage() throws IOException {
        String name =
                ArchiveLayout.isIndexShard(cell) ? ArchiveLayout.newIndexFileName() : ArchiveLayout.newDataFileName();
        String path = ArchiveLayout.stagedFile(cell, name);
        stagedPaths.add(path);
        return new StagedFile(name, null, new StorageOutputFile(storage, path, true));
    }

    /**
     * A staged file that will take the name and place of the live file {@code liveName} when published, so a plain
     * reader of the partition sees that file's old content or its new one, never both or neither. Data files only.
     */
    public StagedFile stageReplacing(String liveName) throws IOException {
        if (ArchiveLayout.isIndexShard(cell)) {
            throw new IllegalArgumentException("Key-index files are never replaced in place: " + cell + "/" + liveName);
        }
        String name = ArchiveLayout.newDataFileName();
        String path = ArchiveLayout.replacementFile(cell, name);
        stagedPaths.add(path);
        return new StagedFile(name, liveName, new StorageOutputFile(storage, path, true));
    }

    /** Deletes everything this attempt staged; best effort, since recovery removes leftovers after the lease. */
    void discard() {
        for (String path : stagedPaths) {
            try {
                storage.delete(path);
            } catch (IOException ignored) {
                // Left for recovery once the writer lease has passed.
            }
        }
        stagedPaths.clear();
    }

    /**
     * A staged data file: its unique name, the live file it replaces (null when it is published under its own name),
     * and where to write it.
     */
    public record StagedFile(String name, String replaces, StorageOutputFile output) {}
}
