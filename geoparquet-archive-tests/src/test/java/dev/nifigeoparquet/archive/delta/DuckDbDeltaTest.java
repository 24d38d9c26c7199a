package dev.nifigeoparquet.archive.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.testing.CoveringBoxColumn;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A delta written by DuckDB with exactly the archive's columns and values fits an archive made from a parquet-java
 * schema: DuckDB annotates its integers ({@code int32 (INTEGER(32,true))} where the archive has a plain {@code int32}),
 * writes every column optional where the archive's are required, and writes a covering {@code bbox} struct of its own
 * (optional children, wrong values), which the archive's writer computes again from the geometry.
 */
class DuckDbDeltaTest {

    /** WKB of POINT (10 50). */
    private static final String POINT_HEX = "0101000000" + "0000000000002440" + "0000000000004940";

    @TempDir
    Path temp;

    @Test
    void aDuckDbDeltaWithTheArchivesColumnsIsAppliedAndItsBboxComputedAgain() throws Exception {
        GeoParquetArchive archive = parcelArchive();
        Path delta = duckDbDelta("delta.parquet", "1990", "2025");

        List<DeltaRow> rows = new DeltaReader(archive, WriteMode.UPSERT, null)
                .readParquet(new LocalInputFile(delta), "delta.parquet");
        String cell = archive.keyer()
                .cellOf(archive.geometryCodec().decode(rows.get(0).row(), 0), archive.sourceCrs());
        new ArchiveWriter(archive).apply(PartitionDelta.prepare(archive, cell, WriteMode.UPSERT, rows, null));

        List<List<Object>> stored = DuckDb.query(
                "SELECT parcel_id, year_built, tax_year, bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax "
                        + "FROM read_parquet(?)",
                temp.resolve("archive") + "/h3_cell=" + cell + "/*.parquet");
        assertEquals(List.of(List.of("p-1", 1990, 2025, 10.0, 50.0, 10.0, 50.0)), stored);
    }

    @Test
    void aNullInARequiredColumnIsRefusedNamingTheRow() throws Exception {
        DeltaRejectedException refused = refusal(duckDbDelta("nulls.parquet", "1990", "NULL::INTEGER"));
        assertTrue(
                refused.getMessage().contains("row 0") && refused.getMessage().contains("'tax_year' is null"),
                refused.getMessage());
    }

    @Test
    void anUnsignedColumnIsRefusedNamingTheField() throws Exception {
        DeltaRejectedException refused = refusal(duckDbDelta("unsigned.parquet", "1990::UINTEGER", "2025"));
        assertTrue(refused.getMessage().contains("field 'year_built'"), refused.getMessage());
    }

    /** Why the archive refuses to read a delta as an upsert. */
    private DeltaRejectedException refusal(Path delta) throws IOException {
        GeoParquetArchive archive = parcelArchive();
        return assertThrows(
                DeltaRejectedException.class,
                () -> new DeltaReader(archive, WriteMode.UPSERT, null)
                        .readParquet(
                                new LocalInputFile(delta), delta.getFileName().toString()));
    }

    /** An archive as parquet-java makes it: plain int32 columns, every column required, a covering bbox. */
    private GeoParquetArchive parcelArchive() throws IOException {
        MessageType schema = Types.buildMessage()
                .required(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("parcel_id")
                .required(PrimitiveTypeName.INT32)
                .named("year_built")
                .required(PrimitiveTypeName.INT32)
                .named("tax_year")
                .required(PrimitiveTypeName.BINARY)
                .named("geometry")
                .addField(CoveringBoxColumn.required("bbox"))
                .named("parcels");
        String geo = GeoMetadata.builder()
                .wkbColumn("geometry", List.of("Point"), null, "bbox")
                .build()
                .rawString();
        return ParcelArchives.create(temp.resolve("archive"), schema, geo);
    }

    /** One row written by DuckDB's own COPY, its bbox struct a wrong one of DuckDB's types. */
    private Path duckDbDelta(String name, String yearBuilt, String taxYear) throws SQLException {
        Path file = temp.resolve(name);
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:");
                Statement statement = connection.createStatement()) {
            statement.execute("COPY (SELECT 'p-1' AS parcel_id, " + yearBuilt + " AS year_built, " + taxYear
                    + " AS tax_year, from_hex('" + POINT_HEX + "') AS geometry, "
                    + "{'xmin': 0.0, 'ymin': 0.0, 'xmax': 0.0, 'ymax': 0.0} AS bbox) TO '" + file
                    + "' (FORMAT PARQUET)");
        }
        return file;
    }
}
