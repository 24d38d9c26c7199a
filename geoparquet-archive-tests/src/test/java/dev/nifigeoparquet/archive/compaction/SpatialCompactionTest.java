package dev.nifigeoparquet.archive.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;

/**
 * Compaction in a spatial row order, checked from the outside: DuckDB reads the compacted file's rows with their row
 * numbers and its row-group metadata; each row's position comes from the generator, not from the engine.
 */
class SpatialCompactionTest {

    private static final Instant START = Instant.parse("2026-01-05T10:00:00Z");
    private static final int FILES = 10;
    private static final int ROWS_PER_FILE = 37;

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(
            value = RowOrder.class,
            names = {"HILBERT", "TILES"})
    void rowGroupsOfTheOrderedPartitionCoverSmallAreasAndHoldTheSameRows(RowOrder order) throws IOException {
        Map<Long, Coordinate> where = positionsOfGeneratedRows();
        Compacted input = compact("input-order", RowOrder.INPUT);
        Compacted ordered = compact(order.optionValue() + "-order", order);

        assertEquals(where.keySet(), input.rowGroupOfId().keySet(), "the input-order compaction keeps every row");
        assertEquals(where.keySet(), ordered.rowGroupOfId().keySet(), "the ordered compaction keeps every row, once");
        int rows = FILES * ROWS_PER_FILE;
        int needed = (rows - 1) / GeneratedArchive.ROW_GROUP_ROWS + 1;
        assertEquals(needed, input.rowsPerRowGroup().size(), "input order fills row groups of the archive's row count");
        // Spatial orders spread the rows evenly: the needed row groups along the curve, a near-square grid of tiles.
        int slabs = (int) Math.ceil(Math.sqrt(needed));
        int expected = order == RowOrder.TILES ? slabs * ((needed - 1) / slabs + 1) : needed;
        assertEquals(
                expected,
                ordered.rowsPerRowGroup().size(),
                ordered.rowsPerRowGroup().toString());
        LongSummaryStatistics sizes = ordered.rowsPerRowGroup().values().stream()
                .mapToLong(Long::longValue)
                .summaryStatistics();
        assertEquals(rows, sizes.getSum());
        assertTrue(sizes.getMax() <= GeneratedArchive.ROW_GROUP_ROWS, "never above the archive's row count: " + sizes);
        assertTrue(sizes.getMax() - sizes.getMin() <= 2, "row groups of even size, no remainder sliver: " + sizes);
        assertArrayEquals(
                GeneratedArchive.GEO.getBytes(StandardCharsets.UTF_8),
                DuckDb.footerEntries(ordered.file()).get(FooterEntries.GEO),
                "the canonical geo bytes, verbatim");

        double inputArea = totalRowGroupArea(input, where);
        double orderedArea = totalRowGroupArea(ordered, where);
        assertTrue(
                orderedArea < inputArea / 3,
                "ordered row groups cover " + orderedArea + " square degrees in all, unordered " + inputArea);

        // A small query box, as a reader pruning by row-group extents sees it.
        Envelope query = new Envelope(9.6, 9.8, 49.6, 49.8);
        long inputHits = rowGroupsIntersecting(input, where, query);
        long orderedHits = rowGroupsIntersecting(ordered, where, query);
        assertEquals(needed, inputHits, "unordered, every row group spans the partition");
        assertTrue(
                orderedHits <= inputHits / 4,
                "ordered: " + orderedHits + " of " + ordered.rowsPerRowGroup().size() + " row groups, unordered "
                        + inputHits);
    }

