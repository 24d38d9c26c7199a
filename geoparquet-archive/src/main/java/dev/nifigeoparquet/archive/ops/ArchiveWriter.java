package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.CommitOutcome;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.DataFileStager;
import dev.nifigeoparquet.archive.format.NewDataFile;
import dev.nifigeoparquet.archive.format.PartitionChange;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Applies a validated {@link PartitionDelta} to its partition under the commit protocol: append, upsert,
 * delete or replace. It reads and writes only that partition. Memory grows with the delta and one row group,
 * never with the partition: existing files are scanned by their key columns first, and only files holding a
 * delta key are rewritten, streamed row group by row group.
 */
public final class ArchiveWriter {

    private final GeoParquetArchive archive;

    public ArchiveWriter(GeoParquetArchive archive) {
        this.archive = archive;
    }

    public OperationResult apply(PartitionDelta delta) throws IOException {
        Counts counts = new Counts();
        CommitOutcome outcome = archive.committer().commit(delta.cell(), delta.deltaId(), delta.mode().operationType(),
                (current, stager) -> {
                    counts.reset();
                    return switch (delta.mode()) {
                        case APPEND -> append(delta, stager, counts);
                        case REPLACE -> replace(current, delta, stager, counts);
                        case UPSERT, DELETE -> merge(current, delta, stager, counts);
                    };
                });
        if (outcome.replay()) {
            long rows = outcome.before().rowCount();
            return new OperationResult(delta.deltaId(), true, List.of(), rows, rows, 0, 0, 0, rows, 0,
                    delta.duplicateKeys(), 0, 0, 0, 0, 0, 0);
        }
        PartitionCommit before = outcome.before();
        PartitionCommit after = outcome.after();
        long bytesRemoved = before.files().stream().filter(f -> outcome.change().removed().contains(f.name()))
                .mapToLong(DataFileEntry::bytes).sum();
        long bytesWritten = outcome.change().added().stream().mapToLong(NewDataFile::bytes).sum();
        return new OperationResult(delta.deltaId(), false, List.of(delta.cell()), before.rowCount(), after.rowCount(),
                counts.inserted, counts.updated, counts.deleted, before.rowCount() - counts.updated - counts.deleted,
                counts.olderSkipped, delta.duplicateKeys(), counts.absentDeletes, outcome.change().added().size(), bytesWritten,
                outcome.change().removed().size(), bytesRemoved, counts.bytesRead);
    }

    /** Counters of one attempt; reset when a commit conflict makes the update run again. */
    private static final class Counts {
        long inserted;
        long updated;
        long deleted;
        long olderSkipped;
        long absentDeletes;
        long bytesRead;

        void reset() {
            inserted = updated = deleted = olderSkipped = absentDeletes = bytesRead = 0;
        }
    }

    private PartitionChange append(PartitionDelta delta, DataFileStager stager, Counts counts) throws IOException {
        try (RollingFileWriter writer = newWriter(stager)) {
            for (Group row : deltaRows(delta)) {
                writer.write(row);
                counts.inserted++;
            }
            return new PartitionChange(writer.finish(), List.of());
        }
    }

    private PartitionChange replace(PartitionCommit current, PartitionDelta delta, DataFileStager stager, Counts counts) throws IOException {
        if (archive.descriptor().hasKey()) {
            Set<FeatureKey> existing = scanKeys(current, delta.rowsByKey().keySet(), counts).found();
            long kept = delta.rowsByKey().entrySet().stream().filter(e -> !e.getValue().delete()).count();
            counts.updated = delta.rowsByKey().entrySet().stream().filter(e -> !e.getValue().delete() && existing.contains(e.getKey())).count();
            counts.inserted = kept - counts.updated;
            counts.deleted = current.rowCount() - counts.updated;
        } else {
            counts.inserted = delta.unkeyedRows().size();
            counts.deleted = current.rowCount();
        }
        try (RollingFileWriter writer = newWriter(stager)) {
            for (Group row : deltaRows(delta)) {
                writer.write(row);
            }
            return new PartitionChange(writer.finish(), current.fileNames());
        }
    }

