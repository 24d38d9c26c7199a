package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.DataFileStager;
import dev.nifigeoparquet.archive.commit.LiveFiles;
import dev.nifigeoparquet.archive.commit.NewDataFile;
import dev.nifigeoparquet.archive.commit.PartitionChange;
import dev.nifigeoparquet.archive.commit.RollingFileWriter;
import dev.nifigeoparquet.archive.error.CorruptDataException;
import dev.nifigeoparquet.archive.error.StalePlanException;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.ops.RunPlan.PartitionWork;
import dev.nifigeoparquet.archive.parquet.ColumnEncodings;
import dev.nifigeoparquet.archive.parquet.ColumnarRowGroup;
import dev.nifigeoparquet.archive.parquet.DistinctColumns;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.Type;

/**
 * Carries out one partition's part of a run: rewrites only the files holding a key the run replaces or removes,
 * streaming them row group by row group, then adds the new rows at the end; or, for a Replace, writes the new rows
 * and supersedes every file. Memory holds one row group, never a partition.
 */
final class PartitionRewriter {

    private final GeoParquetArchive archive;

    PartitionRewriter(GeoParquetArchive archive) {
        this.archive = archive;
    }

    /** What a rewrite did: its change to the partition, and the bytes of the files it read. */
    record Rewritten(PartitionChange change, long bytesRead) {}

    /**
     * Rewrites the partition's files as {@code work} says and stages the new ones.
     *
     * @param current the partition's state, the one the work was planned on
     * @return the files added and superseded, and the bytes read
     */
    Rewritten rewrite(PartitionCommit current, PartitionWork work, DataFileStager stager) throws IOException {
        if (work.replaceAll()) {
            try (RollingFileWriter writer = newWriter(stager, work.appended()).replacing(current.fileNames())) {
                for (Group row : work.appended()) {
                    writer.write(row);
                }
                return new Rewritten(
                        new PartitionChange(
                                current.files().isEmpty() ? writer.finish() : writer.finishKeepingAFile(),
                                current.fileNames()),
                        0);
            }
        }
        // Each rewritten file is replaced by its own new version under its name, the new rows going into the last one:
        // a plain reader then sees every file old or new, and each key once.
        List<String> rewritten = work.filesInOrder();
        Set<FeatureKey> consumed = new HashSet<>();
        FeatureKey.Extractor keys = archive.keyExtractor();
        List<NewDataFile> written = new ArrayList<>();
        long bytesRead = 0;
        Map<String, DataFileEntry> live = new HashMap<>();
        current.files().forEach(file -> live.put(file.name(), file));
        for (int i = 0; i < rewritten.size(); i++) {
            DataFileEntry file = live.get(rewritten.get(i));
            try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), current, file);
                    RollingFileWriter writer = newWriter(
                                    stager, ColumnEncodings.defaults().likeFile(reader.footer()))
                            .replacing(List.of(file.name()))) {
                bytesRead += file.bytes();
                if (!copyColumnwise(reader, work, keys, consumed, writer)) {
                    for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                        Group kept = outcome(it.next(), work, keys, consumed);
                        if (kept != null) {
                            writer.write(kept);
                        }
                    }
                }
                boolean last = i == rewritten.size() - 1;
                if (last) {
                    requireAllConsumed(current, work, consumed);
                    for (Group row : work.appended()) {
                        writer.write(row);
                    }
                }
                boolean partitionEmptied = last
                        && written.isEmpty()
                        && rewritten.size() == current.files().size();
                written.addAll(partitionEmptied ? writer.finishKeepingAFile() : writer.finish());
            }
        }
        if (rewritten.isEmpty() && !work.appended().isEmpty()) {
            try (RollingFileWriter writer = newWriter(stager, work.appended())) {
                for (Group row : work.appended()) {
                    writer.write(row);
                }
                written.addAll(writer.finish());
            }
        }
        return new Rewritten(new PartitionChange(written, rewritten), bytesRead);
    }

    /**
     * Every key the scan found must have been met. One that was not means the files changed after the scan: another
     * writer replaced a file in place with content of the same size (a conflict, planned again on its commit), or, with
     * no newer commit, the files were changed outside the archive (damage).
     */
    private void requireAllConsumed(PartitionCommit current, PartitionWork work, Set<FeatureKey> consumed)
            throws IOException {
        int expected = work.replacements().size() + work.removals().size();
        if (consumed.size() == expected) {
            return;
        }
        String missing = "does not hold " + (expected - consumed.size()) + " of the keys its key scan found";
        if (archive.partitionState(current.cell()).version() != current.version()) {
            throw new StalePlanException(current.cell(), "version " + current.version() + " " + missing);
        }
        throw new CorruptDataException("Partition " + current.cell() + " version " + current.version() + " " + missing
                + ", and no newer commit replaced its files: they were changed outside the archive");
    }

    /**
     * Copies a file's rows, column by column for the rows the run leaves alone (most of them): only the key columns are
     * read per row. For files this engine wrote with the archive's schema and top-level key columns; false, having read
     * nothing, for any other file, which then takes the row path.
     */
    private boolean copyColumnwise(
            GeoParquetFileReader reader,
            PartitionWork work,
            FeatureKey.Extractor keys,
            Set<FeatureKey> consumed,
            RollingFileWriter writer)
            throws IOException {
        List<String> probed = keys.columns();
        if (!GeoParquetFileWriter.wrote(reader.footer())
                || !reader.footer().schema().equals(archive.schema())
                || !probed.stream()
                        .allMatch(column -> archive.schema().containsField(column)
                                && archive.schema().getType(column).isPrimitive()
                                && !archive.schema().getType(column).isRepetition(Type.Repetition.REPEATED))) {
            return false;
        }
        for (ColumnarRowGroup group = reader.nextColumnarRowGroup();
                group != null;
                group = reader.nextColumnarRowGroup()) {
            FeatureKey.Extractor peekedKeys = FeatureKey.extractor(group.peekSchema(probed), probed);
            while (group.hasNext()) {
                Group existing = group.peek(probed);
                Group kept = outcome(existing, work, peekedKeys, consumed);
                if (kept == existing) {
                    writer.copyRow(group);
                } else {
                    group.skipNextRow();
                    if (kept != null) {
                        writer.write(kept);
                    }
                }
            }
        }
        return true;
    }

    /**
     * What becomes of a stored row: itself when the run leaves it alone, the delta's row when that replaces it, null
     * when it is removed. {@code existing} needs only the key columns.
     */
    private static Group outcome(
            Group existing, PartitionWork work, FeatureKey.Extractor keys, Set<FeatureKey> consumed) {
        FeatureKey key = keys.keyOf(existing);
        if (key == null) {
            return existing;
        }
        Group replacement = work.replacements().get(key);
        if (replacement != null) {
            consumed.add(key);
            return replacement;
        }
        if (work.removals().contains(key)) {
            consumed.add(key);
            return null;
        }
        return existing;
    }

    /** A writer of new files holding {@code rows}: without a dictionary where their first rows are nearly all distinct. */
    private RollingFileWriter newWriter(DataFileStager stager, List<Group> rows) {
        return newWriter(
                stager, ColumnEncodings.defaults().withoutDictionaryOn(DistinctColumns.of(archive.schema(), rows)));
    }

    private RollingFileWriter newWriter(DataFileStager stager, ColumnEncodings encodings) {
        return new RollingFileWriter(
                stager,
                archive.schema(),
                archive.canonicalFooter(),
                archive.descriptor().writer(),
                encodings);
    }
}
