package dev.nifigeoparquet.benchmarks;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.delta.DeltaReader;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * A nightly delta: parcels to upsert and keys to delete, as the feed delivers them. Each change carries the cell
 * its geometry keys to (for a deletion, the last known geometry), which is what the routing stage computes.
 */
final class Delta {

    /** One change; {@code kind} says what the generator meant it to be, for the report. */
    record Change(Group row, String cell, boolean delete, Kind kind) {}

    enum Kind {
        UPDATE,
        NEW,
        MOVED,
        DELETE
    }

    private final List<Change> changes;

    Delta(List<Change> changes) {
        this.changes = List.copyOf(changes);
    }

    List<Change> changes() {
        return changes;
    }

    long count(Kind kind) {
        return changes.stream().filter(c -> c.kind() == kind).count();
    }

    /** The net change of the archive's row count this delta should cause. */
    long expectedNetRows() {
        return count(Kind.NEW) - count(Kind.DELETE);
    }

    Map<String, List<DeltaRow>> rowsByCell() {
        Map<String, List<DeltaRow>> byCell = new LinkedHashMap<>();
        for (Change change : changes) {
            byCell.computeIfAbsent(change.cell(), c -> new ArrayList<>())
                    .add(change.delete() ? DeltaRow.deletion(change.row()) : DeltaRow.upsert(change.row()));
        }
        return byCell;
    }

    /** UpsertGeoParquetPartition's default Batch Size: the FlowFiles, one per cell, it takes in one run. */
    static final int PARTITIONS_PER_RUN = 50;

    /**
     * The engine's incremental path as UpsertGeoParquetPartition takes a routed delta: one FlowFile per partition,
     * with its delta id, validated by {@link PartitionDelta#prepareAll} (every row re-keyed, the partitions side by
     * side on the archive's workers), up to its Batch Size per run, each run one {@link ArchiveWriter#applyAll}.
     */
    OperationResult applyIncrementally(GeoParquetArchive archive, WriteMode mode) throws IOException {
        return applyIncrementally(archive, mode, 1, PARTITIONS_PER_RUN);
    }

    /** Partitions per run when {@code tasks} concurrent tasks share the delta's partitions out evenly, one run each. */
    int partitionsPerTask(int tasks) {
        long cells = changes.stream().map(Change::cell).distinct().count();
        return (int) Math.max(1, (cells + tasks - 1) / tasks);
    }

