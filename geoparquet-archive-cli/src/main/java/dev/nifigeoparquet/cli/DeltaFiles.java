package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.delta.DeltaReader;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.WriteMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.io.LocalInputFile;

/**
 * Reads the delta files of one command through the engine's {@link DeltaReader} (GeoParquet and native-GEOMETRY
 * Parquet files, GeoJSON FeatureCollections), and remembers which file and row each delta row came from. A delta the
 * engine refuses is refused with its reasons; a file that cannot be read is an input error naming it.
 */
final class DeltaFiles {

    /** Where a delta row came from: its file and its row in that file, from 0. */
    record Origin(Path file, long row) {}

    private final DeltaReader reader;
    private final Progress progress;
    private final List<Path> files = new ArrayList<>();
    private final List<Long> firstRows = new ArrayList<>();

    DeltaFiles(GeoParquetArchive archive, WriteMode mode, String deleteField, Progress progress) {
        this.reader = new DeltaReader(archive, mode, deleteField);
        this.progress = progress;
    }

    /** Every row of every file, in order (a later row of a key wins over an earlier one). */
    List<DeltaRow> readAll(List<Path> deltaFiles) throws IOException {
        List<DeltaRow> rows = new ArrayList<>();
        for (Path file : deltaFiles) {
            ArchiveCommand.requireFile(file, "delta");
            int before = rows.size();
            try {
                rows.addAll(reader.read(new LocalInputFile(file), file.toString()));
            } catch (IOException e) {
                throw new InputException(
                        "delta " + file + " cannot be read: " + GeoParquetArchiveCli.oneLine(e.getMessage()), e);
            }
            files.add(file);
            firstRows.add((long) before);
            progress.note(String.format("read %,d rows from %s", rows.size() - before, file));
        }
        return rows;
    }

    /** The file and row of the delta row at {@code index} of what {@link #readAll} returned. */
    Origin origin(long index) {
        for (int i = files.size() - 1; i >= 0; i--) {
            if (index >= firstRows.get(i)) {
                return new Origin(files.get(i), index - firstRows.get(i));
            }
        }
        throw new IllegalArgumentException("no delta row " + index);
    }
}
