package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKBWriter;

/**
 * An archive of native Parquet GEOMETRY files without a {@code geo} block, the GeoParquet 2.0 direction: the logical
 * type's CRS ({@code srid:3857} here, Web Mercator metres) is the archive's canonical CRS. It is created, appended to,
 * upserted, compacted and verified, and a directory of such files is adopted; every data file keeps the logical type
 * and no {@code geo} block, and all of them carry the same schema and footer entries.
 */
class NativeGeometryArchiveCommandTest {

    private static final String CRS = "srid:3857";
    private static final double EARTH_RADIUS = 6378137;
    private static final GeometryFactory FACTORY = new GeometryFactory();

    @TempDir
    Path temp;

    static MessageType schema() {
        return Types.buildMessage()
                .required(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("parcel_id")
                .required(PrimitiveTypeName.DOUBLE)
                .named("area_m2")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geometryType(CRS))
                .named("geometry")
                .named("parcels");
    }

    /** Parcels of 40 m squares around Lyon, Grenoble and Geneva, in Web Mercator. */
    static List<Group> parcels(long seed, int from, int to, double area) {
        double[][] towns = {{4.835, 45.764}, {5.724, 45.188}, {6.143, 46.204}};
        Random random = new Random(seed);
        List<Group> rows = new ArrayList<>();
        for (int i = from; i < to; i++) {
            double[] town = towns[i % towns.length];
            double lon = town[0] + random.nextGaussian() * 0.05;
            double lat = town[1] + random.nextGaussian() * 0.05;
            double x = EARTH_RADIUS * Math.toRadians(lon);
            double y = EARTH_RADIUS * Math.log(Math.tan(Math.PI / 4 + Math.toRadians(lat) / 2));
            Group row = new SimpleGroup(schema());
            row.add("parcel_id", "p-" + i);
            row.add("area_m2", area);
            row.add(
                    "geometry",
                    Binary.fromConstantByteArray(new WKBWriter().write(FACTORY.createPolygon(new Coordinate[] {
                        new Coordinate(x, y),
                        new Coordinate(x + 40, y),
                        new Coordinate(x + 40, y + 40),
                        new Coordinate(x, y + 40),
                        new Coordinate(x, y)
                    }))));
            rows.add(row);
        }
        return rows;
    }

