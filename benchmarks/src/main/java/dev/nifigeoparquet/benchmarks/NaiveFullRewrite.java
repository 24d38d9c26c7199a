package dev.nifigeoparquet.benchmarks;

import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StorageOutputFile;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.schema.MessageType;

/**
 * The naive path the operations guide warns about, with the engine's own Parquet reader and writer: list every
 * partition, read every file, merge the delta on the key, and write every partition again. Partition by
 * partition, so memory stays at one row group.
 *
 * <p>Two placements of the same merge: {@link #run(Path, Delta, Path, MessageType, FooterEntries, WriterSettings)}
 * reads a local archive and writes a new directory tree beside it, each written file forced to disk as the engine
 * forces its staged files; {@link #inPlace} reads and writes through an {@link ArchiveStorage}, as a plain tool does
 * on an object store: each partition's new file uploaded as a new object, then its old objects deleted.
 */
final class NaiveFullRewrite {

    record Result(
            long partitions,
            long rowsRead,
            long rowsWritten,
            long inserted,
            long updated,
            long deleted,
            long bytesRead,
            long bytesWritten,
            long filesRead,
            long filesWritten) {}

    /** One data file to read: where it is, how to open it, how messages name it, and its size. */
    private record Input(String path, InputFile file, String name, long size) {}

    /** Where the rewrite finds the archive's partitions and puts their rewritten files. */
    private interface Placement {

        /** The cells of the partitions present. */
        Set<String> cells() throws IOException;

        /** A partition's data files, sorted by name; none when the partition does not exist yet. */
        List<Input> inputs(String cell) throws IOException;

        /** The partition's new file; {@link Output#finished} is called once the Parquet writer is closed. */
        Output output(String cell) throws IOException;

        /** Called after the new file is durable, with the files it replaces. */
        void replaced(List<Input> inputs) throws IOException;
    }

    private interface Output {
        OutputFile file();

        String name();

        /** Makes the closed file durable and returns its size. */
        long finished() throws IOException;
    }

    private NaiveFullRewrite() {}

    /** Rewrites a local archive into a new tree at {@code output}, {@code h3_cell=<cell>/part-0.parquet} per partition. */
    static Result run(
            Path archiveRoot,
            Delta delta,
            Path output,
            MessageType schema,
            FooterEntries footer,
            WriterSettings settings)
            throws IOException {
        Files.createDirectories(output);
        return rewrite(new NewLocalTree(archiveRoot, output), delta, schema, footer, settings);
    }

    /**
     * Rewrites the archive on {@code storage} in place: every partition's files read through
     * {@link ArchiveStorage#openInputFile}, the merged partition uploaded as one new object (written through
     * {@link StorageOutputFile} at its final name, which on an object store is one PUT or one multipart upload,
     * with no staging copy), then the old objects deleted. The archive's commit log and key index are left as they
     * were, so afterwards only plain readers see the right rows, as after any tool that rewrites the files alone.
     */
    static Result inPlace(
            ArchiveStorage storage, Delta delta, MessageType schema, FooterEntries footer, WriterSettings settings)
            throws IOException {
        return rewrite(new SameStorage(storage), delta, schema, footer, settings);
    }

