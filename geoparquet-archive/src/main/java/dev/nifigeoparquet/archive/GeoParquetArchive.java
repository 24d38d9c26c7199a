package dev.nifigeoparquet.archive;

import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.PartitionCommitter;
import dev.nifigeoparquet.archive.format.PartitionLog;
import dev.nifigeoparquet.archive.keying.H3Cells;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * An open archive: its storage, its pinned descriptor, and access to its partitions. The entry point the
 * operations, the NiFi services and the command-line tool share.
 */
public final class GeoParquetArchive {

    private final ArchiveStorage storage;
    private final ArchiveDescriptor descriptor;
    private final Clock clock;

    private GeoParquetArchive(ArchiveStorage storage, ArchiveDescriptor descriptor, Clock clock) {
        this.storage = storage;
        this.descriptor = descriptor;
        this.clock = clock;
    }

    /** Opens an existing archive, reading its descriptor once. */
    public static GeoParquetArchive open(ArchiveStorage storage) throws IOException {
        return open(storage, Clock.systemUTC());
    }

    public static GeoParquetArchive open(ArchiveStorage storage, Clock clock) throws IOException {
        byte[] json;
        try {
            json = storage.readAllBytes(ArchiveLayout.DESCRIPTOR);
        } catch (NoSuchFileException e) {
            throw new ArchiveNotFoundException(storage.describe());
        }
        ArchiveDescriptor descriptor = ArchiveJson.read(json, ArchiveDescriptor.class, storage.describe() + "/" + ArchiveLayout.DESCRIPTOR);
        if (descriptor.formatVersion() > ArchiveDescriptor.FORMAT_VERSION) {
            throw new IOException("Archive at " + storage.describe() + " has format version " + descriptor.formatVersion()
                    + "; this implementation reads up to " + ArchiveDescriptor.FORMAT_VERSION);
        }
        return new GeoParquetArchive(storage, descriptor, clock);
    }

    /** Whether a descriptor exists at this storage's root. */
    public static boolean exists(ArchiveStorage storage) throws IOException {
        return storage.exists(ArchiveLayout.DESCRIPTOR);
    }

    /** Writes a descriptor exclusively; fails when the location already holds an archive. */
    static GeoParquetArchive writeDescriptor(ArchiveStorage storage, ArchiveDescriptor descriptor, Clock clock) throws IOException {
        try {
            storage.createExclusive(ArchiveLayout.DESCRIPTOR, ArchiveJson.write(descriptor));
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(storage.describe(), null, "an archive already exists there");
        }
        return new GeoParquetArchive(storage, descriptor, clock);
    }

    public ArchiveStorage storage() {
        return storage;
    }

    public ArchiveDescriptor descriptor() {
        return descriptor;
    }

    public Clock clock() {
        return clock;
    }

    public int h3Resolution() {
        return descriptor.h3Resolution();
    }

    /** Validates an untrusted cell name against the pinned resolution before any path is built from it. */
    public String requireCell(String cell) {
        return H3Cells.requireCanonical(cell, descriptor.h3Resolution());
    }

    /** The latest committed state of one partition (empty when never committed). */
    public PartitionCommit partitionState(String cell) throws IOException {
        return new PartitionLog(storage, requireCell(cell)).latest();
    }

    /** A committer for this archive's partitions, under the archive's protocol settings. */
    public PartitionCommitter committer() {
        return new PartitionCommitter(storage, descriptor.protocol(), clock);
    }

    /**
     * The cells that have a commit log, i.e. every partition the archive tracks. One listing of the log
     * directory: no partition directory is opened.
     */
    public List<String> partitionCells() throws IOException {
        List<String> cells = new ArrayList<>();
        for (StoredObject entry : storage.list(ArchiveLayout.LOG_DIRECTORY)) {
            if (entry.directory()) {
                cells.add(entry.name());
            }
        }
        return cells;
    }

    @Override
    public String toString() {
        return "GeoParquetArchive[" + storage.describe() + ", h3 resolution " + descriptor.h3Resolution() + "]";
    }
}
