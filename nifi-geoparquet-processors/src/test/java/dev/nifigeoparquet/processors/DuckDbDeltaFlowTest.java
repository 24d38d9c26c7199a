package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delta as an operator scripts it with DuckDB, with the archive's columns and values: DuckDB annotates its integers
 * and timestamps, writes every column optional and no {@code geo} metadata. RouteByH3Cell and
 * UpsertGeoParquetPartition take it as it is.
 */
class DuckDbDeltaFlowTest {

    /** WKB of a parcel: POLYGON ((-122.4 37.8, -122.399 37.8, -122.399 37.801, -122.4 37.801, -122.4 37.8)). */
    private static final String PARCEL_HEX = "01030000000100000005000000"
            + "9a99999999995ec06666666666e64240a8c64b3789995ec06666666666e64240a8c64b3789995ec04a0c022b87e64240"
            + "9a99999999995ec04a0c022b87e642409a99999999995ec06666666666e64240";

    @TempDir
    Path dir;

    @Test
    void aDuckDbDeltaIsRoutedAndUpserted() throws Exception {
        Path root = dir.resolve("archive");
        ParcelArchives parcels = ParcelArchives.create(root, 200);
        long before = parcels.duckDbCount();
        Path delta = dir.resolve("duckdb.parquet");
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement()) {
            statement.execute("COPY (SELECT 'duck-1' AS parcel_id, 'park' AS land_use, 1234.5 :: DOUBLE AS area_m2, "
                    + "TIMESTAMPTZ '2026-06-01 00:00:00+00' AS updated_at, from_hex('" + PARCEL_HEX
                    + "') AS geometry) TO '" + delta + "' (FORMAT PARQUET)");
        }

        List<MockFlowFile> routed = ChainFixtures.routeGeoParquet(root, delta);
        assertEquals(1, routed.size());
        TestRunner upsert = ChainFixtures.upsert(root, GeoParquetReader::new);
        ChainFixtures.pass(routed, upsert);
        upsert.run();

        assertEquals(
                List.of(),
                upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE).stream()
                        .map(flowFile -> flowFile.getAttribute("error.message"))
                        .toList());
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS, 1);
        assertEquals(before + 1, parcels.duckDbCount());
        assertEquals(
                List.of(List.of("park", 1234.5)),
                DuckDb.query(
                        "SELECT land_use, area_m2 FROM read_parquet(?) WHERE parcel_id = 'duck-1'",
                        root + "/*/*.parquet"));
    }
}
