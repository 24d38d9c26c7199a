package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.parquet.FooterCache;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import org.apache.parquet.io.InputFile;

import java.io.IOException;
import java.nio.file.NoSuchFileException;

/**
 * Opens a partition's live data files as its commit entry names them. A committed file not yet published is
 * read from staging; a file that is in neither place was superseded by a newer commit (the caller re-reads the
 * state) or lost outside the protocol.
 */
public final class LiveFiles {

    private LiveFiles() {
    }

    public static GeoParquetFileReader open(ArchiveStorage storage, String cell, String fileName) throws IOException {
        return open(storage, cell, fileName, null);
    }

    /**
     * Like {@link #open(ArchiveStorage, String, String)}, taking the footer from {@code footers} when it holds it and
     * keeping it there otherwise. A file's name is never reused, so a cached footer stays true.
     */
    public static GeoParquetFileReader open(ArchiveStorage storage, String cell, String fileName, FooterCache footers)
            throws IOException {
        String published = ArchiveLayout.dataFile(cell, fileName);
        String name = name(storage, cell, fileName);
        try {
            return open(storage.openInputFile(published), name, footers);
        } catch (NoSuchFileException notPublished) {
            String staged = ArchiveLayout.stagedFile(cell, fileName);
            try {
                return open(storage.openInputFile(staged), name, footers);
            } catch (NoSuchFileException notStaged) {
                try {
                    // Publishing moves a file from staging to its place: it may have moved between the two looks.
                    return open(storage.openInputFile(published), name, footers);
                } catch (NoSuchFileException neither) {
                    NoSuchFileException gone = new NoSuchFileException(name, null,
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
