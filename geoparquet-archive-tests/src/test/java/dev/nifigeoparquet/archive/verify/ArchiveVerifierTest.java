package dev.nifigeoparquet.archive.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.adoption.AdoptionOptions;
import dev.nifigeoparquet.archive.adoption.ArchiveAdopter;
import dev.nifigeoparquet.archive.compaction.Compactor;
import dev.nifigeoparquet.archive.compaction.GeneratedArchive;
import dev.nifigeoparquet.archive.compaction.TestClock;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.CompactionSettings;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArchiveVerifierTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant START = Instant.parse("2026-01-05T10:00:00Z");
    private static final int ROWS_PER_FILE = 31;

    @TempDir
    Path temp;

    private Path root;
    private GeoParquetArchive archive;
    private long rows;

    /** Two partitions: 4 files in the first, 2 in the second. */
    private void createArchive() throws IOException {
        root = temp.resolve("archive");
        archive = GeneratedArchive.create(new LocalArchiveStorage(root), new TestClock(START));
        rows = GeneratedArchive.fill(archive, 0, 0, 4, ROWS_PER_FILE)
                + GeneratedArchive.fill(archive, 1, 10_000, 2, ROWS_PER_FILE);
    }

    @Test
    void aConsistentArchiveVerifiesConsistentWithoutWritingAnything() throws IOException {
        createArchive();
        new Compactor(archive).compact(GeneratedArchive.cellOf(0));

        FaultInjectingStorage recorder = FaultInjectingStorage.counting(new LocalArchiveStorage(root));
        VerificationReport report = new ArchiveVerifier(GeoParquetArchive.open(recorder)).verify();

        assertTrue(report.consistent(), report.problems().toString());
        assertEquals("OGC:CRS84", report.crs(), "no crs in the geo block means OGC:CRS84");
        assertEquals(2, report.partitions());
        assertEquals(1 + 2, report.files());
        assertEquals(rows, report.rows());
        assertEquals(rows, report.rowsRead());
        assertTrue(report.keysChecked());
        assertTrue(report.knownVariations().isEmpty());
        for (String call : recorder.calls()) {
            assertTrue(
                    call.startsWith("list ") || call.startsWith("open ") || call.startsWith("read "),
                    "verification only lists and reads, but made: " + call);
        }
        JsonNode json = JSON.readTree(report.toJsonString());
        assertTrue(json.path("consistent").asBoolean());
        assertEquals("OGC:CRS84", json.path("crs").asText());
        assertEquals(rows, json.path("rows").asLong());
        assertEquals(0, json.path("problems").size());

        VerificationReport reconciled =
                new ArchiveVerifier(archive).verify(VerifyOptions.wholeArchive().expectingRows(rows - 10, 15, 5));
        assertTrue(reconciled.consistent(), "baseline + inserted - deleted matches: " + reconciled.problems());
    }

    @Test
    void theCrsIsDescribedByItsProjJsonId() throws IOException {
        GeoParquetArchive epsg = GeneratedArchive.create(
                new LocalArchiveStorage(temp.resolve("epsg")),
                new TestClock(START),
                CompactionSettings.DEFAULT,
                GeneratedArchive.GEO_EPSG_4326);
        GeneratedArchive.fill(epsg, 0, 0, 1, 5);
        VerificationReport report = new ArchiveVerifier(epsg).verify();
        assertTrue(report.consistent(), report.problems().toString());
        assertEquals("EPSG:4326", report.crs());
    }

    @Test
    void aRegeneratedGeoBlockWithTheSameValuesIsReportedAsAKeyOrderDifference() throws IOException {
        createArchive();
        String cell = GeneratedArchive.cellOf(0);
        String file = liveFile(cell, 1);
        ObjectNode canonical = (ObjectNode) JSON.readTree(GeneratedArchive.GEO);
        ObjectNode reordered = JSON.createObjectNode();
        reordered.set("columns", canonical.get("columns"));
        reordered.set("primary_column", canonical.get("primary_column"));
        reordered.set("version", canonical.get("version"));
        rewriteWithGeo(file, JSON.writeValueAsString(reordered));

        VerificationReport report = new ArchiveVerifier(archive).verify();

        assertFalse(report.consistent());
        Problem geo = only(report, ProblemKind.GEO_MISMATCH);
        assertEquals(file, geo.file());
        assertTrue(geo.message().contains("key order"), geo.message());
        assertFalse(geo.detail().has("differences"), "the values are the same: " + geo.detail());
        JsonNode order = geo.detail().path("keyOrder").get(0);
        assertEquals("(root)", order.path("path").asText());
        assertEquals(List.of("version", "primary_column", "columns"), texts(order.path("expected")));
        assertEquals(List.of("columns", "primary_column", "version"), texts(order.path("actual")));
        assertTrue(report.problemsOf(ProblemKind.CRS_MISMATCH).isEmpty(), "same crs");
    }

    @Test
    void aDifferentCrsAnExtraBboxAndDifferentGeometryTypesAreNamedInTheDiff() throws IOException {
        createArchive();
        String cell = GeneratedArchive.cellOf(0);
        String withCrs = liveFile(cell, 0);
        String withBbox = liveFile(cell, 1);
        String withTypes = liveFile(cell, 2);
        ObjectNode crs = geoBlock();
        column(crs)
                .putObject("crs")
                .put("type", "ProjectedCRS")
                .put("name", "WGS 84 / Pseudo-Mercator")
                .putObject("id")
                .put("authority", "EPSG")
                .put("code", 3857);
        rewriteWithGeo(withCrs, JSON.writeValueAsString(crs));
        ObjectNode bbox = geoBlock();
        column(bbox).putArray("bbox").add(9.5).add(49.5).add(10.5).add(50.5);
        rewriteWithGeo(withBbox, JSON.writeValueAsString(bbox));
        ObjectNode types = geoBlock();
        column(types).putArray("geometry_types").add("Point").add("Polygon");
        rewriteWithGeo(withTypes, JSON.writeValueAsString(types));

        VerificationReport report = new ArchiveVerifier(archive).verify();

        assertEquals("columns.geometry.crs", pathOf(report, withCrs));
        assertEquals("columns.geometry.bbox", pathOf(report, withBbox));
        assertEquals("columns.geometry.geometry_types", pathOf(report, withTypes));
        assertTrue(geoProblem(report, withCrs).message().contains("columns.geometry.crs"));
        assertEquals(
                "Polygon",
                geoProblem(report, withTypes)
                        .detail()
                        .path("differences")
                        .get(0)
                        .path("actual")
                        .get(1)
                        .asText());
        Problem crsProblem = only(report, ProblemKind.CRS_MISMATCH);
        assertEquals(withCrs, crsProblem.file());
        assertTrue(
                crsProblem.message().contains("EPSG:3857")
                        && crsProblem.message().contains("OGC:CRS84"),
                crsProblem.message());
    }

    @Test
    void truncatedUntrackedMissingAndUnpublishedFilesAreNamed() throws IOException {
        createArchive();
        String cell = GeneratedArchive.cellOf(0);
        String truncated = liveFile(cell, 0);
        String missing = liveFile(cell, 1);
        String unpublished = liveFile(cell, 2);
        Path truncatedPath = root.resolve(truncated);
        try (FileChannel channel = FileChannel.open(truncatedPath, StandardOpenOption.WRITE)) {
            channel.truncate(Files.size(truncatedPath) / 2);
        }
        Files.delete(root.resolve(missing));
        String unpublishedName = unpublished.substring(unpublished.lastIndexOf('/') + 1);
        Files.move(root.resolve(unpublished), root.resolve(ArchiveLayout.stagedFile(cell, unpublishedName)));
        String untracked = ArchiveLayout.partitionDirectory(cell) + "/part-copied-by-hand.parquet";
        Files.copy(root.resolve(liveFile(cell, 3)), root.resolve(untracked));
        String noLogCell = GeneratedArchive.cellOf(2);
        String withoutLog = ArchiveLayout.partitionDirectory(noLogCell) + "/written-by-duckdb.parquet";
        Files.createDirectories(root.resolve(withoutLog).getParent());
        Files.copy(root.resolve(liveFile(cell, 3)), root.resolve(withoutLog));

        VerificationReport report = new ArchiveVerifier(archive).verify();

        assertEquals(truncated, only(report, ProblemKind.CORRUPT_FILE).file());
        assertTrue(
                only(report, ProblemKind.CORRUPT_FILE).message().contains("truncated"),
                only(report, ProblemKind.CORRUPT_FILE).message());
        assertEquals(truncated, only(report, ProblemKind.SIZE_MISMATCH).file());
        assertEquals(missing, only(report, ProblemKind.MISSING_FILE).file());
        assertEquals(unpublished, only(report, ProblemKind.UNPUBLISHED_FILE).file());
        assertEquals(
                List.of(untracked, withoutLog),
                report.problemsOf(ProblemKind.UNTRACKED_FILE).stream()
                        .map(Problem::file)
                        .sorted()
                        .toList());
        assertEquals(
                rows - 2 * ROWS_PER_FILE,
                report.rowsRead(),
                "the staged file is read; the truncated and missing ones cannot be");
        assertEquals(6, report.problems().size(), report.problems().toString());
    }

    @Test
    void aDuplicateKeyAcrossTwoPartitionsIsFoundAndNamesBothFiles() throws IOException {
        createArchive();
        String first = GeneratedArchive.cellOf(0);
        String second = GeneratedArchive.cellOf(1);
        GeneratedArchive.append(archive, second, "late-duplicates", GeneratedArchive.rows(1, 40, 2));

        VerificationReport report = new ArchiveVerifier(archive).verify();

        List<Problem> duplicates = report.problemsOf(ProblemKind.DUPLICATE_KEY);
        assertEquals(2, duplicates.size(), report.problems().toString());
        String firstFile = liveFile(first, 1);
        String secondFile = liveFile(second, 2);
        for (Problem duplicate : duplicates) {
            assertTrue(List.of(firstFile, secondFile).contains(duplicate.file()), duplicate.toString());
            String other = duplicate.file().equals(firstFile) ? secondFile : firstFile;
            assertTrue(duplicate.message().contains(other), duplicate.message());
        }
        assertTrue(
                duplicates.get(0).message().contains("key 40"),
                duplicates.get(0).message());
        assertEquals(2, report.problems().size(), "nothing else is wrong: " + report.problems());
        assertEquals(
                4,
                ((Number) DuckDb.query(
                                        "SELECT count(*) FROM read_parquet(?) WHERE id IN (40, 41)",
                                        root + "/*/*.parquet")
                                .get(0)
                                .get(0))
                        .longValue(),
                "DuckDB sees each of the two keys twice");

        assertTrue(
                new ArchiveVerifier(archive)
                        .verify(VerifyOptions.partitions(List.of(first)))
                        .consistent(),
                "within one partition the keys are unique");
    }

    @Test
    void aCountMismatchIsReported() throws IOException {
        createArchive();
        VerificationReport report =
                new ArchiveVerifier(archive).verify(VerifyOptions.wholeArchive().expectingRows(rows, 10, 3));
        Problem total = only(report, ProblemKind.TOTAL_MISMATCH);
        assertTrue(
                total.message().contains(rows + " rows") && total.message().contains((rows + 7) + " were expected"),
                total.message());
        assertEquals(rows + 7, report.toJson().path("expectedRows").asLong());
    }

    @Test
    void anAdoptedGeoPandasStyleArchiveVerifiesConsistentWithItsKnownVariation() throws IOException {
        Path adopted = temp.resolve("geopandas");
        Map<String, List<Group>> byCell = ArchiveFixtures.writeGeoPandasStyleArchive(adopted, 0);
        ArchiveAdopter.adopt(new LocalArchiveStorage(adopted), AdoptionOptions.withKey("name"), Clock.systemUTC());
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(adopted));

        VerificationReport report = new ArchiveVerifier(archive).verify();

        assertTrue(report.consistent(), report.problems().toString());
        assertEquals("OGC:CRS84", report.crs(), "the countries file's PROJJSON id");
        assertEquals(byCell.size(), report.partitions());
        assertEquals(byCell.values().stream().mapToLong(List::size).sum(), report.rows());
        // Every adopted file carries its own bbox, and the copy of the peer file's block inside ARROW:schema.
        assertEquals(
                2 * byCell.size(),
                report.knownVariations().size(),
                report.knownVariations().toString());
        for (Problem variation : report.knownVariations()) {
            if (variation.kind() == ProblemKind.GEO_MISMATCH) {
                assertTrue(variation.message().contains("columns.geometry.bbox"), variation.message());
            } else {
                assertEquals(ProblemKind.FOOTER_MISMATCH, variation.kind());
                assertTrue(
                        variation.message().contains("'ARROW:schema'")
                                && variation.message().contains("its copy of 'geo'"),
                        variation.message());
            }
        }
        assertEquals(2 * byCell.size(), report.toJson().path("knownVariations").size());
    }

    // --- helpers ---

    /** The path (relative to the root) of the partition's live file at {@code index}. */
    private String liveFile(String cell, int index) throws IOException {
        PartitionCommit state = archive.partitionState(cell);
        return ArchiveLayout.dataFile(cell, state.files().get(index).name());
    }

    /** Rewrites a file outside the archive with the same rows and a different geo entry. */
    private void rewriteWithGeo(String file, String geo) throws IOException {
        Path path = root.resolve(file);
        ParquetRows.Contents contents = ParquetRows.read(path);
        Files.delete(path);
        ArchiveFixtures.writeFile(
                path,
                contents.footer().schema(),
                FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, geo)),
                contents.rows());
    }

    private static ObjectNode geoBlock() throws IOException {
        return (ObjectNode) JSON.readTree(GeneratedArchive.GEO);
    }

    private static ObjectNode column(ObjectNode geo) {
        return (ObjectNode) geo.path("columns").path("geometry");
    }

    private static Problem only(VerificationReport report, ProblemKind kind) {
        List<Problem> problems = report.problemsOf(kind);
        assertEquals(1, problems.size(), kind + " in " + report.problems());
        return problems.get(0);
    }

    private static Problem geoProblem(VerificationReport report, String file) {
        List<Problem> problems = report.problemsOf(ProblemKind.GEO_MISMATCH).stream()
                .filter(p -> p.file().equals(file))
                .toList();
        assertEquals(1, problems.size(), file + " in " + report.problems());
        return problems.get(0);
    }

    private static String pathOf(VerificationReport report, String file) {
        JsonNode differences = geoProblem(report, file).detail().path("differences");
        assertEquals(1, differences.size(), differences.toString());
        return differences.get(0).path("path").asText();
    }

    private static List<String> texts(JsonNode array) {
        List<String> texts = new ArrayList<>();
        for (Iterator<JsonNode> it = array.elements(); it.hasNext(); ) {
            texts.add(it.next().asText());
        }
        return texts;
    }
}