    /**
     * With {@code tasks} threads, and at most {@code partitionsPerRun} partitions per run (1 is one operation per
     * partition, each with its own key-index lookup and journal commits).
     */
    OperationResult applyIncrementally(GeoParquetArchive archive, WriteMode mode, int tasks, int partitionsPerRun)
            throws IOException {
        List<List<Map.Entry<String, List<DeltaRow>>>> runs = new ArrayList<>();
        for (Map.Entry<String, List<DeltaRow>> cell : rowsByCell().entrySet()) {
            if (runs.isEmpty() || runs.get(runs.size() - 1).size() == partitionsPerRun) {
                runs.add(new ArrayList<>());
            }
            runs.get(runs.size() - 1).add(cell);
        }
        if (tasks == 1) {
            OperationResult total = null;
            for (List<Map.Entry<String, List<DeltaRow>>> run : runs) {
                OperationResult result = applyRun(archive, mode, run);
                total = total == null ? result : total.plus(result);
            }
            return total;
        }
        ExecutorService pool = Executors.newFixedThreadPool(tasks);
        try {
            List<Future<OperationResult>> results = new ArrayList<>();
            for (List<Map.Entry<String, List<DeltaRow>>> run : runs) {
                results.add(pool.submit(() -> applyRun(archive, mode, run)));
            }
            OperationResult total = null;
            for (Future<OperationResult> result : results) {
                OperationResult one = result.get();
                total = total == null ? one : total.plus(one);
            }
            return total;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private OperationResult applyRun(
            GeoParquetArchive archive, WriteMode mode, List<Map.Entry<String, List<DeltaRow>>> cells)
            throws IOException {
        // The engine derives each cell's id from its rows, inside the measured work, as the processors do.
        List<PartitionDelta.Request> requests = cells.stream()
                .map(cell -> new PartitionDelta.Request(cell.getKey(), mode, cell.getValue(), null))
                .toList();
        List<List<PartitionDelta>> batches = Workers.valuesOf(PartitionDelta.prepareAll(archive, requests)).stream()
                .map(List::of)
                .toList();
        OperationResult total = null;
        for (ArchiveWriter.BatchOutcome outcome : new ArchiveWriter(archive).applyAll(batches)) {
            total = total == null ? outcome.orThrow() : total.plus(outcome.orThrow());
        }
        return total;
    }

    /** The delta's file for other tools: the archive's columns plus {@code h3_cell} and {@code is_delete}. */
    static MessageType fileSchema() {
        return fileSchema(true);
    }

    private static MessageType fileSchema(boolean withCell) {
        List<Type> fields = new ArrayList<>(RowModel.current().schema().getFields());
        if (withCell) {
            fields.add(Types.required(PrimitiveTypeName.BINARY)
                    .as(LogicalTypeAnnotation.stringType())
                    .named("h3_cell"));
        }
        fields.add(Types.required(PrimitiveTypeName.BOOLEAN).named("is_delete"));
        return new MessageType("parcel_delta", fields);
    }

    void writeParquet(Path file) throws IOException {
        writeParquet(file, true);
    }

    /** The delta as {@code geoparquet-archive apply} takes it: the archive's columns and {@code is_delete}. */
    void writeParquetForTheCommandLine(Path file) throws IOException {
        writeParquet(file, false);
    }

    private void writeParquet(Path file, boolean withCell) throws IOException {
        MessageType schema = fileSchema(withCell);
        Files.createDirectories(file.getParent());
        Files.deleteIfExists(file);
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                schema,
                RowModel.current().footer(),
                WriterSettings.defaults())) {
            for (Change change : changes) {
                Group row = new SimpleGroup(schema);
                copyPrimitives(change.row(), row);
                if (withCell) {
                    row.add("h3_cell", change.cell());
                }
                row.add("is_delete", change.delete());
                writer.write(row);
            }
            writer.finish();
        }
    }

    /**
     * Copies the top-level primitive values of {@code from} into the fields of the same names of {@code to}. Struct
     * columns are left out: the only one, the covering bbox, is computed by the writer from the geometry.
     */
    private static void copyPrimitives(Group from, Group to) {
        for (int i = 0; i < from.getType().getFieldCount(); i++) {
            Type field = from.getType().getType(i);
            if (!field.isPrimitive()
                    || from.getFieldRepetitionCount(i) == 0
                    || !to.getType().containsField(field.getName())) {
                continue;
            }
            String name = field.getName();
            switch (field.asPrimitiveType().getPrimitiveTypeName()) {
                case BINARY, FIXED_LEN_BYTE_ARRAY -> to.add(name, from.getBinary(i, 0));
                case DOUBLE -> to.add(name, from.getDouble(i, 0));
                case FLOAT -> to.add(name, from.getFloat(i, 0));
                case INT64 -> to.add(name, from.getLong(i, 0));
                case INT32 -> to.add(name, from.getInteger(i, 0));
                case BOOLEAN -> to.add(name, from.getBoolean(i, 0));
                default -> throw new IllegalStateException("unexpected column type in " + from.getType());
            }
        }
    }

    /**
     * Reads a file written by {@link #writeParquet} back (for the child JVMs of the memory scenario), as the command line
     * reads a delta: through the engine's {@link DeltaReader}, which checks its CRS and schema and ignores its
     * {@code h3_cell} column. Each change's cell is computed again from its geometry (a deletion's, its last known one).
     */
    static Delta readParquet(Path file, GeoParquetArchive archive) throws IOException {
        List<DeltaRow> rows =
                new DeltaReader(archive, WriteMode.UPSERT, "is_delete").read(new LocalInputFile(file), file.toString());
        GeometryCodec codec = archive.geometryCodec();
        List<Change> changes = new ArrayList<>(rows.size());
        long index = 0;
        for (DeltaRow row : rows) {
            String cell = archive.keyer().cellOf(codec.decode(row.row(), index++), archive.sourceCrs());
            changes.add(new Change(row.row(), cell, row.delete(), row.delete() ? Kind.DELETE : Kind.UPDATE));
        }
        return new Delta(changes);
    }
}