    private static Result rewrite(
            Placement placement, Delta delta, MessageType schema, FooterEntries footer, WriterSettings settings)
            throws IOException {
        FeatureKey.Extractor keys = FeatureKey.extractor(schema, List.of(ParcelWorld.KEY));
        Map<FeatureKey, Delta.Change> byKey = new HashMap<>();
        Map<String, List<Delta.Change>> byCell = new HashMap<>();
        for (Delta.Change change : delta.changes()) {
            byKey.put(keys.keyOf(change.row()), change);
            byCell.computeIfAbsent(change.cell(), c -> new ArrayList<>()).add(change);
        }
        Set<String> cells = new TreeSet<>(byCell.keySet());
        cells.addAll(placement.cells());
        long rowsRead = 0, rowsWritten = 0, inserted = 0, updated = 0, deleted = 0, bytesRead = 0, bytesWritten = 0;
        long filesRead = 0, filesWritten = 0;
        for (String cell : cells) {
            Output out = placement.output(cell);
            List<Input> inputs = placement.inputs(cell);
            Set<FeatureKey> consumed = new HashSet<>();
            try (GeoParquetFileWriter writer =
                    GeoParquetFileWriter.create(out.file(), out.name(), schema, footer, settings)) {
                long written = 0;
                for (Input input : inputs) {
                    filesRead++;
                    bytesRead += input.size();
                    try (GeoParquetFileReader reader = GeoParquetFileReader.open(input.file(), input.name())) {
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
            bytesWritten += out.finished();
            filesWritten++;
            placement.replaced(inputs);
        }
        return new Result(
                cells.size(),
                rowsRead,
                rowsWritten,
                inserted,
                updated,
                deleted,
                bytesRead,
                bytesWritten,
                filesRead,
                filesWritten);
    }

    /** A local archive read where it is, rewritten into a new directory tree. */
    private record NewLocalTree(Path archiveRoot, Path output) implements Placement {

        @Override
        public Set<String> cells() throws IOException {
            try (Stream<Path> dirs = Files.list(archiveRoot)) {
                return dirs.map(dir -> ArchiveLayout.cellOfPartitionDirectory(
                                dir.getFileName().toString()))
                        .filter(Objects::nonNull)
                        .collect(Collectors.toSet());
            }
        }

        @Override
        public List<Input> inputs(String cell) throws IOException {
            Path partition = archiveRoot.resolve(ArchiveLayout.PARTITION_PREFIX + cell);
            if (!Files.isDirectory(partition)) {
                return List.of();
            }
            List<Input> inputs = new ArrayList<>();
            try (Stream<Path> files = Files.list(partition)) {
                for (Path file : files.filter(f -> f.getFileName().toString().endsWith(ArchiveLayout.DATA_FILE_SUFFIX))
                        .sorted()
                        .toList()) {
                    inputs.add(new Input(file.toString(), new LocalInputFile(file), file.toString(), Files.size(file)));
                }
            }
            return inputs;
        }

        @Override
        public Output output(String cell) throws IOException {
            Path dir = output.resolve(ArchiveLayout.PARTITION_PREFIX + cell);
            Files.createDirectories(dir);
            Path file = dir.resolve("part-0.parquet");
            return new Output() {
                @Override
                public OutputFile file() {
                    return new LocalOutputFile(file);
                }

                @Override
                public String name() {
                    return file.toString();
                }

                @Override
                public long finished() throws IOException {
                    Archives.force(file);
                    return Files.size(file);
                }
            };
        }

        @Override
        public void replaced(List<Input> inputs) {
            // the original tree is left as it was
        }
    }

    /** An archive rewritten where it lies, through its storage. */
    private record SameStorage(ArchiveStorage storage) implements Placement {

        @Override
        public Set<String> cells() throws IOException {
            Set<String> cells = new HashSet<>();
            for (StoredObject object : storage.list("")) {
                String cell = object.directory() ? ArchiveLayout.cellOfPartitionDirectory(object.name()) : null;
                if (cell != null) {
                    cells.add(cell);
                }
            }
            return cells;
        }

        @Override
        public List<Input> inputs(String cell) throws IOException {
            List<Input> inputs = new ArrayList<>();
            for (StoredObject object : storage.list(ArchiveLayout.PARTITION_PREFIX + cell)) {
                if (!object.directory() && object.name().endsWith(ArchiveLayout.DATA_FILE_SUFFIX)) {
                    inputs.add(new Input(
                            object.path(),
                            storage.openInputFile(object.path()),
                            storage.describe() + "/" + object.path(),
                            object.size()));
                }
            }
            return inputs;
        }

        @Override
        public Output output(String cell) {
            String path = ArchiveLayout.PARTITION_PREFIX + cell + "/" + ArchiveLayout.newDataFileName();
            StorageOutputFile file = new StorageOutputFile(storage, path);
            return new Output() {
                @Override
                public OutputFile file() {
                    return file;
                }

                @Override
                public String name() {
                    return file.getPath();
                }

                @Override
                public long finished() {
                    return file.bytesWritten(); // durable once the stream is closed
                }
            };
        }

        @Override
        public void replaced(List<Input> inputs) throws IOException {
            for (Input input : inputs) {
                storage.delete(input.path());
            }
        }
    }
}
