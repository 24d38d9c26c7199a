package dev.nifigeoparquet.archive.compaction;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.CommitOutcome;
import dev.nifigeoparquet.archive.commit.DataFileStager;
import dev.nifigeoparquet.archive.commit.LiveFiles;
import dev.nifigeoparquet.archive.commit.NewDataFile;
import dev.nifigeoparquet.archive.commit.PartitionChange;
import dev.nifigeoparquet.archive.commit.RollingFileWriter;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.error.PlanOutdatedException;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.RowChanges;
import dev.nifigeoparquet.archive.parquet.ColumnarRowGroup;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.StoredRowGroup;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.StorageCost;
import dev.nifigeoparquet.archive.storage.StorageMeter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import org.apache.parquet.example.data.Group;

/**
 * Executes compaction plans: rewrites each group of consecutive small files into files of the target size
 * through {@link RollingFileWriter} (so the output carries the archive's schema, canonical footer entries, codec,
 * level and row-group size, like any originally written file), and commits each group as one {@code COMPACT}
 * commit that supersedes its input files. Rows keep their count, and their order unless the options ask for
 * a spatial {@link RowOrder}.
 */
public final class Compactor {

    private final GeoParquetArchive archive;
    private final CompactionPlanner planner;
    private final WriterSettings writerSettings;
    private final RowOrder rowOrder;

    public Compactor(GeoParquetArchive archive) {
        this(archive, CompactionOptions.archiveDefaults());
    }

    public Compactor(GeoParquetArchive archive, CompactionOptions options) {
        this.archive = Objects.requireNonNull(archive, "archive");
        this.planner = new CompactionPlanner(
                atLeastStorageMinimumAge(
                        options.resolve(archive.descriptor()), archive.storage().minimumObjectAge()),
                options.rowOrder());
        this.writerSettings = archive.descriptor()
                .writer()
                .withTargetFileBytes(planner.policy().targetFileBytes());
        this.rowOrder = options.rowOrder();
    }

    /**
     * The storage's minimum object age (a cold storage class's minimum duration) is a floor under the policy's
     * minimum file age, so compaction never pays an early-deletion fee unless the storage was configured to allow it.
     */
    private static CompactionPolicy atLeastStorageMinimumAge(CompactionPolicy policy, Duration storageMinimum) {
        if (storageMinimum.compareTo(policy.minFileAge()) <= 0) {
            return policy;
        }
        return new CompactionPolicy(
                policy.minFiles(), policy.smallFileFraction(), policy.targetFileBytes(), storageMinimum);
    }

    public CompactionPolicy policy() {
        return planner.policy();
    }

    /** Plans one partition from its latest commit state. */
    public PartitionPlan plan(String cell) throws IOException {
        return planner.plan(archive.partitionState(cell), archive.clock().instant());
    }

    /** Plans every partition the archive tracks, from the commit states only. */
    public List<PartitionPlan> planArchive() throws IOException {
        List<PartitionPlan> plans = new ArrayList<>();
        for (String cell : archive.partitionCells()) {
            plans.add(plan(cell));
        }
        return plans;
    }

    /** Plans and compacts one partition; the result carries what planning and compacting cost on storage. */
    public PartitionCompaction compact(String cell) throws IOException {
        StorageMeter.Measured<PartitionCompaction> measured =
                StorageMeter.measure(() -> execute(plan(archive.requireCell(cell))));
        return measured.result().withCost(measured.cost());
    }

    /**
     * Plans every partition and compacts only those that qualify; the others are not touched (no recovery, no
     * write). Qualifying partitions are rewritten several at once on the archive's worker threads (each commits on its
     * own). A partition that fails is reported and the others go on.
     */
    public SweepResult sweep() throws IOException {
        return sweep(archive.partitionCells(), compaction -> {});
    }

    /**
     * Like {@link #sweep()}, over the partitions of {@code cells} only, in that order. Each partition is planned and
     * compacted on a worker thread; {@code onEach} hears of each as it ends, on the thread that compacted it, so it must
     * be thread-safe. A partition whose planning or compaction fails, an unknown one included, is reported failed.
     */
    public SweepResult sweep(List<String> cells, Consumer<PartitionCompaction> onEach) throws IOException {
        List<Workers.Outcome<PartitionCompaction>> outcomes = archive.workers().map(cells, cell -> {
            PartitionCompaction compaction = planAndExecuteReportingFailure(cell);
            onEach.accept(compaction);
            return compaction;
        });
        List<PartitionCompaction> results = new ArrayList<>(cells.size());
        for (int i = 0; i < cells.size(); i++) {
            Workers.Outcome<PartitionCompaction> outcome = outcomes.get(i);
            results.add(
                    outcome.failed()
                            ? PartitionCompaction.failed(cells.get(i), 0, outcome.failure())
                            : outcome.value());
        }
        return new SweepResult(results);
    }

