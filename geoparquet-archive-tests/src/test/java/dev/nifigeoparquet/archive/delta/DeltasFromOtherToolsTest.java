package dev.nifigeoparquet.archive.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.adoption.AdoptionOptions;
import dev.nifigeoparquet.archive.adoption.ArchiveAdopter;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRouter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.WriterFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Deltas as the tools operators script with write them (pyarrow, GeoPandas, DuckDB, polars: every column optional,
 * strings and timestamps annotated each in its own way, polars without a {@code geo} block) apply to an archive made
 * from a parquet-java schema whose columns are required: each delta's 24 parcels land in the archive, read back by
 * DuckDB with the values the tool wrote. The same holds for an archive adopted from parquet-java's files of required
 * columns.
 */
class DeltasFromOtherToolsTest {

    @TempDir
    Path temp;

    /** Each tool's file, into an archive made from the template and into one adopted from parquet-java's files. */
    static Stream<Arguments> toolFilesAndArchives() {
        return Stream.of(
                        "geopandas-parcels.parquet",
                        "duckdb-parcels.parquet",
                        "polars-parcels.parquet",
                        "pyarrow-plain-nostats-gzip.parquet",
                        "pyarrow-dictionary-pagev2-zstd.parquet")
                .flatMap(file -> Stream.of(Arguments.of(file, "template"), Arguments.of(file, "adoption")));
    }

    @ParameterizedTest(name = "{0} into an archive made by {1}")
    @MethodSource("toolFilesAndArchives")
    void aDeltaWrittenByAnotherToolIsAppliedWithTheValuesItHolds(String file, String madeBy) throws Exception {
        Path delta = WriterFiles.copy(file, temp.resolve(file));
        GeoParquetArchive archive;
        if (madeBy.equals("template")) {
            archive = archiveOfRequiredColumns(temp.resolve("archive"));
        } else {
            // parquet-java's files of the same parcels (every column required), adopted as a plain directory.
            Path made = temp.resolve("made");
            apply(archiveOfRequiredColumns(made), delta, file);
            Path adopted = temp.resolve("archive");
            try (Stream<Path> partitions = Files.list(made)) {
                for (Path partition : partitions
                        .filter(dir -> dir.getFileName().toString().startsWith("h3_cell="))
                        .toList()) {
                    Files.createDirectories(adopted.resolve(partition.getFileName()));
                    try (Stream<Path> files = Files.list(partition)) {
                        for (Path data : files.toList()) {
                            Files.copy(
                                    data,
                                    adopted.resolve(partition.getFileName()).resolve(data.getFileName()));
                        }
                    }
                }
            }
            ArchiveAdopter.adopt(
                    new LocalArchiveStorage(adopted), AdoptionOptions.withKey("parcel_id"), Clock.systemUTC());
            archive = GeoParquetArchive.open(new LocalArchiveStorage(adopted));
            assertTrue(
                    archive.schema().getType("land_use").isRepetition(Type.Repetition.REQUIRED),
                    "the adopted archive's columns are required: " + archive.schema());
        }

        apply(archive, delta, file);

        String values =
                "SELECT parcel_id, land_use, area_m2, epoch_us(updated_at), md5(geometry::BLOB) FROM read_parquet(?)"
                        + " ORDER BY parcel_id";
        List<List<Object>> written = DuckDb.query(values, delta.toString());
        assertEquals(24, written.size(), "the tool's file holds the 24 parcels");
        assertEquals(written, DuckDb.query(values, temp.resolve("archive") + "/*/*.parquet"));
    }

    /** Applies the tool's file as an upsert, each partition it lands in once. */
    private static void apply(GeoParquetArchive archive, Path delta, String name) throws Exception {
        List<DeltaRow> rows =
                new DeltaReader(archive, WriteMode.UPSERT, null).readParquet(new LocalInputFile(delta), name);
        DeltaRouter.Routed routed = new DeltaRouter(archive, WriteMode.UPSERT).route(rows);
        ArchiveWriter writer = new ArchiveWriter(archive);
        for (Map.Entry<String, List<DeltaRow>> cell : routed.byCell().entrySet()) {
            writer.apply(PartitionDelta.prepare(archive, cell.getKey(), WriteMode.UPSERT, cell.getValue(), null));
        }
    }

    /** An archive as parquet-java makes it from a template: every column required, the GeoPandas file's CRS. */
    private GeoParquetArchive archiveOfRequiredColumns(Path root) throws Exception {
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
        return ParcelArchives.create(root, schema, geo);
    }
}
