package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.compaction.CompactionOptions;
import dev.nifigeoparquet.archive.compaction.Compactor;
import dev.nifigeoparquet.archive.compaction.PartitionCompaction;
import dev.nifigeoparquet.archive.compaction.RowOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Scenario 3's reader-pruning measure: its partition of the most small files, compacted in each {@link RowOrder} (input,
 * Hilbert curve, tiles) with the archive's row-group size, then small bounding-box queries against each through DuckDB. For every query box, the row groups a
 * reader pruning by the covering {@code bbox} statistics must read (DuckDB's {@code parquet_metadata}: each row
 * group's min {@code xmin}, max {@code xmax}, min {@code ymin}, max {@code ymax} against the box) and their compressed
 * bytes; and the time of DuckDB's own filtered count over all boxes, best of three, whose counts must agree.
 */
final class BboxPruning {

    private static final int QUERY_BOXES = 40;

    /** Half the side added around a sampled parcel's bbox: about 150 to 220 m at European latitudes. */
    private static final double MARGIN_DEGREES = 0.002;

    private static final int REPEATS = 3;

    private BboxPruning() {}

    private record Box(double xmin, double ymin, double xmax, double ymax) {}

    /** One row order's queries: row groups and bytes read per query, the best time of all queries, rows matched. */
    private record Pruning(double rowGroupsRead, double bytesRead, double seconds, long matched) {}

    private record RowGroupExtent(double xmin, double ymin, double xmax, double ymax, long bytes) {
        boolean intersects(Box box) {
            return xmin <= box.xmax() && xmax >= box.xmin() && ymin <= box.ymax() && ymax >= box.ymin();
        }
    }

    /**
     * Measures on partition {@code cell} of the archive at {@code root} (left as it is: each order compacts a linked
     * copy), with the archive's own row-group size.
     */
    static void run(Path root, String cell, long seed, Path work, DuckDb duck, ObjectNode out) throws Exception {
        GeoParquetArchive archive = Archives.open(root);
        out.put("cell", cell);
        out.put("files", archive.partitionState(cell).files().size());
        out.put("rows", archive.partitionState(cell).rowCount());
        out.put("rowGroupRows", archive.descriptor().writer().rowGroupRowCount());

        ObjectNode orders = out.putObject("orders");
        List<Box> boxes = null;
        Map<RowOrder, Pruning> pruning = new EnumMap<>(RowOrder.class);
        for (RowOrder order : RowOrder.values()) {
            Path copy = work.resolve("pruning-" + order.optionValue());
            Archives.linkCopy(root, copy);
            Compactor compactor = new Compactor(
                    Archives.open(copy),
                    CompactionOptions.archiveDefaults().withMinFiles(2).withRowOrder(order));
            Probe.Timed<PartitionCompaction> compacted = Probe.measure(() -> compactor.compact(cell));
            String glob = DuckDb.literal(copy.resolve("h3_cell=" + cell).toAbsolutePath() + "/*.parquet");
            if (boxes == null) {
                boxes = sampleBoxes(duck, glob, seed);
            }
            List<RowGroupExtent> rowGroups = rowGroups(duck, glob);
            long read = 0;
            long bytes = 0;
            for (Box box : boxes) {
                for (RowGroupExtent rowGroup : rowGroups) {
                    if (rowGroup.intersects(box)) {
                        read++;
                        bytes += rowGroup.bytes();
                    }
                }
            }
            double best = Double.MAX_VALUE;
            long rows = 0;
            for (int repeat = 0; repeat < REPEATS; repeat++) {
                long start = System.nanoTime();
                rows = 0;
                for (Box box : boxes) {
                    rows += duck.count(
                            "SELECT count(*) FROM read_parquet(" + glob + ") WHERE bbox.xmin <= " + box.xmax()
                                    + " AND bbox.xmax >= " + box.xmin() + " AND bbox.ymin <= " + box.ymax()
                                    + " AND bbox.ymax >= " + box.ymin());
                }
                best = Math.min(best, (System.nanoTime() - start) / 1e9);
            }
            Pruning measured = new Pruning(read / (double) boxes.size(), bytes / (double) boxes.size(), best, rows);
            pruning.put(order, measured);
            ObjectNode o = orders.putObject(order.optionValue());
            o.put("compactionSeconds", compacted.measurement().seconds());
            o.put("filesAfter", compacted.value().filesAfter());
            o.put("bytesWritten", compacted.value().bytesWritten());
            o.put("rowGroups", rowGroups.size());
            o.put("rowGroupsReadPerQuery", measured.rowGroupsRead());
            o.put("bytesReadPerQuery", measured.bytesRead());
            o.put("queriesSeconds", best);
            o.put("rowsMatched", rows);
        }
        out.put("queryBoxes", boxes.size());
        out.put("marginDegrees", MARGIN_DEGREES);
        Pruning input = pruning.get(RowOrder.INPUT);
        for (RowOrder order : List.of(RowOrder.HILBERT, RowOrder.TILES)) {
            String name = order == RowOrder.HILBERT ? "Hilbert" : "Tiles";
            Pruning ordered = pruning.get(order);
            out.put("rowGroupsRead" + name + "OverInput", ordered.rowGroupsRead() / input.rowGroupsRead());
            // Spatial orders may cut more, smaller row groups (an even grid of tiles): bytes say what a reader reads.
            out.put("bytesRead" + name + "OverInput", ordered.bytesRead() / input.bytesRead());
            out.put("queryTime" + name + "OverInput", ordered.seconds() / input.seconds());
            out.put(
                    "compactionTime" + name + "OverInput",
                    orders.path(order.optionValue()).path("compactionSeconds").asDouble()
                            / orders.path("input").path("compactionSeconds").asDouble());
            if (ordered.matched() != input.matched()) {
                throw new IllegalStateException("the bbox queries matched " + input.matched()
                        + " rows in input order and " + ordered.matched() + " in " + order.optionValue() + " order");
            }
        }
        out.put("rowsMatchedAgree", true);
        for (RowOrder order : RowOrder.values()) {
            Path copy = work.resolve("pruning-" + order.optionValue());
            if (Files.exists(copy)) {
                Archives.deleteTree(copy);
            }
        }
    }

    /** Query boxes around parcels DuckDB samples from the partition, the same for both orders. */
    private static List<Box> sampleBoxes(DuckDb duck, String glob, long seed) throws Exception {
        List<Box> boxes = new ArrayList<>();
        for (List<Object> row : duck.query("SELECT bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax FROM read_parquet(" + glob
                + ") USING SAMPLE reservoir(" + QUERY_BOXES + " ROWS) REPEATABLE (" + (seed % 1000) + ")")) {
            boxes.add(new Box(
                    number(row.get(0)) - MARGIN_DEGREES,
                    number(row.get(1)) - MARGIN_DEGREES,
                    number(row.get(2)) + MARGIN_DEGREES,
                    number(row.get(3)) + MARGIN_DEGREES));
        }
        return boxes;
    }

    /** Each row group's covering extent from its column statistics, and its compressed bytes, as DuckDB reads them. */
    private static List<RowGroupExtent> rowGroups(DuckDb duck, String glob) throws Exception {
        List<RowGroupExtent> extents = new ArrayList<>();
        for (List<Object> row : duck.query("SELECT file_name, row_group_id,"
                + " min(CASE WHEN path_in_schema = 'bbox, xmin' THEN TRY_CAST(stats_min AS DOUBLE) END),"
                + " min(CASE WHEN path_in_schema = 'bbox, ymin' THEN TRY_CAST(stats_min AS DOUBLE) END),"
                + " max(CASE WHEN path_in_schema = 'bbox, xmax' THEN TRY_CAST(stats_max AS DOUBLE) END),"
                + " max(CASE WHEN path_in_schema = 'bbox, ymax' THEN TRY_CAST(stats_max AS DOUBLE) END),"
                + " sum(total_compressed_size)"
                + " FROM parquet_metadata(" + glob + ") GROUP BY file_name, row_group_id")) {
            if (row.get(2) == null || row.get(3) == null || row.get(4) == null || row.get(5) == null) {
                throw new IllegalStateException(
                        "row group " + row.get(1) + " of " + row.get(0) + " has no bbox statistics: " + row);
            }
            extents.add(new RowGroupExtent(
                    number(row.get(2)),
                    number(row.get(3)),
                    number(row.get(4)),
                    number(row.get(5)),
                    ((Number) row.get(6)).longValue()));
        }
        return extents;
    }

    private static double number(Object value) {
        return ((Number) value).doubleValue();
    }
}