    /** A failed partition's requests were billed too, so they are measured outside the failure. */
    private PartitionCompaction planAndExecuteReportingFailure(String cell) throws IOException {
        int[] liveFiles = {0};
        StorageMeter.Measured<PartitionCompaction> measured = StorageMeter.measure(() -> {
            try {
                PartitionPlan plan = plan(archive.requireCell(cell));
                liveFiles[0] = plan.liveFiles();
                return execute(plan);
            } catch (IOException | RuntimeException e) {
                return PartitionCompaction.failed(cell, liveFiles[0], e);
            }
        });
        return measured.result().withCost(measured.cost());
    }

    /**
     * Rewrites a plan's groups, one commit per group, and reports the partition's state afterwards with what it cost on
     * storage.
     */
    public PartitionCompaction execute(PartitionPlan plan) throws IOException {
        StorageMeter.Measured<PartitionCompaction> measured = StorageMeter.measure(() -> rewritePlan(plan));
        return measured.result().withCost(measured.cost());
    }

    private PartitionCompaction rewritePlan(PartitionPlan plan) throws IOException {
        if (!plan.qualifies()) {
            PartitionCommit state = archive.partitionState(plan.cell());
            return new PartitionCompaction(
                    plan.cell(),
                    plan.liveFiles(),
                    plan.liveFiles(),
                    state.rowCount(),
                    0,
                    0,
                    0,
                    0,
                    0,
                    plan.skipReason(),
                    null,
                    StorageCost.NONE);
        }
        long rowsRewritten = 0;
        long bytesRead = 0;
        long bytesWritten = 0;
        int commits = 0;
        int replays = 0;
        List<String> stale = new ArrayList<>();
        PartitionCommit after = null;
        for (FileGroup group : plan.groups()) {
            CommitOutcome outcome;
            try {
                // Compaction moves rows between files and changes no row: its entry records that explicitly.
                outcome = archive.committer()
                        .commit(
                                plan.cell(),
                                group.operationId(),
                                OperationType.COMPACT,
                                RowChanges.NONE,
                                (current, stager) -> rewrite(group, current, stager));
            } catch (PlanOutdatedException e) {
                stale.add(e.getMessage());
                continue;
            }
            after = outcome.after();
            if (outcome.replay()) {
                replays++;
                continue;
            }
            commits++;
            // What was read is what the commit's starting state held, which a concurrent commit may have changed since
            // the plan.
            List<DataFileEntry> read = group.liveIn(outcome.before());
            rowsRewritten += read.stream().mapToLong(DataFileEntry::rows).sum();
            bytesRead += read.stream().mapToLong(DataFileEntry::bytes).sum();
            bytesWritten += outcome.change().added().stream()
                    .mapToLong(NewDataFile::bytes)
                    .sum();
        }
        if (after == null) {
            after = archive.partitionState(plan.cell());
        }
        String skipReason = commits > 0
                ? null
                : replays > 0
                        ? "already compacted (replay of the same compaction)"
                        : "plan outdated by concurrent commits: " + String.join("; ", stale);
        return new PartitionCompaction(
                plan.cell(),
                plan.liveFiles(),
                after.files().size(),
                after.rowCount(),
                rowsRewritten,
                bytesRead,
                bytesWritten,
                commits,
                replays,
                skipReason,
                null,
                StorageCost.NONE);
    }