    static Path write(Path file, List<Group> rows) throws IOException {
        Files.createDirectories(file.getParent());
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                schema(),
                FooterEntries.canonicalOf(Map.of()),
                WriterSettings.defaults())) {
            for (Group row : rows) {
                writer.write(row);
            }
            writer.finish();
        }
        return file;
    }

    @Test
    void initAppendUpsertCompactAndVerifyWithoutAGeoBlock() throws Exception {
        Path archive = temp.resolve("parcels");
        Path baseline = write(temp.resolve("baseline.parquet"), parcels(1, 0, 120, 1600));
        Cli.run("init", "--archive", archive, "--template", baseline, "--key", "parcel_id", "--h3-resolution", 5)
                .expect(0);
        Cli.run("apply", "--archive", archive, "--mode", "append", "--delta", baseline, "-q")
                .expect(0);
        Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "append",
                        "--delta",
                        write(temp.resolve("more.parquet"), parcels(2, 120, 180, 1600)),
                        "-q")
                .expect(0);
        List<Group> edits = parcels(1, 0, 10, 1234);
        Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        write(temp.resolve("edits.parquet"), edits),
                        "-q")
                .expect(0);
        assertTrue(
                dataFiles(archive).size() > partitions(archive),
                "appends left partitions with several files to compact");
        Cli.run("compact", "--archive", archive, "--min-files", 2, "-q").expect(0);
        assertEquals(partitions(archive), dataFiles(archive).size(), "one file per partition after compaction");

        JsonNode report = Cli.run("verify", "--archive", archive, "--json", "--check-placement", "--expect-count", 180)
                .expect(0)
                .json();
        assertTrue(report.get("consistent").booleanValue(), report.toString());
        assertTrue(report.get("crs").asText().contains("3857"), report.toString());
        Map<String, Double> areas = Parcels.areas(archive);
        assertEquals(180, areas.size());
        assertEquals(1234.0, areas.get("p-3"));
        assertEquals(1600.0, areas.get("p-30"));
        assertOneNativeFooter(archive);
        assertDuckDbReadsTheNativeType(archive);

        // The canonical CRS is the logical type's, read from its srid form.
        GeoParquetArchive opened = GeoParquetArchive.open(new LocalArchiveStorage(archive));
        assertEquals("EPSG:3857", opened.sourceCrs().authorityCode());
    }

    @Test
    void adoptsADirectoryOfNativeGeometryFilesAndUpsertsIntoIt() throws Exception {
        // The cells come from an archive of the same files, so the directory is laid out as any H3 writer would.
        Path reference = temp.resolve("reference");
        Path baseline = write(temp.resolve("baseline.parquet"), parcels(3, 0, 90, 1600));
        Cli.run("init", "--archive", reference, "--template", baseline, "--key", "parcel_id", "--h3-resolution", 5)
                .expect(0);
        GeoParquetArchive keyed = GeoParquetArchive.open(new LocalArchiveStorage(reference));
        Map<String, List<Group>> byCell = new TreeMap<>();
        WKBReader wkb = new WKBReader();
        for (Group row : parcels(3, 0, 90, 1600)) {
            String cell =
                    keyed.keyer().cellOf(wkb.read(row.getBinary("geometry", 0).getBytes()), keyed.sourceCrs());
            byCell.computeIfAbsent(cell, c -> new ArrayList<>()).add(row);
        }
        Path adopted = temp.resolve("adopted");
        for (Map.Entry<String, List<Group>> cell : byCell.entrySet()) {
            write(
                    adopted.resolve(ArchiveLayout.PARTITION_COLUMN + "=" + cell.getKey())
                            .resolve("part-0.parquet"),
                    cell.getValue());
        }

        Cli.run("adopt", "--archive", adopted, "--key", "parcel_id", "-q").expect(0);
        JsonNode report = Cli.run("verify", "--archive", adopted, "--json", "--check-placement", "--expect-count", 90)
                .expect(0)
                .json();
        assertTrue(report.get("consistent").booleanValue(), report.toString());
        Cli.run(
                        "apply",
                        "--archive",
                        adopted,
                        "--mode",
                        "upsert",
                        "--delta",
                        write(temp.resolve("edits.parquet"), parcels(3, 0, 5, 99)),
                        "-q")
                .expect(0);
        report = Cli.run("verify", "--archive", adopted, "--json", "--check-placement", "--expect-count", 90)
                .expect(0)
                .json();
        assertTrue(report.get("consistent").booleanValue(), report.toString());
        assertEquals(99.0, Parcels.areas(adopted).get("p-2"));
        assertOneNativeFooter(adopted);
    }

    /**
     * {@code init --native-geometry}: a GeoParquet 1.1 template's WKB column is also typed as Parquet GEOMETRY, with
     * the geo block's CRS (the OGC:CRS84 default, so no crs parameter), and every file the archive writes carries both
     * forms. GeoParquet 1.1 deltas (a plain binary column) and native ones (the logical type, no geo block) both apply.
     */
    @Test
    void nativeGeometryTogetherWithTheGeoBlock() throws Exception {
        Path archive = temp.resolve("both");
        Parcels.initKeyed(archive, temp, "--h3-resolution", 5, "--native-geometry");
        GeoParquetArchive opened = GeoParquetArchive.open(new LocalArchiveStorage(archive));
        assertEquals(
                LogicalTypeAnnotation.geometryType(null),
                opened.schema().getType(SyntheticParcels.GEOMETRY).getLogicalTypeAnnotation());
        assertTrue(opened.canonicalFooter().geo() != null, "the geo block is kept");

        List<Group> baseline = Parcels.generate(11, 0, 150);
        Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "append",
                        "--delta",
                        Parcels.write(temp.resolve("baseline.parquet"), SyntheticParcels.schema(), baseline),
                        "-q")
                .expect(0);
        List<Group> night = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            night.add(Parcels.deltaRow(baseline.get(i), 4321, false));
        }
        Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        Parcels.write(temp.resolve("night.parquet"), NightlyDelta.schema(), night),
                        "--delete-field",
                        NightlyDelta.DELETE_MARKER,
                        "-q")
                .expect(0);
        List<Group> nativeRows = new ArrayList<>();
        for (Group parcel : Parcels.generate(12, 500, 510)) {
            Group row = new SimpleGroup(opened.schema());
            for (int field = 0; field < opened.schema().getFieldCount(); field++) {
                if (parcel.getFieldRepetitionCount(field) > 0) {
                    switch (opened.schema().getType(field).asPrimitiveType().getPrimitiveTypeName()) {
                        case BINARY -> row.add(field, parcel.getBinary(field, 0));
                        case DOUBLE -> row.add(field, parcel.getDouble(field, 0));
                        case INT64 -> row.add(field, parcel.getLong(field, 0));
                        default -> throw new IllegalStateException();
                    }
                }
            }
            nativeRows.add(row);
        }
        Path nativeDelta = temp.resolve("native.parquet");
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(nativeDelta),
                nativeDelta.toString(),
                opened.schema(),
                FooterEntries.canonicalOf(Map.of()),
                WriterSettings.defaults())) {
            for (Group row : nativeRows) {
                writer.write(row);
            }
            writer.finish();
        }
        Cli.run("apply", "--archive", archive, "--mode", "upsert", "--delta", nativeDelta, "-q")
                .expect(0);
        Cli.run("compact", "--archive", archive, "--min-files", 2, "-q").expect(0);

        JsonNode report = Cli.run("verify", "--archive", archive, "--json", "--check-placement", "--expect-count", 160)
                .expect(0)
                .json();
        assertTrue(report.get("consistent").booleanValue(), report.toString());
        Map<String, Double> areas = Parcels.areas(archive);
        assertEquals(160, areas.size());
        assertEquals(4321.0, areas.get(Parcels.key(baseline.get(2))));
        for (Path file : dataFiles(archive)) {
            try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
                ParquetFooter footer = reader.footer();
                assertEquals(
                        opened.canonicalFooter().geo(),
                        footer.keyValues().get(FooterEntries.GEO),
                        file + " keeps the geo block");
                assertEquals(
                        LogicalTypeAnnotation.geometryType(null),
                        footer.schema().getType(SyntheticParcels.GEOMETRY).getLogicalTypeAnnotation(),
                        file + " types the column natively");
            }
        }

        assertDuckDbReadsTheNativeType(archive);

        Path again = temp.resolve("again");
        Cli.run("init", "--archive", again, "--template", nativeDelta, "--h3-resolution", 5, "--native-geometry", "-q")
                .expect(0);
        assertEquals(
                opened.schema(),
                GeoParquetArchive.open(new LocalArchiveStorage(again)).schema(),
                "a column typed natively already is left as it is");
    }

    /** Every data file: the GEOMETRY logical type with the archive's crs, no geo block, one schema and footer for all. */
    private static void assertOneNativeFooter(Path archive) throws IOException {
        Set<MessageType> schemas = new HashSet<>();
        Set<Map<String, String>> footers = new HashSet<>();
        for (Path file : dataFiles(archive)) {
            try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
                ParquetFooter footer = reader.footer();
                assertFalse(footer.keyValues().containsKey(FooterEntries.GEO), file + " has no geo block");
                assertEquals(
                        LogicalTypeAnnotation.geometryType(CRS),
                        footer.schema().getType("geometry").getLogicalTypeAnnotation(),
                        file.toString());
                schemas.add(footer.schema());
                footers.add(new LinkedHashMap<>(footer.canonicalEntries().asMap()));
            }
        }
        assertEquals(1, schemas.size(), "one schema: " + schemas);
        assertEquals(1, footers.size(), "one set of footer entries: " + footers);
    }

    /** DuckDB types the column by the logical type; GeoPandas, pyarrow and GDAL read the geo block where there is one. */
    private static void assertDuckDbReadsTheNativeType(Path archive) {
        List<List<Object>> types = DuckDb.query(
                "SELECT DISTINCT typeof(geometry) FROM read_parquet(?, hive_partitioning = true)",
                archive + "/*/*.parquet");
        assertEquals(1, types.size(), types.toString());
        assertTrue(((String) types.get(0).get(0)).startsWith("GEOMETRY"), types.toString());
    }

    private static List<Path> dataFiles(Path archive) throws IOException {
        try (Stream<Path> files = Files.walk(archive)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".parquet"))
                    .filter(file ->
                            file.getParent().getFileName().toString().startsWith(ArchiveLayout.PARTITION_COLUMN + "="))
                    .sorted()
                    .toList();
        }
    }

    private static long partitions(Path archive) throws IOException {
        try (Stream<Path> entries = Files.list(archive)) {
            return entries.filter(
                            entry -> entry.getFileName().toString().startsWith(ArchiveLayout.PARTITION_COLUMN + "="))
                    .count();
        }
    }
}
