package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.LongFunction;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Small files merged into one by taking their plainly encoded columns' pages as they are stored, checked from the
 * outside: DuckDB reads every value of the merged file, its column chunks' sizes and its row-group statistics.
 */
class StoredPagesCopyTest {

    private static final int FILES = 13;
    private static final int ROWS_PER_FILE = 20;
    private static final WriterSettings SETTINGS = WriterSettings.defaults().withRowGroupRowCountLimit(200);

    @TempDir
    Path dir;

    @Test
    void mergedFileHoldsEveryValueWithTheStoredPagesAndRightStatistics() throws IOException {
        List<Path> inputs = writeSmallFiles();
        Path merged = dir.resolve("merged.parquet");
        Set<String> stored = merge(inputs, merged);

        assertEquals(Set.of("label", "geometry", "bbox"), stored, "every field but the one kept for the rows");
        String inputGlob = dir.resolve("in").toString() + "/*.parquet";
        String differing =
                "SET enable_geoparquet_conversion = false; SELECT count(*) FROM (SELECT * FROM read_parquet(?) EXCEPT ALL"
                        + " SELECT * FROM read_parquet(?))";
        assertEquals(0L, number(DuckDb.query(differing, inputGlob, merged.toString())));
        assertEquals(0L, number(DuckDb.query(differing, merged.toString(), inputGlob)));
        assertEquals(
                List.of(200L, 60L),
                DuckDb.query(
                                "SELECT any_value(row_group_num_rows) FROM parquet_metadata(?) GROUP BY row_group_id"
                                        + " ORDER BY row_group_id",
                                merged.toString())
                        .stream()
                        .map(row -> number(List.of(row)))
                        .toList(),
                "whole inputs per row group, filled to the row count");

        // A stored column's chunk is its inputs' pages: the same bytes, page headers included.
        for (String column : List.of("geometry", "bbox.xmin", "label")) {
            long inputBytes = number(DuckDb.query(
                    "SELECT sum(total_compressed_size) FROM parquet_metadata(?) WHERE path_in_schema = ?",
                    inputGlob,
                    column.replace("bbox.", "bbox, ")));
            long mergedBytes = number(DuckDb.query(
                    "SELECT sum(total_compressed_size) FROM parquet_metadata(?) WHERE path_in_schema = ?",
                    merged.toString(),
                    column.replace("bbox.", "bbox, ")));
            assertEquals(inputBytes, mergedBytes, column + ": the inputs' pages, byte for byte");
        }

        // Each row group's statistics are those of the rows it holds.
        List<List<Object>> statistics = DuckDb.query(
                "SELECT row_group_id, stats_min_value, stats_max_value, stats_null_count FROM parquet_metadata(?)"
                        + " WHERE path_in_schema = 'bbox, xmin' ORDER BY row_group_id",
                merged.toString());
        long firstRow = 0;
        List<Long> groupRows = List.of(200L, 60L);
        for (int group = 0; group < groupRows.size(); group++) {
            List<Object> actual = DuckDb.query(
                            "SELECT min(bbox.xmin), max(bbox.xmin), count(*) - count(bbox.xmin) FROM"
                                    + " read_parquet(?, file_row_number = true) WHERE file_row_number >= ?"
                                    + " AND file_row_number < ?",
                            merged.toString(),
                            firstRow,
                            firstRow + groupRows.get(group))
                    .get(0);
            List<Object> recorded = statistics.get(group);
            assertEquals(((Number) actual.get(0)).doubleValue(), Double.parseDouble((String) recorded.get(1)));
            assertEquals(((Number) actual.get(1)).doubleValue(), Double.parseDouble((String) recorded.get(2)));
            assertEquals(((Number) actual.get(2)).longValue(), ((Number) recorded.get(3)).longValue());
            firstRow += groupRows.get(group);
        }
        assertTrue(((Number) statistics.get(1).get(3)).longValue() > 0, "the rows with a null geometry have no bbox");

        Map<String, byte[]> footer = DuckDb.footerEntries(merged);
        for (Map.Entry<String, String> canonical : BoxRows.footer().asMap().entrySet()) {
            assertArrayEquals(
                    canonical.getValue().getBytes(StandardCharsets.UTF_8),
                    footer.get(canonical.getKey()),
                    canonical.getKey() + " is canonical byte for byte");
        }
    }

