package dev.nifigeoparquet.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.adoption.AdoptionOptions;
import dev.nifigeoparquet.archive.adoption.AdoptionReport;
import dev.nifigeoparquet.archive.adoption.ArchiveAdopter;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.archive.parquet.ArrowSchemaEntry;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ForwardingStorage;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.TestFiles;
import dev.nifigeoparquet.archive.testing.WriterFiles;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.Problem;
import dev.nifigeoparquet.archive.verify.ProblemKind;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * Adoption accepts only what is a valid archive once adopted: every row in the partition of its cell (or moved
 * there when asked), footers that verify, and adopt then verify consistent for what GeoPandas, pyarrow and DuckDB
 * write. Every refusal leaves the directory exactly as it was.
 */
class AdoptionIntegrityTest {

    private static final String GEO =
            "{\"version\":\"1.1.0\",\"primary_column\":\"geometry\",\"columns\":{\"geometry\":"
                    + "{\"encoding\":\"WKB\",\"geometry_types\":[\"Point\"]}}}";
    private static final int RESOLUTION = 4;

    @TempDir
    Path temp;

    /**
     * Points around a few towns written by DuckDB in the h3_cell layout; every {@code misplaceEvery}-th row (0: none)
     * is written under the cell of another town. Returns each id's true cell.
     */
    private static Map<Long, String> writeDuckDbDirectory(Path root, int rows, int misplaceEvery) throws Exception {
        H3Keyer keyer = new H3Keyer(RESOLUTION);
        GeometryFactory factory = new GeometryFactory();
        Random random = new Random(rows);
        Map<Long, String> cells = new TreeMap<>();
        List<String> towns = new ArrayList<>();
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE TABLE features (id BIGINT, name VARCHAR, geometry BLOB, h3_cell VARCHAR)");
            }
            try (PreparedStatement insert = connection.prepareStatement("INSERT INTO features VALUES (?, ?, ?, ?)")) {
                for (long i = 0; i < rows; i++) {
                    double lon = 2 + (i % 4) * 3 + random.nextGaussian() * 0.05;
                    double lat = 47 + (i % 4) * 1.5 + random.nextGaussian() * 0.05;
                    var point = factory.createPoint(new Coordinate(lon, lat));
                    String cell = keyer.cellOf(point, SourceCrs.CRS84);
                    cells.put(i, cell);
                    if (i < 4) {
                        towns.add(cell);
                    }
                    String written = misplaceEvery > 0 && i % misplaceEvery == misplaceEvery - 1
                            ? towns.get((int) ((i + 1) % 4))
                            : cell;
                    insert.setLong(1, i);
                    insert.setString(2, "feature-" + i);
                    insert.setBytes(3, Wkb.write(point));
                    insert.setString(4, written);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
            try (Statement statement = connection.createStatement()) {
                statement.execute("COPY (SELECT * FROM features ORDER BY id) TO '" + root
                        + "' (FORMAT parquet, PARTITION_BY (h3_cell), KV_METADATA {geo: '" + GEO + "'})");
            }
        }
        assertEquals(4, new LinkedHashSet<>(towns).size(), "fixture: four towns in four cells");
        return cells;
    }

    private static Map<Long, String> cellsDuckDbReads(Path root) {
        Map<Long, String> cells = new TreeMap<>();
        for (List<Object> row : DuckDb.query(
                "SELECT id, h3_cell FROM read_parquet(?, hive_partitioning = true)", root + "/*/*.parquet")) {
            assertEquals(
                    null,
                    cells.put(((Number) row.get(0)).longValue(), (String) row.get(1)),
                    "id " + row.get(0) + " once");
        }
        return cells;
    }

    @Test
    void rowsUnderAnotherCellAreRefusedNamingExamplesAndNothingChanges() throws Exception {
        Path root = temp.resolve("misplaced");
        Map<Long, String> truth = writeDuckDbDirectory(root, 400, 50);
        Map<Long, String> stored = cellsDuckDbReads(root);
        List<Long> misplaced = truth.keySet().stream()
                .filter(id -> !truth.get(id).equals(stored.get(id)))
                .toList();
        assertEquals(8, misplaced.size(), "fixture: 8 rows under another town's cell");
        String before = TestFiles.treeDigest(root);

        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveAdopter.adopt(
                        new LocalArchiveStorage(root), AdoptionOptions.withKey("id"), Clock.systemUTC()));

