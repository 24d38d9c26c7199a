package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.ops.DeltaRouter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.WriteMode;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code apply}: routes delta files by H3 cell and applies them partition by partition. */
@Command(
        name = "apply",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        header = "Routes delta files by H3 cell and applies them partition by partition.",
        description = {
            "Routes the delta's rows to their H3 partitions (the cell of each geometry's centroid in EPSG:4326 at the "
                    + "archive's pinned resolution) and applies them partition by partition; partitions the delta does not touch are never opened.",
            "Deltas are GeoParquet files in the archive's schema and CRS, or GeoJSON FeatureCollections (.geojson, .json) "
                    + "whose properties name the archive's columns.",
            "A row that cannot be keyed refuses the whole delta, unless --unkeyable-rows names a file to set such rows aside in.",
            "Every partition commits atomically. Running the same delta again changes nothing."
        })
final class ApplyCommand extends ArchiveCommand {

    @Option(names = "--archive", required = true, paramLabel = "DIR", description = "The archive.")
    Path archive;

    @Option(
            names = "--mode",
            required = true,
            paramLabel = "MODE",
            description =
                    "append: new rows as a new file; upsert: merge on the key (the delta wins); "
                            + "delete: remove the delta's keys; replace: the delta becomes each touched partition. One of: ${COMPLETION-CANDIDATES}.")
    WriteMode mode;

    @Option(
            names = "--delta",
            required = true,
            arity = "1..*",
            paramLabel = "FILE",
            description = "Delta file(s), applied as one delta in order.")
    List<Path> deltas;

    @Option(
            names = "--delete-field",
            paramLabel = "FIELD",
            description =
                    "A boolean delta field whose true value deletes the row's key (upsert); the field is not stored.")
    String deleteField;

    @Option(
            names = "--delta-sequence",
            paramLabel = "N",
            description =
                    "Where this delta stands among the deltas that write the same keys, an integer >= 0 such as the night's "
                            + "date (20261201) or a time in milliseconds. A key's row is written only if it is not older than "
                            + "the archive's (its version, then the sequence; the delete of a key leaves its sequence behind), "
                            + "so a backlog of deltas applied late, twice or in any order leaves the archive that applying them "
                            + "in order leaves. Not for --mode replace.")
    Long deltaSequence;

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Threads rewriting the touched partitions in parallel (default: one per available core).")
    Integer threads;

    @Option(
            names = "--unkeyable-rows",
            paramLabel = "FILE.parquet",
            description =
                    "Apply the rows that can be keyed and write those that cannot (no geometry, an empty one, NaN or "
                            + "out-of-range coordinates, a geometry that is not one, a null key) to FILE, a GeoParquet file in the "
                            + "archive's columns with the reason in h3_keying_error and the row's delta_file and delta_row; the file "
                            + "is replaced, and holds no row when every row could be keyed. The exit code is 0 when the good rows were "
                            + "applied; a warning on stderr counts the rows set aside. Without it such a row refuses the whole delta "
                            + "(exit 2) and nothing is written.")
    Path unkeyableRows;

    @Override
    public Integer call() throws Exception {
        Progress progress = progress();
        requireSideFileApart();
        if (deltaSequence != null && mode == WriteMode.REPLACE) {
            throw new InputException("--delta-sequence cannot be used with --mode replace, which ignores what was "
                    + "written before; apply the replacement without a sequence");
        }
        if (deltaSequence != null && deltaSequence < 0) {
            throw new InputException("--delta-sequence must be 0 or more, not " + deltaSequence);
        }
        GeoParquetArchive opened = withThreads(openArchive(archive), threads);
        DeltaFiles files = new DeltaFiles(opened, mode, deleteField, progress);
        List<DeltaRow> rows = files.readAll(deltas);
        DeltaApplication application = new DeltaApplication(opened, progress);
        DeltaRouter.Routed routed = application.route(mode, rows, unkeyableRows != null);
        if (unkeyableRows != null) {
            UnkeyableRowsFile.write(unkeyableRows, opened, routed.unkeyable(), files::origin);
            if (!routed.unkeyable().isEmpty()) {
                err().printf(
                                "warning: %d of %d delta rows cannot be keyed and were not applied (%s); they are in %s%n",
                                routed.unkeyable().size(), rows.size(), reasons(routed.unkeyable()), unkeyableRows);
            }
        }
        DeltaApplication.Outcome outcome = application.apply(mode, routed, deltaSequence);
        OperationResult result = outcome.result();
        long total = opened.partitionCells().size();
        out().printf("applied %s delta of %d rows to %s%n", mode.name().toLowerCase(Locale.ROOT), rows.size(), archive);
        out().printf(
                        "  partitions touched: %d of %d%n",
                        result.partitionsTouched().size(), total);
        if (outcome.replayed() > 0) {
            out().printf("  already applied:    %d partitions (replay, unchanged)%n", outcome.replayed());
        }
        out().printf("  inserted:           %d%n", result.inserted());
        out().printf("  updated:            %d%n", result.updated());
        out().printf("  moved:              %d%n", result.moved());
        out().printf("  deleted:            %d%n", result.deleted());
        if (result.rows().olderVersionsSkipped() > 0) {
            out().printf(
                            "  older, left out:    %d (the archive holds a newer version of those keys)%n",
                            result.rows().olderVersionsSkipped());
        }
        out().printf("  rows net:           %+d%n", result.netRows());
        out().printf("  bytes written:      %d in %d files%n", result.bytesWritten(), result.filesWritten());
        if (unkeyableRows != null) {
            out().printf(
                            "  unkeyable:          %d rows, in %s%n",
                            routed.unkeyable().size(), unkeyableRows);
        }
        return ExitCodes.OK;
    }

    /** The side file may neither overwrite a delta being read nor land inside the archive, where it would be a stray file. */
    private void requireSideFileApart() {
        if (unkeyableRows == null) {
            return;
        }
        Path side = unkeyableRows.toAbsolutePath().normalize();
        for (Path delta : deltas) {
            if (side.equals(delta.toAbsolutePath().normalize())) {
                throw new InputException(
                        "--unkeyable-rows " + unkeyableRows + " is one of the deltas; name another file");
            }
        }
        if (side.startsWith(archive.toAbsolutePath().normalize())) {
            throw new InputException("--unkeyable-rows " + unkeyableRows + " is inside the archive " + archive
                    + "; name a file outside it");
        }
    }

    /** How many rows each reason set aside, e.g. {@code EMPTY_GEOMETRY: 2, NULL_KEY: 1}. */
    private static String reasons(List<DeltaRouter.Unkeyable> unkeyable) {
        Map<String, Long> counts = new TreeMap<>();
        unkeyable.forEach(row -> counts.merge(row.reason(), 1L, Long::sum));
        return counts.entrySet().stream()
                .map(e -> e.getKey() + ": " + e.getValue())
                .collect(Collectors.joining(", "));
    }
}