    @Test
    void aDamagedStoredPageFailsTheCopyNamingTheFile() throws IOException {
        List<Path> inputs = writeSmallFiles();
        Path damaged = inputs.get(4);
        List<Object> geometryPages = DuckDb.query(
                        "SELECT data_page_offset, total_compressed_size FROM parquet_metadata(?)"
                                + " WHERE path_in_schema = 'geometry'",
                        damaged.toString())
                .get(0);
        long inTheMiddle =
                ((Number) geometryPages.get(0)).longValue() + ((Number) geometryPages.get(1)).longValue() / 2;
        try (RandomAccessFile file = new RandomAccessFile(damaged.toFile(), "rw")) {
            file.seek(inTheMiddle);
            int b = file.read();
            file.seek(inTheMiddle);
            file.write(b ^ 0x5a);
        }

        ParquetFileException failure =
                assertThrows(ParquetFileException.class, () -> merge(inputs, dir.resolve("merged.parquet")));

        assertTrue(failure.getMessage().contains(damaged.toString()), failure.getMessage());
        assertTrue(failure.getMessage().contains("column geometry"), failure.getMessage());
        assertTrue(failure.getMessage().contains("checksum"), failure.getMessage());
    }

    @Test
    void rowGroupsTooLargeToStayWholeAreCopiedValueByValue() throws IOException {
        Path input = dir.resolve("large.parquet");
        Random random = new Random(3);
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(input), input.toString(), BoxRows.SCHEMA, BoxRows.footer(), SETTINGS)) {
            for (int i = 0; i < 150; i++) {
                writer.write(BoxRows.row(i, random, "feature " + i));
            }
            writer.finish();
        }
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(input);
                GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                        new LocalOutputFile(dir.resolve("out.parquet")),
                        "out.parquet",
                        BoxRows.SCHEMA,
                        BoxRows.footer(),
                        SETTINGS)) {
            assertFalse(reader.footer().rowGroups().isEmpty());
            assertEquals(Set.of(), writer.storedFieldsCopyable(reader.footer(), 0), "150 rows of a row group of 200");
        }
    }

    @Test
    void aTextColumnWhoseExtremesItsColumnIndexCutsIsCopiedValueByValueWithExactStatistics() throws IOException {
        // Labels of 70 bytes and more: the page index keeps 64 of them, the footer's statistics all.
        List<Path> inputs = writeSmallFiles(id -> "a label longer than a column index keeps, ".repeat(2) + id);
        Path merged = dir.resolve("merged.parquet");

        Set<String> stored = merge(inputs, merged);

        assertEquals(Set.of("id", "geometry", "bbox"), stored, "every field but the label");
        List<Object> recorded = DuckDb.query(
                        "SELECT min(stats_min_value), max(stats_max_value) FROM parquet_metadata(?)"
                                + " WHERE path_in_schema = 'label'",
                        merged.toString())
                .get(0);
        List<Object> actual = DuckDb.query("SELECT min(label), max(label) FROM read_parquet(?)", merged.toString())
                .get(0);
        assertEquals(actual, recorded, "the label statistics are the exact extremes");
    }

    private List<Path> writeSmallFiles() throws IOException {
        return writeSmallFiles(id -> "feature " + id);
    }

    private List<Path> writeSmallFiles(LongFunction<String> label) throws IOException {
        Path in = Files.createDirectories(dir.resolve("in"));
        List<Path> files = new ArrayList<>();
        Random random = new Random(7);
        for (int f = 0; f < FILES; f++) {
            Path file = in.resolve(String.format("part-%02d.parquet", f));
            try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                    new LocalOutputFile(file), file.toString(), BoxRows.SCHEMA, BoxRows.footer(), SETTINGS)) {
                for (int i = 0; i < ROWS_PER_FILE; i++) {
                    long id = (long) f * ROWS_PER_FILE + i;
                    writer.write(BoxRows.row(id, random, label.apply(id)));
                }
                writer.finish();
            }
            files.add(file);
        }
        return files;
    }

    /**
     * Merges the files as compaction does, encoded like the first (no dictionary where it has none), each row group's
     * stored columns as their pages; returns those fields.
     */
    private static Set<String> merge(List<Path> inputs, Path output) throws IOException {
        Set<String> stored = Set.of();
        ColumnEncodings encodings;
        try (GeoParquetFileReader first = GeoParquetFileReader.open(inputs.get(0))) {
            encodings = ColumnEncodings.defaults().likeFile(first.footer());
        }
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(output),
                output.toString(),
                BoxRows.SCHEMA,
                BoxRows.footer(),
                SETTINGS,
                encodings)) {
            for (Path input : inputs) {
                try (GeoParquetFileReader reader = GeoParquetFileReader.open(input)) {
                    for (int g = 0; g < reader.footer().rowGroupCount(); g++) {
                        stored = writer.storedFieldsCopyable(reader.footer(), g);
                        writer.copyRowGroup(reader.nextStoredRowGroup(stored));
                    }
                }
            }
            writer.finish();
        }
        return stored;
    }

    private static long number(List<List<Object>> result) {
        return ((Number) result.get(0).get(0)).longValue();
    }
}