    /** Upsert and delete: rewrite only the files that hold a delta key, then add the new keys. */
    private PartitionChange merge(PartitionCommit current, PartitionDelta delta, DataFileStager stager, Counts counts) throws IOException {
        Map<FeatureKey, DeltaRow> rows = delta.rowsByKey();
        KeyScan scan = scanKeys(current, rows.keySet(), counts);
        Set<FeatureKey> consumed = new HashSet<>();
        VersionOrder versions = archive.descriptor().versionColumn() == null ? null
                : new VersionOrder(archive.schema(), archive.descriptor().versionColumn());
        FeatureKey.Extractor keys = archive.keyExtractor();
        try (RollingFileWriter writer = newWriter(stager)) {
            for (String file : scan.filesToRewrite()) {
                try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), delta.cell(), file)) {
                    counts.bytesRead += fileBytes(current, file);
                    for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                        Group existing = it.next();
                        FeatureKey key = keys.keyOf(existing);
                        DeltaRow change = key == null ? null : rows.get(key);
                        if (change == null) {
                            writer.write(existing);
                            continue;
                        }
                        consumed.add(key);
                        if (change.delete()) {
                            counts.deleted++;
                        } else if (versions != null && versions.deltaIsOlder(change.row(), existing)) {
                            counts.olderSkipped++;
                            writer.write(existing);
                        } else {
                            counts.updated++;
                            writer.write(change.row());
                        }
                    }
                }
            }
            for (Map.Entry<FeatureKey, DeltaRow> entry : rows.entrySet()) {
                if (consumed.contains(entry.getKey())) {
                    continue;
                }
                if (entry.getValue().delete()) {
                    counts.absentDeletes++;
                } else {
                    counts.inserted++;
                    writer.write(entry.getValue().row());
                }
            }
            return new PartitionChange(writer.finish(), List.copyOf(scan.filesToRewrite()));
        }
    }

    /** Which live files hold any of the keys, found by reading only the key column chunks. */
    private record KeyScan(Set<String> filesToRewrite, Set<FeatureKey> found) {
    }

    private KeyScan scanKeys(PartitionCommit current, Set<FeatureKey> wanted, Counts counts) throws IOException {
        Set<String> files = new LinkedHashSet<>();
        Set<FeatureKey> found = new HashSet<>();
        List<String> keyColumns = archive.descriptor().keyColumns();
        if (wanted.isEmpty()) {
            return new KeyScan(files, found);
        }
        for (DataFileEntry file : current.files()) {
            try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), current.cell(), file.name())) {
                counts.bytesRead += keyColumnBytes(reader, keyColumns);
                reader.project(keyColumns);
                FeatureKey.Extractor keys = FeatureKey.extractor(reader.readSchema(), keyColumns);
                for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                    FeatureKey key = keys.keyOf(it.next());
                    if (key != null && wanted.contains(key)) {
                        files.add(file.name());
                        found.add(key);
                    }
                }
            }
        }
        return new KeyScan(files, found);
    }

    private static long keyColumnBytes(GeoParquetFileReader reader, List<String> keyColumns) {
        long bytes = 0;
        for (BlockMetaData block : reader.footer().rowGroups()) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                if (keyColumns.contains(chunk.getPath().toArray()[0])) {
                    bytes += chunk.getTotalSize();
                }
            }
        }
        return bytes;
    }

    private static long fileBytes(PartitionCommit current, String name) {
        return current.files().stream().filter(f -> f.name().equals(name)).mapToLong(DataFileEntry::bytes).sum();
    }

    /** The delta's rows to write, in order: keyed rows that are not deletes, then rows of a key-less archive. */
    private static List<Group> deltaRows(PartitionDelta delta) {
        List<Group> rows = new ArrayList<>(delta.rowsByKey().size() + delta.unkeyedRows().size());
        delta.rowsByKey().values().stream().filter(row -> !row.delete()).map(DeltaRow::row).forEach(rows::add);
        rows.addAll(delta.unkeyedRows());
        return rows;
    }

    private RollingFileWriter newWriter(DataFileStager stager) {
        return new RollingFileWriter(stager, archive.schema(), archive.canonicalFooter(), archive.descriptor().writer());
    }
}
