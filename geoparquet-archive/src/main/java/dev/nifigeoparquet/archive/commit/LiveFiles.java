package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.FooterCache;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import org.apache.parquet.io.InputFile;

/**
 * Opens a partition's live data files as its commit entry names them. A committed file not yet published is
 * read from staging; a file that is in neither place was superseded by a newer commit (the caller re-reads the
 * state) or lost outside the protocol.
 */
public final class LiveFiles {

    private LiveFiles() {}

    /**
     * Opens a live data file as the partition state {@code state} records it. Content that replaces a file of the same
     * name is read from staging until it is published. A published file whose size is not the entry's was replaced by a
     * newer commit since the state was read (reported as superseded, as a deleted one is: the caller re-reads the state),
     * or, when the partition has no newer commit, damaged outside the archive.
     */
    public static GeoParquetFileReader open(ArchiveStorage storage, PartitionCommit state, DataFileEntry file)
            throws IOException {
        return open(storage, state, file, true);
    }

    /**
     * Opens what the live file's place holds now, whatever its size: for verification, which reports a size that
     * differs from the entry on its own and still inspects the file.
     */
    public static GeoParquetFileReader openAsIs(ArchiveStorage storage, PartitionCommit state, DataFileEntry file)
            throws IOException {
        return open(storage, state, file, false);
    }

    private static GeoParquetFileReader open(
            ArchiveStorage storage, PartitionCommit state, DataFileEntry file, boolean checkSize) throws IOException {
        String cell = state.cell();
        String name = name(storage, cell, file.name());
        if (file.stagedAs() != null) {
            try {
                return open(storage.openInputFile(ArchiveLayout.replacementFile(cell, file.stagedAs())), name, null);
            } catch (NoSuchFileException published) {
                // published since: the name holds it now, unless a newer commit replaced it again
            }
        }
        InputFile input = openPublishedOrStaged(storage, cell, file.name(), name);
        if (!checkSize) {
            return open(input, name, null);
        }
        GeoParquetFileReader reader;
        long length;
        try {
            reader = open(input, name, null);
            length = input.getLength(); // of the version the reader holds open
        } catch (FileNotFoundException | NoSuchFileException vanished) {
            throw superseded(name, vanished);
        }
        if (length == file.bytes()) {
            return reader;
        }
        reader.close();
        if (new PartitionLog(storage, cell).latestVersion() > state.version()) {
            throw new NoSuchFileException(
                    name,
                    null,
                    "holds " + length + " bytes, not the " + file.bytes()
                            + " its commit entry records; replaced by a newer commit");
        }
        throw new ParquetFileException(
                name,
                "holds " + length + " bytes but its commit entry (version " + state.version() + ") records "
                        + file.bytes() + "; truncated or changed outside the archive");
    }

    private static NoSuchFileException superseded(String name, IOException vanished) {
        NoSuchFileException gone =
                new NoSuchFileException(name, null, "vanished while it was opened; superseded by a newer commit");
        gone.addSuppressed(vanished);
        return gone;
    }

    /** Opens a file published under its own name that is never replaced (the key index's files), by its name. */
    public static GeoParquetFileReader open(ArchiveStorage storage, String cell, String fileName) throws IOException {
        return open(storage, cell, fileName, null);
    }

    /**
     * Like {@link #open(ArchiveStorage, String, String)}, taking the footer from {@code footers} when it holds it and
     * keeping it there otherwise. Only for files whose name is never reused (the key index's), so a cached footer
     * stays true.
     */
    public static GeoParquetFileReader open(ArchiveStorage storage, String cell, String fileName, FooterCache footers)
            throws IOException {
        String name = name(storage, cell, fileName);
        return open(openPublishedOrStaged(storage, cell, fileName, name), name, footers);
    }

    /** The file at its published place, or in staging while its commit is being published. */
    private static InputFile openPublishedOrStaged(ArchiveStorage storage, String cell, String fileName, String name)
            throws IOException {
        String published = ArchiveLayout.dataFile(cell, fileName);
        try {
            return storage.openInputFile(published);
        } catch (NoSuchFileException notPublished) {
            String staged = ArchiveLayout.stagedFile(cell, fileName);
            try {
                return storage.openInputFile(staged);
            } catch (NoSuchFileException notStaged) {
                try {
                    // Publishing moves a file from staging to its place: it may have moved between the two looks.
                    return storage.openInputFile(published);
                } catch (NoSuchFileException neither) {
                    NoSuchFileException gone = new NoSuchFileException(
                            name,
                            null,
                            "live data file is neither published nor staged; superseded by a newer commit, or removed outside the archive");
                    gone.addSuppressed(notPublished);
                    throw gone;
                }
            }
        }
    }

    /** How errors and a {@link FooterCache} name a live file: its published path in the storage. */
    public static String name(ArchiveStorage storage, String cell, String fileName) {
        return storage.describe() + "/" + ArchiveLayout.dataFile(cell, fileName);
    }

    private static GeoParquetFileReader open(InputFile file, String name, FooterCache footers) throws IOException {
        GeoParquetFileReader.ParsedFooter cached = footers == null ? null : footers.get(name);
        if (cached != null) {
            return GeoParquetFileReader.open(file, cached);
        }
        GeoParquetFileReader reader = GeoParquetFileReader.open(file, name);
        if (footers != null) {
            footers.put(name, reader.parsedFooter());
        }
        return reader;
    }
}
