package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code compact} merges appended files without changing a row; {@code verify --json} reports what is wrong. */
class CompactAndVerifyCommandTest {

    @TempDir
    Path temp;

    @Test
    void compactsAppendedFilesAndVerifiesTheResult() throws Exception {
        Path archive = archiveOfThreeAppends();
        Map<String, Long> filesBefore = filesPerPartition(archive);
        assertTrue(
                filesBefore.values().stream().anyMatch(files -> files >= 3),
                "three appends left several files: " + filesBefore);
        Map<String, Double> areas = Parcels.areas(archive);

        Cli.Result compacted =
                Cli.run("compact", "--archive", archive, "--min-files", 2, "-q").expect(0);
        assertTrue(compacted.out().contains("partitions compacted: "), compacted.out());
        filesPerPartition(archive)
                .forEach((cell, files) -> assertEquals(1L, files, cell + " holds one file after compaction"));
        assertEquals(areas, Parcels.areas(archive), "compaction changes no row");

        JsonNode report = Cli.run("verify", "--archive", archive, "--json", "--expect-count", 1200)
                .expect(0)
                .json();
        assertTrue(report.get("consistent").booleanValue());
        assertEquals("OGC:CRS84", report.get("crs").textValue());
        assertEquals(filesBefore.size(), report.get("partitions").intValue());
        assertEquals(filesBefore.size(), report.get("files").intValue());
        assertEquals(1200, report.get("rows").longValue());
        assertTrue(report.get("problems").isArray() && report.get("problems").isEmpty());

        Cli.Result text = Cli.run("verify", "--archive", archive).expect(0);
        assertTrue(text.out().contains("geo consistent: True") && text.out().contains("crs: OGC:CRS84"), text.out());
    }

    @Test
    void partitionsAreCompactedOnSeveralThreadsAndReportedInTheirOrder() throws Exception {
        Path archive = archiveOfThreeAppends();
        Map<String, Long> filesBefore = filesPerPartition(archive);
        Map<String, Double> areas = Parcels.areas(archive);
        assertTrue(Cli.run("compact", "--archive", archive, "--threads", 0)
                .expect(2)
                .reason()
                .contains("--threads must be at least 1"));

        Cli.Result compacted = Cli.run("compact", "--archive", archive, "--min-files", 2, "--threads", 3, "-q")
                .expect(0);
        filesPerPartition(archive)
                .forEach((cell, files) -> assertEquals(1L, files, cell + " holds one file after compaction"));
        assertEquals(areas, Parcels.areas(archive), "compaction changes no row");
        List<String> reported = compacted
                .out()
                .lines()
                .filter(line -> line.startsWith("compacted "))
                .map(line -> line.substring("compacted ".length(), line.indexOf(':')))
                .toList();
        List<String> several = filesBefore.entrySet().stream()
                .filter(partition -> partition.getValue() >= 2) // small files: two qualify
                .map(partition -> partition.getKey().substring("h3_cell=".length()))
                .sorted()
                .toList();
        assertEquals(several, reported.stream().sorted().toList(), compacted.out());
        assertTrue(
                compacted.out().contains("partitions compacted: " + several.size() + " of " + filesBefore.size()),
                compacted.out());
        assertTrue(Cli.run("verify", "--archive", archive, "--json", "--expect-count", 1200)
                .expect(0)
                .json()
                .get("consistent")
                .booleanValue());
    }

    @Test
    void compactionAlongAHilbertCurveChangesNoRowAndAnUnknownOrderIsAUsageError() throws Exception {
        Path archive = archiveOfThreeAppends();
        Map<String, Double> areas = Parcels.areas(archive);

        String unknown = Cli.run("compact", "--archive", archive, "--row-order", "z-order")
                .expect(2)
                .reason();
        assertTrue(unknown.contains("z-order") && unknown.contains("hilbert"), unknown);

        Cli.run("compact", "--archive", archive, "--min-files", 2, "--row-order", "hilbert", "-q")
                .expect(0);
        filesPerPartition(archive)
                .forEach((cell, files) -> assertEquals(1L, files, cell + " holds one file after compaction"));
        assertEquals(areas, Parcels.areas(archive), "ordering changes no row");
        Cli.run("verify", "--archive", archive, "--expect-count", 1200).expect(0);
    }

    @Test
    void verifyExitsOneNamingTheFileWhenACheckFails() throws Exception {
        Path archive = temp.resolve("parcels");
        Parcels.initKeyed(archive, temp, "--h3-resolution", 3);
        Path delta =
                Parcels.write(temp.resolve("rows.parquet"), SyntheticParcels.schema(), Parcels.generate(4, 0, 300));
        Cli.run("apply", "--archive", archive, "--mode", "append", "--delta", delta, "-q")
                .expect(0);

        JsonNode wrongCount = Cli.run("verify", "--archive", archive, "--json", "--expect-count", 301)
                .expect(1)
                .json();
        assertFalse(wrongCount.get("consistent").booleanValue());
        assertEquals(
                "TOTAL_MISMATCH", wrongCount.get("problems").get(0).get("kind").textValue());

        // A file a plain tool dropped into a partition: readers would see its rows, the archive does not list it.
        Path partition;
        try (Stream<Path> partitions = Files.list(archive)) {
            partition = partitions
                    .filter(p -> p.getFileName().toString().startsWith("h3_cell="))
                    .findFirst()
                    .orElseThrow();
        }
        Files.copy(delta, partition.resolve("stray.parquet"));
        Cli.Result result = Cli.run("verify", "--archive", archive, "--json").expect(1);
        JsonNode problem = result.json().get("problems").get(0);
        assertEquals(
                partition.getFileName() + "/stray.parquet", problem.get("file").textValue());
        assertEquals("UNTRACKED_FILE", problem.get("kind").textValue());
        String reason =
                Cli.run("verify", "--archive", archive, "--quiet").expect(1).reason();
        assertTrue(reason.startsWith("verify: ") && reason.contains("stray.parquet"), reason);
    }

    private static Map<String, Long> filesPerPartition(Path archive) throws Exception {
        Map<String, Long> files = new TreeMap<>();
        try (Stream<Path> partitions = Files.list(archive)) {
            for (Path partition : partitions
                    .filter(p -> p.getFileName().toString().startsWith("h3_cell="))
                    .toList()) {
                try (Stream<Path> inside = Files.list(partition)) {
                    files.put(
                            partition.getFileName().toString(),
                            inside.filter(p -> p.toString().endsWith(".parquet"))
                                    .count());
                }
            }
        }
        return files;
    }

    /** A keyed archive that took 1,200 parcels in three appends, so its partitions hold several files. */
    private Path archiveOfThreeAppends() throws Exception {
        Path archive = temp.resolve("parcels");
        Parcels.initKeyed(archive, temp, "--h3-resolution", 3);
        for (int batch = 0; batch < 3; batch++) {
            List<Group> rows = Parcels.generate(3, batch * 400, batch * 400 + 400);
            Path delta = Parcels.write(temp.resolve("batch-" + batch + ".parquet"), SyntheticParcels.schema(), rows);
            Cli.run("apply", "--archive", archive, "--mode", "append", "--delta", delta, "-q")
                    .expect(0);
        }
        return archive;
    }
}