    @Test
    void aSpatialOrderRanksTheWholeRunOfSmallFilesAndSplitsItIntoFilesOfItsOwnArea() throws IOException {
        Map<Long, Coordinate> where = positionsOfGeneratedRows();
        Map<RowOrder, Double> fileAreas = new HashMap<>();
        for (RowOrder order : List.of(RowOrder.INPUT, RowOrder.TILES)) {
            Path root = temp.resolve("small-target-" + order.optionValue());
            GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), new TestClock(START));
            GeneratedArchive.fill(archive, 0, 0, FILES, ROWS_PER_FILE);
            String cell = GeneratedArchive.cellOf(0);
            long largest = archive.partitionState(cell).files().stream()
                    .mapToLong(DataFileEntry::bytes)
                    .max()
                    .orElseThrow();
            Compactor compactor = new Compactor(
                    archive,
                    CompactionOptions.archiveDefaults()
                            .withTargetFileBytes(largest * 3 + largest / 2)
                            .withRowOrder(order));
            PartitionPlan plan = compactor.plan(cell);
            assertEquals(
                    order == RowOrder.INPUT ? List.of(3, 3, 3) : List.of(FILES),
                    plan.groups().stream().map(group -> group.files().size()).toList(),
                    order + ": groups of the target size in input order, one group ranked as a whole otherwise");
            compactor.execute(plan);
            List<String> files = archive.partitionState(cell).fileNames();
            assertTrue(files.size() >= 2, order + " writes files of the target size: " + files);
            double area = 0;
            long rows = 0;
            for (String name : files) {
                Envelope extent = new Envelope();
                for (List<Object> row : DuckDb.query(
                        "SELECT id FROM read_parquet(?)",
                        root.resolve(ArchiveLayout.dataFile(cell, name)).toString())) {
                    extent.expandToInclude(where.get(((Number) row.get(0)).longValue()));
                    rows++;
                }
                area += extent.getArea();
            }
            assertEquals(where.size(), rows, order + " keeps every row");
            fileAreas.put(order, area);
        }
        // In tiles, the files hold slabs of the partition side by side; in input order each spans all of it.
        assertTrue(
                fileAreas.get(RowOrder.TILES) < fileAreas.get(RowOrder.INPUT) / 2,
                "the files' extents add up to " + fileAreas);
    }

    @Test
    void theRowOrderIsAnOptionByName() {
        assertEquals(RowOrder.INPUT, CompactionOptions.archiveDefaults().rowOrder());
        assertEquals(
                RowOrder.HILBERT,
                CompactionOptions.fromMap(Map.of(CompactionOptions.ROW_ORDER, "Hilbert"))
                        .rowOrder());
        assertEquals(
                RowOrder.TILES,
                CompactionOptions.fromMap(Map.of(CompactionOptions.ROW_ORDER, "tiles"))
                        .rowOrder());
        RejectedInputException unknown = assertThrows(
                RejectedInputException.class,
                () -> CompactionOptions.fromMap(Map.of(CompactionOptions.ROW_ORDER, "z-order")));
        assertTrue(unknown.getMessage().contains("z-order"), unknown.getMessage());
    }

    private record Compacted(Path file, Map<Long, Integer> rowGroupOfId, Map<Integer, Long> rowsPerRowGroup) {}

    private Compacted compact(String name, RowOrder order) throws IOException {
        Path root = temp.resolve(name);
        GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), new TestClock(START));
        GeneratedArchive.fill(archive, 0, 0, FILES, ROWS_PER_FILE);
        String cell = GeneratedArchive.cellOf(0);
        PartitionCompaction result =
                new Compactor(archive, CompactionOptions.archiveDefaults().withRowOrder(order)).compact(cell);
        assertEquals(1, result.commits(), result.toString());
        assertEquals(1, result.filesAfter());
        Path file = root.resolve(ArchiveLayout.dataFile(
                cell, archive.partitionState(cell).files().get(0).name()));

        Map<Integer, Long> rowsPerRowGroup = new TreeMap<>();
        for (List<Object> row : DuckDb.query(
                "SELECT DISTINCT row_group_id, row_group_num_rows FROM parquet_metadata(?)", file.toString())) {
            rowsPerRowGroup.put(((Number) row.get(0)).intValue(), ((Number) row.get(1)).longValue());
        }
        // Row groups may differ in size: a row's group is found from the groups' cumulative row counts.
        TreeMap<Long, Integer> groupStartingAt = new TreeMap<>();
        long start = 0;
        for (Map.Entry<Integer, Long> group : rowsPerRowGroup.entrySet()) {
            groupStartingAt.put(start, group.getKey());
            start += group.getValue();
        }
        Map<Long, Integer> rowGroupOfId = new HashMap<>();
        for (List<Object> row : DuckDb.query(
                "SELECT id, file_row_number FROM read_parquet(?, file_row_number = true)", file.toString())) {
            long id = ((Number) row.get(0)).longValue();
            int rowGroup = groupStartingAt
                    .floorEntry(((Number) row.get(1)).longValue())
                    .getValue();
            assertEquals(null, rowGroupOfId.put(id, rowGroup), "id " + id + " read once");
        }
        return new Compacted(file, rowGroupOfId, rowsPerRowGroup);
    }

    private static Map<Integer, Envelope> rowGroupExtents(Compacted compacted, Map<Long, Coordinate> where) {
        Map<Integer, Envelope> extents = new TreeMap<>();
        compacted
                .rowGroupOfId()
                .forEach((id, rowGroup) ->
                        extents.computeIfAbsent(rowGroup, g -> new Envelope()).expandToInclude(where.get(id)));
        return extents;
    }

    private static double totalRowGroupArea(Compacted compacted, Map<Long, Coordinate> where) {
        return rowGroupExtents(compacted, where).values().stream()
                .mapToDouble(Envelope::getArea)
                .sum();
    }

    private static long rowGroupsIntersecting(Compacted compacted, Map<Long, Coordinate> where, Envelope query) {
        return rowGroupExtents(compacted, where).values().stream()
                .filter(query::intersects)
                .count();
    }

    /** Each row's position by id, as {@link GeneratedArchive#fill} generates them file by file. */
    private static Map<Long, Coordinate> positionsOfGeneratedRows() {
        Map<Long, Coordinate> where = new HashMap<>();
        for (int f = 0; f < FILES; f++) {
            for (Group row : GeneratedArchive.rows(0, (long) f * ROWS_PER_FILE, ROWS_PER_FILE)) {
                where.put(row.getLong("id", 0), point(row));
            }
        }
        return where;
    }

    private static Coordinate point(Group row) {
        try {
            return new WKBReader().read(row.getBinary("geometry", 0).getBytes()).getCoordinate();
        } catch (ParseException e) {
            throw new IllegalStateException(e);
        }
    }
}
