package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.WriteMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.List;

/** {@code apply}: routes delta files by H3 cell and applies them partition by partition. */
@Command(name = "apply", mixinStandardHelpOptions = true, sortOptions = false,
        header = "Routes delta files by H3 cell and applies them partition by partition.",
        description = {"Routes the delta's rows to their H3 partitions (the cell of each geometry's centroid in EPSG:4326 at the "
                + "archive's pinned resolution) and applies them partition by partition; partitions the delta does not touch are never opened.",
                "Deltas are GeoParquet files in the archive's schema and CRS, or GeoJSON FeatureCollections (.geojson, .json) "
                        + "whose properties name the archive's columns.",
                "Every partition commits atomically. Running the same delta again changes nothing."})
final class ApplyCommand extends ArchiveCommand {

    @Option(names = "--archive", required = true, paramLabel = "DIR", description = "The archive.")
    Path archive;

    @Option(names = "--mode", required = true, paramLabel = "MODE",
            description = "append: new rows as a new file; upsert: merge on the key (the delta wins); "
                    + "delete: remove the delta's keys; replace: the delta becomes each touched partition. One of: ${COMPLETION-CANDIDATES}.")
    WriteMode mode;

    @Option(names = "--delta", required = true, arity = "1..*", paramLabel = "FILE", description = "Delta file(s), applied as one delta in order.")
    List<Path> deltas;

    @Option(names = "--delete-field", paramLabel = "FIELD",
            description = "A boolean delta field whose true value deletes the row's key (upsert); the field is not stored.")
    String deleteField;

    @Option(names = "--threads", paramLabel = "N",
            description = "Threads rewriting the touched partitions in parallel (default: one per available core).")
    Integer threads;

    @Override
    public Integer call() throws Exception {
        Progress progress = progress();
        GeoParquetArchive opened = withThreads(openArchive(archive), threads);
        List<DeltaRow> rows = new DeltaFiles(opened, mode, deleteField, progress).readAll(deltas);
        DeltaApplication.Outcome outcome = new DeltaApplication(opened, progress).apply(mode, rows);
        OperationResult result = outcome.result();
        long total = opened.partitionCells().size();
        out().printf("applied %s delta of %d rows to %s%n", mode.name().toLowerCase(java.util.Locale.ROOT), rows.size(), archive);
        out().printf("  partitions touched: %d of %d%n", result.partitionsTouched().size(), total);
        if (outcome.replayed() > 0) {
            out().printf("  already applied:    %d partitions (replay, unchanged)%n", outcome.replayed());
        }
        out().printf("  inserted:           %d%n", result.inserted());
        out().printf("  updated:            %d%n", result.updated());
        out().printf("  moved:              %d%n", result.moved());
        out().printf("  deleted:            %d%n", result.deleted());
        out().printf("  rows net:           %+d%n", result.netRows());
        out().printf("  bytes written:      %d in %d files%n", result.bytesWritten(), result.filesWritten());
        return ExitCodes.OK;
    }
}
