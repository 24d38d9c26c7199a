package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRouter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Routes a whole delta to its partitions and applies it partition by partition, as the NiFi flow does with
 * RouteByH3Cell and UpsertGeoParquetPartition. Every partition's delta is validated before the first is written,
 * so a bad row changes nothing; rows that cannot be keyed refuse the delta, or are set aside when asked
 * ({@link #route}), as RouteByH3Cell sends them to failure. Each partition commits atomically on its own; if the run stops half way, running
 * it again completes it, because each partition's operation id (derived from its rows) makes a replay a no-op.
 * Partitions go to the engine {@value #PARTITIONS_PER_RUN} at a time, as UpsertGeoParquetPartition's default Batch
 * Size takes them, so they share the key-index work ({@link ArchiveWriter#applyAll}).
 */
final class DeltaApplication {

    static final int PARTITIONS_PER_RUN = ArchiveWriter.DEFAULT_PARTITIONS_PER_RUN;

    /**
     * What applying a delta did.
     *
     * @param routed   the delta as routed
     * @param result   the operation results of every partition, added up
     * @param replayed partitions whose delta had already been applied
     */
    record Outcome(DeltaRouter.Routed routed, OperationResult result, int replayed) {}

    private final GeoParquetArchive archive;
    private final Progress progress;

    DeltaApplication(GeoParquetArchive archive, Progress progress) {
        this.archive = archive;
        this.progress = progress;
    }

    Outcome apply(WriteMode mode, List<DeltaRow> rows) throws IOException {
        return apply(mode, route(mode, rows, false), null);
    }

    /**
     * Routes the delta; nothing is written.
     *
     * @param setAside true to set the rows that cannot be keyed aside ({@link DeltaRouter.Routed#unkeyable()}); false
     *                 to refuse the whole delta when there is one
     */
    DeltaRouter.Routed route(WriteMode mode, List<DeltaRow> rows, boolean setAside) {
        DeltaRouter router = new DeltaRouter(archive, mode);
        return setAside ? router.routeKeyable(rows) : router.route(rows);
    }

    /**
     * Applies a routed delta, partition by partition.
     *
     * @param sequence the delta's sequence (docs/archive-format.md, section 6.4); null for none
     */
    Outcome apply(WriteMode mode, DeltaRouter.Routed routed, Long sequence) throws IOException {
        progress.note(String.format(
                "routed %,d rows to %d partitions%s%s",
                routed.rows() - routed.deletions().size(),
                routed.byCell().size(),
                routed.deletions().isEmpty()
                        ? ""
                        : String.format(
                                " and %,d deletions by key", routed.deletions().size()),
                routed.unkeyable().isEmpty()
                        ? ""
                        : String.format(
                                "; %,d rows set aside, they cannot be keyed",
                                routed.unkeyable().size())));
        List<PartitionDelta.Request> requests = new ArrayList<>();
        for (Map.Entry<String, List<DeltaRow>> cell : routed.byCell().entrySet()) {
            requests.add(new PartitionDelta.Request(cell.getKey(), mode, cell.getValue(), null, sequence));
        }
        if (!routed.deletions().isEmpty()) {
            // Append keeps its mode, so the engine refuses the deletions, naming each, as it refuses them in a cell.
            WriteMode deletionMode = mode == WriteMode.APPEND ? WriteMode.APPEND : WriteMode.DELETE;
            requests.add(new PartitionDelta.Request(null, deletionMode, routed.deletions(), null, sequence));
        }
        List<PartitionDelta> deltas = Workers.valuesOf(PartitionDelta.prepareAll(archive, requests));
        ArchiveWriter writer = new ArchiveWriter(archive);
        // The deletions by key are one more step than the partitions routed to: the key index finds their partitions.
        String what = mode.name().toLowerCase(Locale.ROOT) + " partitions"
                + (routed.deletions().isEmpty() ? "" : " (and the deletions by key)");
        Progress.Counter counter = progress.counter(what, deltas.size());
        OperationResult total = null;
        int replayed = 0;
        for (int first = 0; first < deltas.size(); first += PARTITIONS_PER_RUN) {
            List<List<PartitionDelta>> run =
                    deltas.subList(first, Math.min(deltas.size(), first + PARTITIONS_PER_RUN)).stream()
                            .map(List::of)
                            .toList();
            for (ArchiveWriter.BatchOutcome outcome : writer.applyAll(run)) {
                OperationResult result = outcome.orThrow();
                if (result.replay()) {
                    replayed++;
                }
                total = total == null ? result : total.plus(result);
                counter.add(1);
            }
        }
        counter.finish(
                routed.deletions().isEmpty()
                        ? null
                        : String.format(
                                "%d partitions routed to, then %,d deletions by key in "
                                        + "the partitions the key index names",
                                routed.byCell().size(), routed.deletions().size()));
        if (total == null) {
            total = OperationResult.nothing("none");
        }
        return new Outcome(routed, total, replayed);
    }
}
