package dev.nifigeoparquet.benchmarks;

import dev.nifigeoparquet.archive.ops.FeatureKey;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The naive path the operations guide warns about, with the engine's own Parquet reader and writer: list every
 * partition directory, read every file, merge the delta on the key, and write every partition again into a new
 * directory tree. Partition by partition, so memory stays at one row group, and each written file is forced to
 * disk as the engine forces its staged files.
 */
final class NaiveFullRewrite {

    record Result(long partitions, long rowsRead, long rowsWritten, long inserted, long updated, long deleted,
                  long bytesRead, long bytesWritten, long filesRead, long filesWritten) {
    }

    private NaiveFullRewrite() {
    }

    static Result run(Path archiveRoot, Delta delta, Path output, MessageType schema, FooterEntries footer,
                      WriterSettings settings) throws IOException {
        FeatureKey.Extractor keys = FeatureKey.extractor(schema, List.of(ParcelWorld.KEY));
        Map<FeatureKey, Delta.Change> byKey = new HashMap<>();
        Map<String, List<Delta.Change>> byCell = new HashMap<>();
        for (Delta.Change change : delta.changes()) {
            byKey.put(keys.keyOf(change.row()), change);
            byCell.computeIfAbsent(change.cell(), c -> new ArrayList<>()).add(change);
        }
        Set<String> cells = new TreeSet<>(byCell.keySet());
        try (Stream<Path> dirs = Files.list(archiveRoot)) {
            dirs.map(dir -> dir.getFileName().toString()).filter(name -> name.startsWith("h3_cell="))
                    .forEach(name -> cells.add(name.substring("h3_cell=".length())));
        }
        long rowsRead = 0, rowsWritten = 0, inserted = 0, updated = 0, deleted = 0, bytesRead = 0, bytesWritten = 0;
        long filesRead = 0, filesWritten = 0;
        Files.createDirectories(output);
        for (String cell : cells) {
            Path in = archiveRoot.resolve("h3_cell=" + cell);
            Path outDir = output.resolve("h3_cell=" + cell);
            Files.createDirectories(outDir);
            Path outFile = outDir.resolve("part-0.parquet");
            Set<FeatureKey> consumed = new HashSet<>();
            try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(new LocalOutputFile(outFile), outFile.toString(),
                    schema, footer, settings)) {
                long written = 0;
                for (Path file : dataFiles(in)) {
                    filesRead++;
                    bytesRead += Files.size(file);
                    try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
                        for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                            Group row = it.next();
                            rowsRead++;
                            FeatureKey key = keys.keyOf(row);
                            Delta.Change change = byKey.get(key);
                            if (change == null) {
                                writer.write(row);
                                written++;
                            } else if (change.delete()) {
                                deleted++;
                            } else if (change.cell().equals(cell)) {
                                writer.write(change.row());
                                consumed.add(key);
                                updated++;
                                written++;
                            } else {
                                updated++; // moved: it is written in its new cell below
                            }
                        }
                    }
                }
                for (Delta.Change change : byCell.getOrDefault(cell, List.of())) {
                    if (!change.delete() && !consumed.contains(keys.keyOf(change.row()))) {
                        writer.write(change.row());
                        written++;
                        if (change.kind() != Delta.Kind.MOVED) {
                            inserted++;
                        }
                    }
                }
                writer.finish();
                rowsWritten += written;
            }
            force(outFile);
            filesWritten++;
            bytesWritten += Files.size(outFile);
        }
        return new Result(cells.size(), rowsRead, rowsWritten, inserted, updated, deleted, bytesRead, bytesWritten,
                filesRead, filesWritten);
    }

    private static List<Path> dataFiles(Path partition) throws IOException {
        if (!Files.isDirectory(partition)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(partition)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".parquet")).sorted().toList();
        }
    }

    private static void force(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.force(true);
        }
    }
}
