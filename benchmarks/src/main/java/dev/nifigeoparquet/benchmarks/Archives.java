package dev.nifigeoparquet.benchmarks;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionChange;
import dev.nifigeoparquet.archive.commit.RollingFileWriter;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;

/** Creating and loading benchmark archives, and looking at what is on disk. */
final class Archives {

    /** Keys handed to the key index per build call, bounding the loader's memory. */
    private static final int INDEX_BATCH = 200_000;

    private Archives() {}

    /**
     * A new parcel archive in the run's {@link RowModel} (key parcel_id, version updated_at) with the engine's default
     * writer settings.
     */
    static GeoParquetArchive create(Path root, FooterEntries footer, int resolution) throws IOException {
        ArchiveSpec spec = ArchiveSpec.of(
                RowModel.current().schema(),
                footer,
                List.of(RowModel.KEY),
                RowModel.VERSION,
                resolution,
                WriterSettings.defaults(),
                "benchmark");
        return ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
    }

    static GeoParquetArchive open(Path root) throws IOException {
        return GeoParquetArchive.open(new LocalArchiveStorage(root));
    }

    /**
     * Loads an archive partition by partition: each partition's rows become one commit (so one file per partition
     * unless it passes the target file size), and every key is recorded in the key index, as adoption would.
     */
    static final class Loader {
        private final GeoParquetArchive archive;
        private final Map<FeatureKey, String> pendingKeys = new HashMap<>();
        private long rows;
        private long commits;

        Loader(GeoParquetArchive archive) {
            this.archive = archive;
        }

        /** Commits the rows as one more file (or more, past the target file size) of the partition. */
        void partition(String cell, Iterator<Group> partitionRows) throws IOException {
            FeatureKey.Extractor keys = archive.keyExtractor();
            archive.committer()
                    .commit(cell, "load-" + cell + "-" + commits++, OperationType.APPEND, (current, stager) -> {
                        try (RollingFileWriter writer = new RollingFileWriter(
                                stager,
                                archive.schema(),
                                archive.canonicalFooter(),
                                archive.descriptor().writer())) {
                            while (partitionRows.hasNext()) {
                                Group row = partitionRows.next();
                                writer.write(row);
                                pendingKeys.put(keys.keyOf(row), cell);
                                rows++;
                            }
                            return new PartitionChange(writer.finish(), List.of());
                        }
                    });
            if (pendingKeys.size() >= INDEX_BATCH) {
                flushIndex();
            }
        }

        /** Commits the remaining keys to the index; returns the rows loaded. */
        long finish() throws IOException {
            flushIndex();
            return rows;
        }

        private void flushIndex() throws IOException {
            if (!pendingKeys.isEmpty()) {
                new KeyIndex(archive).build(pendingKeys);
                pendingKeys.clear();
            }
        }
    }

    /** Data bytes of each partition, from the latest commit entries. */
    static Map<String, Long> partitionBytes(GeoParquetArchive archive) throws IOException {
        Map<String, Long> bytes = new TreeMap<>();
        for (String cell : archive.partitionCells()) {
            bytes.put(cell, archive.partitionState(cell).totalBytes());
        }
        return bytes;
    }

    /**
     * One file as a snapshot sees it: its size and its identity on the file system (device and inode). A file replaced
     * in place under its own name, as the engine publishes a rewritten file, keeps its path but not its identity.
     */
    record FileState(long size, Object identity) {}

    /** The regular files under {@code root}, by path relative to it. */
    static Map<String, FileState> snapshot(Path root) throws IOException {
        Map<String, FileState> files = new HashMap<>();
        if (!Files.exists(root)) {
            return files;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            walk.filter(Files::isRegularFile).forEach(file -> {
                try {
                    BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                    Object identity =
                            attributes.fileKey() != null ? attributes.fileKey() : attributes.lastModifiedTime();
                    files.put(root.relativize(file).toString(), new FileState(attributes.size(), identity));
                } catch (IOException e) {
                    // removed while walking
                }
            });
        }
        return files;
    }

    /**
     * What changed between two snapshots of an archive, split by kind: data files in partition directories, the
     * key index's files, and the rest of the metadata (commit entries, descriptor, staging leftovers). A file replaced
     * in place counts as one written and one superseded.
     */
    record DiskChange(
            long dataFilesWritten,
            long dataBytesWritten,
            long dataFilesRemoved,
            long dataBytesRemoved,
            long indexFilesWritten,
            long indexBytesWritten,
            long logBytesWritten) {

        static DiskChange between(Map<String, FileState> before, Map<String, FileState> after) {
            long dw = 0, dwb = 0, dr = 0, drb = 0, iw = 0, iwb = 0, lwb = 0;
            for (Map.Entry<String, FileState> file : after.entrySet()) {
                FileState was = before.get(file.getKey());
                if (was != null && was.identity().equals(file.getValue().identity())) {
                    continue;
                }
                String path = file.getKey();
                long size = file.getValue().size();
                if (path.startsWith(ArchiveLayout.INDEX_DIRECTORY)) {
                    iw++;
                    iwb += size;
                } else if (path.startsWith(ArchiveLayout.METADATA_DIRECTORY)) {
                    lwb += size;
                } else if (path.endsWith(ArchiveLayout.DATA_FILE_SUFFIX)) {
                    dw++;
                    dwb += size;
                }
            }
            for (Map.Entry<String, FileState> file : before.entrySet()) {
                FileState now = after.get(file.getKey());
                boolean gone =
                        now == null || !now.identity().equals(file.getValue().identity());
                if (gone
                        && file.getKey().endsWith(ArchiveLayout.DATA_FILE_SUFFIX)
                        && !file.getKey().startsWith(ArchiveLayout.METADATA_DIRECTORY)) {
                    dr++;
                    drb += file.getValue().size();
                }
            }
            return new DiskChange(dw, dwb, dr, drb, iw, iwb, lwb);
        }
    }

    /** Data bytes (.parquet files outside the metadata directory) under a root. */
    static long dataBytes(Path root) throws IOException {
        return snapshot(root).entrySet().stream()
                .filter(e -> e.getKey().endsWith(ArchiveLayout.DATA_FILE_SUFFIX)
                        && !e.getKey().startsWith(ArchiveLayout.METADATA_DIRECTORY))
                .mapToLong(e -> e.getValue().size())
                .sum();
    }

    static long dataFiles(Path root) throws IOException {
        return snapshot(root).keySet().stream()
                .filter(p ->
                        p.endsWith(ArchiveLayout.DATA_FILE_SUFFIX) && !p.startsWith(ArchiveLayout.METADATA_DIRECTORY))
                .count();
    }

    /**
     * A copy of a directory tree whose files are hard links to the originals. Safe for an archive: neither the
     * engine nor DuckDB ever rewrites a file in place (new files are created, old ones unlinked).
     */
    static void linkCopy(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.createLink(to.resolve(from.relativize(file).toString()), file);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Forces every file under a root to disk, then every directory, as a durable rewrite must before it is done. */
    static void forceTree(Path root) throws IOException {
        List<Path> paths;
        try (Stream<Path> walk = Files.walk(root)) {
            paths = walk.sorted(Comparator.reverseOrder()).toList();
        }
        for (Path path : paths) {
            force(path);
        }
    }

    /** Forces one file, or a directory's entries, to disk. */
    static void force(Path path) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            List<Path> paths =
                    new ArrayList<>(walk.sorted(Comparator.reverseOrder()).toList());
            for (Path path : paths) {
                Files.delete(path);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
