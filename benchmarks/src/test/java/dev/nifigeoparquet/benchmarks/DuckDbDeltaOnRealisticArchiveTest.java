package dev.nifigeoparquet.benchmarks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.delta.DeltaReader;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRouter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edit an operator scripts with DuckDB against the benchmark's realistic parcel archive (23 columns made from a
 * parquet-java schema, required and optional, a date, a timestamp, a covering {@code bbox}): read some parcels of the
 * archive, change two integer columns, {@code COPY} the rows to a delta. DuckDB writes its integers annotated, every
 * column optional and the {@code bbox} children optional; the delta applies, and DuckDB reads the archive back with
 * exactly the rows it wrote, the other parcels untouched.
 */
class DuckDbDeltaOnRealisticArchiveTest {

    @TempDir
    Path dir;

    @Test
    void rowsDuckDbCopiedOutOfTheArchiveAndEditedApplyAsItWroteThem() throws Exception {
        RowModel.use(RowModel.REALISTIC);
        Path root = dir.resolve("archive");
        ParcelArchive.build(root, 11, 2, 3_000, 7);
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        String archiveFiles = root + "/*/*.parquet";
        String columns = RowModel.REALISTIC.columns().stream()
                .map(column -> switch (column) {
                    case RowModel.GEOMETRY -> "md5(" + column + "::BLOB) AS " + column;
                    case RowModel.BBOX -> "bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax";
                    default -> column;
                })
                .collect(Collectors.joining(", "));
        String everyColumn =
                "SELECT " + columns + " FROM read_parquet(?, hive_partitioning = false) ORDER BY " + RowModel.KEY;
        List<List<Object>> before = DuckDb.query(everyColumn, archiveFiles);

        Path delta = dir.resolve("delta.parquet");
        try (Connection duckDb = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = duckDb.createStatement()) {
            statement.execute("COPY (SELECT * REPLACE (coalesce(year_built, 1900) + 1 AS year_built,"
                    + " tax_year + 1 AS tax_year) FROM read_parquet('" + archiveFiles + "', hive_partitioning = false)"
                    + " USING SAMPLE 40 ROWS) TO '" + delta + "' (FORMAT PARQUET)");
        }

        String schemaOf = "SELECT name, repetition_type, converted_type FROM parquet_schema(?)"
                + " WHERE name IN ('year_built', 'tax_year', 'xmin') ORDER BY name";
        assertEquals(
                List.of(
                        List.of("tax_year", "REQUIRED", "null"),
                        List.of("xmin", "REQUIRED", "null"),
                        List.of("year_built", "OPTIONAL", "null")),
                nullsAsText(DuckDb.query(
                        schemaOf,
                        archiveFiles.replace("*/*.parquet", "")
                                + ArchiveLayout.partitionDirectory(
                                        archive.partitionCells().get(0)) + "/*.parquet")),
                "the archive: plain integers, tax_year and the box's children required");
        assertEquals(
                List.of(
                        List.of("tax_year", "OPTIONAL", "INT_32"),
                        List.of("xmin", "OPTIONAL", "null"),
                        List.of("year_built", "OPTIONAL", "INT_32")),
                nullsAsText(DuckDb.query(schemaOf, delta.toString())),
                "DuckDB's delta: annotated integers, every column optional");

        List<List<Object>> expected = DuckDb.query(
                "SELECT " + columns + " FROM (SELECT * FROM read_parquet(?, hive_partitioning = false) WHERE "
                        + RowModel.KEY + " NOT IN (SELECT " + RowModel.KEY + " FROM read_parquet(?))"
                        + " UNION ALL SELECT * FROM read_parquet(?)) ORDER BY " + RowModel.KEY,
                archiveFiles,
                delta.toString(),
                delta.toString());

        List<DeltaRow> rows =
                new DeltaReader(archive, WriteMode.UPSERT, null).readParquet(new LocalInputFile(delta), "delta");
        DeltaRouter.Routed routed = new DeltaRouter(archive, WriteMode.UPSERT).route(rows);
        ArchiveWriter writer = new ArchiveWriter(archive);
        for (Map.Entry<String, List<DeltaRow>> cell : routed.byCell().entrySet()) {
            writer.apply(PartitionDelta.prepare(archive, cell.getKey(), WriteMode.UPSERT, cell.getValue(), null));
        }

        List<List<Object>> after = DuckDb.query(everyColumn, archiveFiles);
        assertEquals(before.size(), after.size(), "an update adds no row");
        assertNotEquals(before, after, "the edits are in the archive");
        for (int row = 0; row < after.size(); row++) {
            assertEquals(expected.get(row), after.get(row), "row " + row + " is DuckDB's, or the archive's before");
        }
    }

    private static List<List<String>> nullsAsText(List<List<Object>> rows) {
        return rows.stream()
                .map(row -> row.stream().map(String::valueOf).toList())
                .toList();
    }
}
