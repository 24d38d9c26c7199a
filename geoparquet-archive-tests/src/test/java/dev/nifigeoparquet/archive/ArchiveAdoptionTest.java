package dev.nifigeoparquet.archive;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.adoption.AdoptionOptions;
import dev.nifigeoparquet.archive.adoption.AdoptionReport;
import dev.nifigeoparquet.archive.adoption.ArchiveAdopter;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Point;

class ArchiveAdoptionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    @Test
    void adoptsAGeoPandasStyleArchiveDerivingOneCanonicalBlock() throws IOException {
        Path root = temp.resolve("geopandas");
        Map<String, List<Group>> byCell = ArchiveFixtures.writeGeoPandasStyleArchive(root, 0);
        long expectedRows = byCell.values().stream().mapToLong(List::size).sum();

        AdoptionReport report =
                ArchiveAdopter.adopt(new LocalArchiveStorage(root), AdoptionOptions.withKey("name"), Clock.systemUTC());

        assertEquals(byCell.size(), report.partitions());
        assertEquals(byCell.size(), report.files());
        assertEquals(expectedRows, report.rows());
        assertTrue(report.record().distinctGeoBlocks() > 1, "per-file bbox makes the blocks differ");
        assertTrue(report.record().canonicalDerived());
        assertEquals(
                report.record().distinctGeoBlocks() - 1,
                report.record().geoDifferences().size(),
                "one diff entry per block that differs from the reference");
        assertTrue(
                report.record().geoDifferences().toString().contains("columns.geometry.bbox"),
                report.record().geoDifferences().toString());

        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        assertEquals(0, archive.h3Resolution(), "derived from the partition names");
        JsonNode canonical =
                JSON.readTree(archive.descriptor().canonicalFooter().geo());
        JsonNode column = canonical.path("columns").path("geometry");
        assertTrue(column.path("bbox").isMissingNode(), "per-file bbox removed: " + canonical);
        Set<String> union = new LinkedHashSet<>();
        for (Path file : dataFiles(root)) {
            JSON.readTree(ParquetRows.read(file).footer().keyValues().get("geo"))
                    .path("columns")
                    .path("geometry")
                    .path("geometry_types")
                    .forEach(type -> union.add(type.asText()));
        }
        Set<String> pinned = new LinkedHashSet<>();
        column.path("geometry_types").forEach(type -> pinned.add(type.asText()));
        assertEquals(union, pinned, "geometry_types is the union of what the files declare");
        assertTrue(column.path("crs").isObject(), "crs kept as a PROJJSON object");
        assertEquals(
                JSON.readTree(originalGeo()).path("columns").path("geometry").path("crs"),
                column.path("crs"),
                "crs unchanged");

        for (String cell : byCell.keySet()) {
            PartitionCommit state = archive.partitionState(cell);
            assertEquals(1, state.version());
            assertEquals(OperationType.ADOPT, state.operationType());
            assertEquals(byCell.get(cell).size(), state.rowCount(), cell);
        }
        assertEquals(
                expectedRows,
                ((Number) DuckDb.query(
                                        "SELECT count(*) FROM read_parquet(?, hive_partitioning = true)",
                                        root + "/*/*.parquet")
                                .get(0)
                                .get(0))
                        .longValue(),
                "plain readers still read the adopted archive");
    }

    @Test
    void adoptsADuckDbWrittenArchiveKeepingItsGeoBytes() throws Exception {
        Path root = temp.resolve("duckdb");
        int resolution = 3;
        String geo =
                "{\"version\":\"1.1.0\",\"primary_column\":\"geometry\",\"columns\":{\"geometry\":{\"encoding\":\"WKB\",\"geometry_types\":[\"Point\"]}}}";
        List<String> cells = writeDuckDbArchive(root, resolution, geo, 300);

        AdoptionReport report = ArchiveAdopter.adopt(
                new LocalArchiveStorage(root),
                AdoptionOptions.withKey("id").expectingResolution(resolution),
                Clock.systemUTC());

        assertEquals(new LinkedHashSet<>(cells).size(), report.partitions());
        assertEquals(300, report.rows());
        assertEquals(1, report.record().distinctGeoBlocks());
        assertFalse(report.record().canonicalDerived(), "one block without bbox is canonical as written");
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        assertEquals(geo, archive.descriptor().canonicalFooter().geo(), "the bytes DuckDB wrote, verbatim");
        for (Path file : dataFiles(root)) {
            assertArrayEquals(
                    geo.getBytes(StandardCharsets.UTF_8),
                    DuckDb.footerEntries(file).get("geo"));
        }
    }

    @Test
    void refusesNamesThatAreNotH3CellsMixedResolutionsAndAResolutionMismatch() throws Exception {
        String geo =
                "{\"version\":\"1.1.0\",\"primary_column\":\"geometry\",\"columns\":{\"geometry\":{\"encoding\":\"WKB\",\"geometry_types\":[]}}}";
        Path root = temp.resolve("refusals");
        writeDuckDbArchive(root, 3, geo, 20);

        IllegalArgumentException mismatch = assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveAdopter.adopt(
                        new LocalArchiveStorage(root),
                        AdoptionOptions.withKey("id").expectingResolution(5),
                        Clock.systemUTC()));
        assertTrue(
                mismatch.getMessage().contains("5") && mismatch.getMessage().contains("resolution 3"),
                mismatch.getMessage());

        Path mixed = temp.resolve("mixed");
        writeDuckDbArchive(mixed, 3, geo, 20);
        writeDuckDbArchive(mixed.resolve("tmp"), 4, geo, 5);
        try (var partitions = Files.list(mixed.resolve("tmp"))) {
            for (Path partition : (Iterable<Path>) partitions::iterator) {
                Files.move(partition, mixed.resolve(partition.getFileName()));
            }
        }
        IllegalArgumentException mixedError = assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveAdopter.adopt(
                        new LocalArchiveStorage(mixed), AdoptionOptions.withKey("id"), Clock.systemUTC()));
        assertTrue(mixedError.getMessage().contains("mix H3 resolutions"), mixedError.getMessage());

        Path badName = temp.resolve("bad-name");
        writeDuckDbArchive(badName, 3, geo, 20);
        Files.createDirectories(badName.resolve("h3_cell=8428309FFFFFFFF"));
        IllegalArgumentException nameError = assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveAdopter.adopt(
                        new LocalArchiveStorage(badName), AdoptionOptions.withKey("id"), Clock.systemUTC()));
        assertTrue(nameError.getMessage().contains("8428309FFFFFFFF"), nameError.getMessage());

        Path badFileName = temp.resolve("bad-file-name");
        writeDuckDbArchive(badFileName, 3, geo, 20);
        Path renamed = dataFiles(badFileName).get(0).resolveSibling("data 0.parquet");
        Files.move(dataFiles(badFileName).get(0), renamed);
        IllegalArgumentException fileNameError = assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveAdopter.adopt(
                        new LocalArchiveStorage(badFileName), AdoptionOptions.withKey("id"), Clock.systemUTC()));
        assertTrue(fileNameError.getMessage().contains("data 0.parquet"), fileNameError.getMessage());
        assertFalse(
                Files.exists(badFileName.resolve(ArchiveLayout.LOG_DIRECTORY)), "refused before any entry is written");

        assertFalse(Files.exists(root.resolve(ArchiveLayout.DESCRIPTOR)), "a refused adoption writes no descriptor");
        assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveAdopter.adopt(
                        new LocalArchiveStorage(temp.resolve("empty")),
                        AdoptionOptions.withKey("id"),
                        Clock.systemUTC()));
    }

    @Test
    void refusesFilesThatDisagreeOnCrsOrSchemaAndASecondAdoption() throws Exception {
        Path root = temp.resolve("disagree");
        String geo =
                "{\"version\":\"1.1.0\",\"primary_column\":\"geometry\",\"columns\":{\"geometry\":{\"encoding\":\"WKB\",\"geometry_types\":[]}}}";
        writeDuckDbArchive(root, 3, geo, 40);
        Path oneFile = dataFiles(root).get(0);
        ParquetRows.Contents contents = ParquetRows.read(oneFile);
        String projected = geo.replace(
                "\"geometry_types\":[]",
                "\"geometry_types\":[],\"crs\":{\"id\":{\"authority\":\"EPSG\",\"code\":3857}}");
        Files.delete(oneFile);
        ArchiveFixtures.writeFile(
                oneFile,
                contents.footer().schema(),
                FooterEntries.canonicalOf(Map.of("geo", projected)),
                contents.rows());
        IllegalArgumentException crs = assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveAdopter.adopt(
                        new LocalArchiveStorage(root), AdoptionOptions.withKey("id"), Clock.systemUTC()));
        assertTrue(crs.getMessage().contains("columns.geometry.crs"), crs.getMessage());

        Path adopted = temp.resolve("twice");
        writeDuckDbArchive(adopted, 3, geo, 10);
        ArchiveAdopter.adopt(new LocalArchiveStorage(adopted), AdoptionOptions.withKey("id"), Clock.systemUTC());
        assertThrows(
                FileAlreadyExistsException.class,
                () -> ArchiveAdopter.adopt(
                        new LocalArchiveStorage(adopted), AdoptionOptions.withKey("id"), Clock.systemUTC()));
    }

    @Test
    void reportsACrsStringAsAWarningWithoutChangingItsBytes() throws Exception {
        Path root = temp.resolve("crs-string");
        String geo =
                "{\"version\":\"1.0.0\",\"primary_column\":\"geometry\",\"columns\":{\"geometry\":{\"encoding\":\"WKB\",\"geometry_types\":[\"Point\"],\"crs\":\"EPSG:4326\"}}}";
        writeDuckDbArchive(root, 2, geo, 30);
        AdoptionReport report =
                ArchiveAdopter.adopt(new LocalArchiveStorage(root), AdoptionOptions.withKey("id"), Clock.systemUTC());
        assertEquals(
                1, report.record().warnings().size(), report.record().warnings().toString());
        assertTrue(
                report.record().warnings().get(0).contains("PROJJSON"),
                report.record().warnings().get(0));
        assertEquals(
                geo,
                GeoParquetArchive.open(new LocalArchiveStorage(root))
                        .descriptor()
                        .canonicalFooter()
                        .geo());
    }

    private static String originalGeo() throws IOException {
        return ParquetRows.read(PeerData.file(ArchiveFixtures.COUNTRIES))
                .footer()
                .keyValues()
                .get("geo");
    }

    /**
     * An archive as DuckDB writes it: random points, keyed by the engine, copied with
     * {@code COPY ... (FORMAT parquet, PARTITION_BY (h3_cell), KV_METADATA {geo: ...})}. Returns each row's cell.
     */
    static List<String> writeDuckDbArchive(Path root, int resolution, String geo, int rows) throws SQLException {
        H3Keyer keyer = new H3Keyer(resolution);
        GeometryFactory factory = new GeometryFactory();
        Random random = new Random(rows * 31L + resolution);
        List<String> cells = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET enable_geoparquet_conversion = false");
                statement.execute("CREATE TABLE features (id BIGINT, name VARCHAR, geometry BLOB, h3_cell VARCHAR)");
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO features VALUES (?, ?, ?, ?)")) {
                for (int i = 0; i < rows; i++) {
                    // Clustered like parcels: a few centres in western Europe.
                    double lon = 2 + (i % 4) * 3 + random.nextGaussian() * 0.4;
                    double lat = 47 + (i % 3) * 2 + random.nextGaussian() * 0.4;
                    Point point = factory.createPoint(new Coordinate(lon, lat));
                    String cell = keyer.cellOf(point, SourceCrs.CRS84);
                    cells.add(cell);
                    insert.setLong(1, i);
                    insert.setString(2, "feature-" + i);
                    insert.setBytes(3, Wkb.write(point));
                    insert.setString(4, cell);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("COPY (SELECT * FROM features ORDER BY id) TO '" + root
                        + "' (FORMAT parquet, PARTITION_BY (h3_cell), KV_METADATA {geo: '" + geo.replace("'", "''")
                        + "'})");
            }
        }
        return cells;
    }

    private static List<Path> dataFiles(Path root) throws IOException {
        try (var files = Files.walk(root)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".parquet"))
                    .filter(p -> !p.toString().contains(ArchiveLayout.METADATA_DIRECTORY))
                    .sorted()
                    .toList();
        }
    }
}
