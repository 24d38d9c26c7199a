package dev.nifigeoparquet.archive.testing;

import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.LocalOutputFile;

/** Reads small test files whole, and rewrites a file the way the engine does (same schema, canonical footer). */
public final class ParquetRows {

    private ParquetRows() {}

    /** A small file's footer and every row. */
    public record Contents(ParquetFooter footer, List<Group> rows) {}

    public static Contents read(Path file) throws IOException {
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
            List<Group> rows = new ArrayList<>();
            reader.rows().forEachRemaining(rows::add);
            return new Contents(reader.footer(), rows);
        }
    }

    /** Reads every row of {@code source} and writes it to {@code target} with the same schema and canonical entries. */
    public static void rewrite(Path source, Path target, WriterSettings settings) throws IOException {
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(source);
                GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                        new LocalOutputFile(target),
                        target.toString(),
                        reader.footer().schema(),
                        reader.footer().canonicalEntries(),
                        settings)) {
            reader.rows().forEachRemaining(row -> {
                try {
                    writer.write(row);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
            writer.finish();
        }
    }
}
