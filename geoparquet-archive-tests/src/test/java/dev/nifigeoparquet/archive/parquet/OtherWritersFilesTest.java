package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.WriterFiles;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The footer checks accept every legitimate file of the writers users have: zero row groups, 0-row row groups (with
 * and without statistics, at the end or between others), dictionary and plain pages, page v2, no statistics,
 * files from pyarrow, GeoPandas, DuckDB, polars and parquet-java. Each is read in full and compared with DuckDB.
 */
class OtherWritersFilesTest {

    @TempDir
    Path temp;

    static List<String> files() {
        return WriterFiles.parquetFiles();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void readsInFullWhatDuckDbReads(String relative) throws Exception {
        Path file = WriterFiles.copy(
                relative, temp.resolve(Path.of(relative).getFileName().toString()));
        long expected = DuckDb.countRows(file);
        List<String> keys = new ArrayList<>();
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
            assertEquals(expected, reader.footer().rowCount(), "rows the footer declares");
            for (Iterator<Group> rows = reader.rows(); rows.hasNext(); ) {
                keys.add(rows.next().getString("parcel_id", 0));
            }
        }
        assertEquals(
                DuckDb.query("SELECT parcel_id FROM read_parquet(?)", file.toString()).stream()
                        .map(row -> (String) row.get(0))
                        .toList(),
                keys,
                relative);
    }

    @Test
    void parquetJavaFilesWithoutRowsRead() throws Exception {
        Path noRows = temp.resolve("parquet-java-empty.parquet");
        ArchiveFixtures.writeFile(noRows, SyntheticParcels.schema(), SyntheticParcels.footer(), List.of());
        assertEquals(0, DuckDb.countRows(noRows));
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(noRows)) {
            assertEquals(0, reader.footer().rowCount());
            assertEquals(false, reader.rows().hasNext());
        }
    }
}