    /**
     * The update of one group, applied to the partition's current state (again on a newer state after a commit
     * race): the group's files must still be live and consecutive, or the plan is outdated.
     */
    private PartitionChange rewrite(FileGroup group, PartitionCommit current, DataFileStager stager)
            throws IOException {
        List<DataFileEntry> inputs = group.liveIn(current);
        if (inputs == null) {
            throw new PlanOutdatedException("files " + group.fileNames() + " of partition " + group.cell()
                    + " are no longer live and consecutive in version " + current.version());
        }
        List<NewDataFile> written;
        // The merged file takes the first input's name, so a plain reader never finds that name missing; the others go.
        RollingFileWriter output = new RollingFileWriter(
                        stager, archive.schema(), archive.canonicalFooter(), writerSettings)
                .replacing(List.of(group.files().get(0).name()));
        if (archive.workers().parallelism() > 1) {
            // Pages are compressed beside the reading and encoding: a third of the time on one thread otherwise.
            output.compressingAhead();
        }
        try (RollingFileWriter writer = output) {
            if (rowOrder != RowOrder.INPUT) {
                copyInSpatialChunks(current, inputs, writer);
            } else {
                for (DataFileEntry file : inputs) {
                    copyRows(current, file, writer, EVERY_ROW);
                }
            }
            written = writer.finish();
        }
        long rows = written.stream().mapToLong(NewDataFile::rows).sum();
        long committedRows = inputs.stream().mapToLong(DataFileEntry::rows).sum();
        if (rows != committedRows) {
            throw new IOException("Compaction of partition " + group.cell() + " wrote " + rows
                    + " rows but its input files " + group.fileNames() + " are committed with " + committedRows);
        }
        return new PartitionChange(written, group.fileNames());
    }

    /**
     * Writes the files' rows one spatial chunk after another, each chunk its own row group (no chunk exceeds the
     * archive's row-group row count). A file without a row of the chunk is not opened for it.
     */
    private void copyInSpatialChunks(PartitionCommit state, List<DataFileEntry> files, RollingFileWriter writer)
            throws IOException {
        SpatialChunks chunks = SpatialChunks.of(archive, state, files, writerSettings.rowGroupRowCount(), rowOrder);
        for (int chunk = 0; chunk < chunks.chunkCount(); chunk++) {
            for (int f = 0; f < files.size(); f++) {
                if (chunks.fileHolds(f, chunk)) {
                    int file = f;
                    int wanted = chunk;
                    copyRows(state, files.get(f), writer, row -> chunks.chunkOf(file, row) == wanted);
                }
            }
            writer.endRowGroup();
        }
    }

    /** Selects every row of a file, which is then copied row group by row group. */
    @SuppressWarnings("UnnecessaryLambda") // a sentinel: copyRows tells it apart from other predicates by identity
    private static final LongPredicate EVERY_ROW = row -> true;

    /**
     * Copies a file's rows that {@code keep} selects (by their 0-based index in the file) into the compacted output.
     * Files this engine wrote are copied column by column (their covering columns are right): all of a file's rows
     * ({@link #EVERY_ROW}) row group by row group, each column whose pages can be taken as they are stored so,
     * neither decoded nor compressed again (most of a partition's bytes: its geometries and covering boxes), the
     * others value by value. Other files, such as adopted ones, are copied row by row, so the writer recomputes
     * coverings.
     */
    private void copyRows(PartitionCommit state, DataFileEntry file, RollingFileWriter writer, LongPredicate keep)
            throws IOException {
        try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), state, file)) {
            requireArchiveSchema(reader);
            writer.encodeLike(reader.footer());
            long read = 0;
            boolean ours = GeoParquetFileWriter.wrote(reader.footer());
            if (ours && keep == EVERY_ROW) {
                for (int g = 0; g < reader.footer().rowGroupCount(); g++) {
                    StoredRowGroup group = reader.nextStoredRowGroup(writer.storedFieldsCopyable(reader.footer(), g));
                    writer.copyRowGroup(group);
                    read += group.rowCount();
                }
            } else if (ours) {
                for (ColumnarRowGroup group = reader.nextColumnarRowGroup();
                        group != null;
                        group = reader.nextColumnarRowGroup()) {
                    while (group.hasNext()) {
                        if (keep.test(read)) {
                            writer.copyRow(group);
                        } else {
                            group.skipNextRow();
                        }
                        read++;
                    }
                }
            } else {
                Iterator<Group> rows = reader.rows();
                while (rows.hasNext()) {
                    Group row = rows.next();
                    if (keep.test(read)) {
                        writer.write(row);
                    }
                    read++;
                }
            }
            if (read != file.rows()) {
                throw new ParquetFileException(
                        reader.footer().file(), "holds " + read + " rows but is committed with " + file.rows());
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private void requireArchiveSchema(GeoParquetFileReader reader) throws ParquetFileException {
        if (!reader.footer().schema().equals(archive.schema())) {
            throw new ParquetFileException(
                    reader.footer().file(),
                    "schema differs from the archive's, refusing to rewrite it under the archive's schema: "
                            + reader.footer().schema());
        }
    }
}
