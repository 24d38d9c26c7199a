package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;

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
        String published = ArchiveLayout.dataFile(cell, fileName);
        try {
            return GeoParquetFileReader.open(storage.openInputFile(published), storage.describe() + "/" + published);
        } catch (NoSuchFileException notPublished) {
            String staged = ArchiveLayout.stagedFile(cell, fileName);
            try {
                return GeoParquetFileReader.open(storage.openInputFile(staged), storage.describe() + "/" + published);
            } catch (NoSuchFileException neither) {
                NoSuchFileException gone = new NoSuchFileException(storage.describe() + "/" + published, null,
                        "live data file is neither published nor staged; superseded by a newer commit, or removed outside the archive");
                gone.addSuppressed(notPublished);
                throw gone;
            }
        }
    }
}
