package dev.nifigeoparquet.archive.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRouter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.WriterFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deltas as the tools operators script with write them (pyarrow, GeoPandas, DuckDB, polars: every column optional,
 * strings and timestamps annotated each in its own way, polars without a {@code geo} block) apply to an archive made
 * from a parquet-java schema whose columns are required: each delta's 24 parcels land in the archive, read back by
 * DuckDB with the values the tool wrote.
 */
class DeltasFromOtherToolsTest {

    @TempDir
    Path temp;

    @ParameterizedTest
    @ValueSource(
            strings = {
                "geopandas-parcels.parquet",
                "duckdb-parcels.parquet",
                "polars-parcels.parquet",
                "pyarrow-plain-nostats-gzip.parquet",
                "pyarrow-dictionary-pagev2-zstd.parquet"
            })
    void aDeltaWrittenByAnotherToolIsAppliedWithTheValuesItHolds(String file) throws Exception {
        Path delta = WriterFiles.copy(file, temp.resolve(file));
        GeoParquetArchive archive = archiveOfRequiredColumns();

        List<DeltaRow> rows =
                new DeltaReader(archive, WriteMode.UPSERT, null).readParquet(new LocalInputFile(delta), file);
        DeltaRouter.Routed routed = new DeltaRouter(archive, WriteMode.UPSERT).route(rows);
        ArchiveWriter writer = new ArchiveWriter(archive);
        for (Map.Entry<String, List<DeltaRow>> cell : routed.byCell().entrySet()) {
            writer.apply(PartitionDelta.prepare(archive, cell.getKey(), WriteMode.UPSERT, cell.getValue(), null));
        }

        String values =
                "SELECT parcel_id, land_use, area_m2, epoch_us(updated_at), md5(geometry::BLOB) FROM read_parquet(?)"
                        + " ORDER BY parcel_id";
        List<List<Object>> written = DuckDb.query(values, delta.toString());
        assertEquals(24, written.size(), "the tool's file holds the 24 parcels");
        assertEquals(written, DuckDb.query(values, temp.resolve("archive") + "/*/*.parquet"));
    }

    /** An archive as parquet-java makes it from a template: every column required, the GeoPandas file's CRS. */
    private GeoParquetArchive archiveOfRequiredColumns() throws Exception {
        MessageType schema = Types.buildMessage()
                .required(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("parcel_id")
                .required(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("land_use")
                .required(PrimitiveTypeName.DOUBLE)
                .named("area_m2")
                .required(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS))
                .named("updated_at")
                .required(PrimitiveTypeName.BINARY)
                .named("geometry")
                .named("parcels");
        byte[] geoPandasGeo = DuckDb.footerEntries(WriterFiles.file("geopandas-parcels.parquet"))
                .get("geo");
        JsonNode crs = new ObjectMapper()
                .readTree(new String(geoPandasGeo, StandardCharsets.UTF_8))
                .path("columns")
                .path("geometry")
                .path("crs");
        String geo = GeoMetadata.builder()
                .wkbColumn("geometry", List.of("Polygon"), crs, null)
                .build()
                .rawString();
        return ParcelArchives.create(temp.resolve("archive"), schema, geo);
    }
}