        String message = refused.getMessage();
        assertTrue(message.contains("8 row(s) lie outside the partition of their geometry's cell"), message);
        long first = misplaced.get(0);
        assertTrue(
                message.contains("(key " + first + "): in partition " + stored.get(first) + ", its geometry's cell is "
                        + truth.get(first)),
                message);
        assertTrue(
                message.contains("h3_cell=" + stored.get(first) + "/") && message.contains(".parquet row "), message);
        assertTrue(message.contains("adopting with re-homing moves them"), message);
        assertEquals(before, TestFiles.treeDigest(root), "a refused adoption leaves the directory exactly as it was");
    }

    @Test
    void rehomingMovesMisplacedRowsIntoTheirCellsBeforeTheArchiveExists() throws Exception {
        Path root = temp.resolve("rehome");
        Map<Long, String> truth = writeDuckDbDirectory(root, 400, 50);

        AdoptionReport report = ArchiveAdopter.adopt(
                new LocalArchiveStorage(root),
                AdoptionOptions.withKey("id").rehomingMisplacedRows(),
                Clock.systemUTC());

        assertEquals(8, report.record().rehomedRows());
        assertEquals(400, report.rows());
        assertEquals(truth, cellsDuckDbReads(root), "DuckDB reads every row once, in the partition of its cell");
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        VerificationReport verified = new ArchiveVerifier(archive)
                .verify(VerifyOptions.wholeArchive().expectingRows(400).checkingPlacement(VerifyOptions.Placement.ALL));
        assertTrue(verified.consistent(), verified.problems().toString());
        assertEquals(400, verified.rowsPlaced().getAsLong());
        assertEquals(new TreeSet<>(truth.values()), new TreeSet<>(archive.partitionCells()));
        // Each commit entry lists exactly what the partition directory holds.
        for (String cell : archive.partitionCells()) {
            Set<String> listed = new TreeSet<>(archive.partitionState(cell).fileNames());
            assertEquals(listed, TestFiles.names(root.resolve(ArchiveLayout.partitionDirectory(cell))), cell);
        }
    }

    /**
     * Re-homing and the key index are each written at a stretch, longer than half the lease on a large archive: the
     * adopter renews its lease right before each, so that no other adopter takes it over in the middle (section 8).
     */
    @Test
    void theAdoptionLeaseIsRenewedRightBeforeReHomingAndBeforeTheKeyIndex() throws Exception {
        Path root = temp.resolve("lease");
        writeDuckDbDirectory(root, 400, 50);
        List<String> writes = new ArrayList<>();
        ArchiveStorage recording = new ForwardingStorage(new LocalArchiveStorage(root)) {
            @Override
            public void createExclusive(String path, byte[] content) throws IOException {
                writes.add(path);
                super.createExclusive(path, content);
            }

            @Override
            public OutputStream createStaged(String path) throws IOException {
                writes.add(path);
                return super.createStaged(path);
            }
        };

        ArchiveAdopter.adopt(recording, AdoptionOptions.withKey("id").rehomingMisplacedRows(), Clock.systemUTC());

        String lease = ArchiveLayout.leaseDirectory(ArchiveAdopter.ADOPTION_LEASE) + "/";
        int lastVersionOne = -1;
        int firstIndexFile = -1;
        for (int i = 0; i < writes.size(); i++) {
            String path = writes.get(i);
            // A partition's version 1, the commit of the files found; the key index's partitions come later.
            if (path.startsWith(ArchiveLayout.LOG_DIRECTORY + "/")
                    && path.endsWith("/" + String.format(Locale.ROOT, "%020d", 1) + ".json")
                    && !path.contains("index")) {
                lastVersionOne = Math.max(lastVersionOne, i);
            }
            String directory = Path.of(path).getParent().getFileName().toString();
            if (firstIndexFile < 0 && ArchiveLayout.isIndexShard(directory)) {
                firstIndexFile = i;
            }
        }
        assertTrue(lastVersionOne > 0 && firstIndexFile > lastVersionOne + 1, String.join("\n", writes));
        assertTrue(writes.get(lastVersionOne + 1).startsWith(lease), "before re-homing:\n" + String.join("\n", writes));
        assertTrue(
                writes.get(firstIndexFile - 1).startsWith(lease),
                "before the key index:\n" + String.join("\n", writes));
    }

    @Test
    void rowsWithoutAKeyableGeometryAndDuplicateKeysAreRefusedBeforeAnythingIsWritten() throws Exception {
        Path root = temp.resolve("duplicates");
        Map<Long, String> cells = writeDuckDbDirectory(root, 40, 0);
        // One more file in row 5's partition: row 5 again, a row without a geometry, and one without a key.
        Path extra =
                root.resolve(ArchiveLayout.partitionDirectory(cells.get(5L))).resolve("extra.parquet");
        DuckDb.query("CREATE TABLE t (id BIGINT, name VARCHAR, geometry BLOB);"
                + "INSERT INTO t SELECT id, name, geometry FROM read_parquet('" + root
                + "/*/*.parquet', hive_partitioning = false) WHERE id = 5;"
                + "INSERT INTO t VALUES (1000, NULL, NULL);"
                + "INSERT INTO t SELECT NULL, 'no key', geometry FROM t WHERE id = 5;"
                + "COPY t TO '" + extra + "' (FORMAT parquet, KV_METADATA {geo: '" + GEO + "'});"
                + "SELECT count(*) FROM t");
        String before = TestFiles.treeDigest(root);

        IllegalArgumentException refused = assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveAdopter.adopt(
                        new LocalArchiveStorage(root),
                        AdoptionOptions.withKey("id").rehomingMisplacedRows(),
                        Clock.systemUTC()));

        String message = refused.getMessage();
        assertTrue(message.startsWith("Nothing was adopted: "), message);
        String extraFile = "h3_cell=" + cells.get(5L) + "/extra.parquet";
        assertTrue(message.contains("1 null key(s) such as [" + extraFile + " row 2]"), message);
        assertTrue(
                message.contains(
                        "1 duplicate(s) such as [5 (" + extraFile + " row 0, already in " + cells.get(5L) + ")]"),
                message);
        assertTrue(
                message.contains("1 row(s) have no geometry that can be keyed, e.g. [h3_cell=" + cells.get(5L)
                        + "/extra.parquet row 1 (key 1000)"),
                message);
        assertEquals(
                before, TestFiles.treeDigest(root), "nothing was written: no commit entry, no index, no descriptor");
        assertFalse(Files.exists(root.resolve(ArchiveLayout.METADATA_DIRECTORY)));
    }

    /**
     * A dataset written one file per town by GeoPandas ({@code to_parquet} per partition: each file has its own bbox
     * and RangeIndex, in {@code geo}/{@code pandas} and again inside {@code ARROW:schema}) or by pyarrow's dataset
     * writer, with each town's directory named after its H3 cell at resolution 3.
     */
    static Path perTownDataset(String dataset, Path root) throws IOException {
        Path source = WriterFiles.copy(dataset, root.resolveSibling(root.getFileName() + "-source"));
        List<Path> files;
        try (var walk = Files.walk(source)) {
            files = walk.filter(path -> path.toString().endsWith(".parquet"))
                    .sorted()
                    .toList();
        }
        for (Path file : files) {
            Map<String, List<Group>> byCell = ArchiveFixtures.rowsByCell(file, 3);
            assertEquals(1, byCell.size(), "fixture: one town, one cell: " + file);
            Path target =
                    root.resolve("h3_cell=" + byCell.keySet().iterator().next()).resolve(file.getFileName());
            Files.createDirectories(target.getParent());
            Files.move(file, target);
        }
        return root;
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"geopandas-per-town", "pyarrow-per-town"})
    void whatGeoPandasAndPyarrowWriteOncePerPartitionAdoptsAndVerifiesConsistent(String dataset) throws Exception {
        Path root = perTownDataset(dataset, temp.resolve(dataset));

        AdoptionReport report = ArchiveAdopter.adopt(
                new LocalArchiveStorage(root), AdoptionOptions.withKey("parcel_id"), Clock.systemUTC());

        assertEquals(24, report.rows());
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        VerificationReport verified = new ArchiveVerifier(archive)
                .verify(VerifyOptions.wholeArchive().expectingRows(24).checkingPlacement(VerifyOptions.Placement.ALL));
        assertTrue(verified.consistent(), verified.problems().toString());
        assertEquals(
                24,
                DuckDb.query("SELECT count(*) FROM read_parquet(?, hive_partitioning = true)", root + "/*/*.parquet")
                        .stream()
                        .mapToLong(row -> ((Number) row.get(0)).longValue())
                        .sum());
        String canonicalGeo = archive.canonicalFooter().geo();
        assertFalse(canonicalGeo.contains("\"bbox\": ["), "no file's bbox in the canonical block: " + canonicalGeo);
        assertEquals(
                canonicalGeo,
                ArrowSchemaEntry.parse(archive.canonicalFooter().asMap().get("ARROW:schema"))
                        .metadata()
                        .get("geo"),
                "ARROW:schema's copy too");
        if (dataset.startsWith("geopandas")) {
            List<String> varying =
                    verified.knownVariations().stream().map(Problem::message).toList();
            assertTrue(
                    varying.stream().anyMatch(m -> m.contains("'pandas'") && m.contains("RangeIndex")),
                    varying.toString());
            assertTrue(
                    varying.stream()
                            .anyMatch(m -> m.contains("'ARROW:schema'")
                                    && m.contains("its copy of 'pandas' and its copy of 'geo'")),
                    varying.toString());
            assertTrue(
                    report.record().derivation().stream().anyMatch(d -> d.contains("inside 'ARROW:schema'")),
                    report.record().derivation().toString());
        }
    }

    @Test
    void verificationFindsMisplacedRowsWhenAskedAndSamplesWhenToldHowMany() throws Exception {
        Path root = temp.resolve("verify");
        writeDuckDbDirectory(root, 400, 0);
        ArchiveAdopter.adopt(new LocalArchiveStorage(root), AdoptionOptions.withKey("id"), Clock.systemUTC());
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        // Misplace a row behind the engine's back: swap two partitions' only files' contents is too coarse, so
        // rewrite one partition's file with a row of another cell in it, keeping the commit entry's size and count.
        String cell = archive.partitionCells().get(0);
        String other = archive.partitionCells().get(1);
        Path file = firstFile(root.resolve(ArchiveLayout.partitionDirectory(cell)));
        Path donor = firstFile(root.resolve(ArchiveLayout.partitionDirectory(other)));
        ParquetRows.Contents contents = ParquetRows.read(file);
        List<Group> rows = new ArrayList<>(contents.rows());
        Group stranger = ParquetRows.read(donor).rows().get(0);
        rows.set(3, stranger);
        Files.delete(file);
        ArchiveFixtures.writeFile(
                file, contents.footer().schema(), contents.footer().canonicalEntries(), rows);

        VerificationReport plain = new ArchiveVerifier(archive).verify();
        assertTrue(plain.problemsOf(ProblemKind.MISPLACED_ROW).isEmpty(), "without the check, rows are not keyed");
        assertTrue(plain.rowsPlaced().isEmpty());

        VerificationReport all = new ArchiveVerifier(archive)
                .verify(VerifyOptions.wholeArchive().checkingPlacement(VerifyOptions.Placement.ALL));
        List<Problem> misplaced = all.problemsOf(ProblemKind.MISPLACED_ROW);
        assertEquals(1, misplaced.size(), all.problems().toString());
        Problem problem = misplaced.get(0);
        assertEquals(ArchiveLayout.partitionDirectory(cell) + "/" + file.getFileName(), problem.file());
        assertTrue(
                problem.message()
                        .startsWith(
                                "row 3 (key " + stranger.getLong("id", 0) + "): its geometry's centroid lies in cell "
                                        + other + ", not in this partition (" + cell + ")"),
                problem.message());
        assertEquals(3, problem.detail().path("row").asLong());
        assertEquals(other, problem.detail().path("computedCell").asText());
        assertEquals(400, all.rowsPlaced().getAsLong());
        assertTrue(all.toJson().path("problems").toString().contains("MISPLACED_ROW"));

        VerificationReport sample = new ArchiveVerifier(archive)
                .verify(VerifyOptions.wholeArchive().checkingPlacement(VerifyOptions.Placement.sample(40)));
        assertEquals(40, sample.rowsPlaced().getAsLong(), "every 10th of 400 rows");
    }

    /** A file of the directory, whichever it lists first. */
    private static Path firstFile(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.findFirst().orElseThrow();
        }
    }
}
