package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the tool commands README.md shows, in its order, with its paths mapped to temporary ones (the demo, which
 * writes into the working directory, runs through the launcher in {@link LauncherIT}).
 */
class ReadmeCommandsTest {

    private static final String LAUNCHER = "bin/geoparquet-archive ";

    @TempDir
    Path temp;

    @Test
    void everyCommandOfTheReadmeRuns() throws Exception {
        Path readme = Path.of(System.getProperty(
                        "maven.multiModuleProjectDirectory", System.getProperty("repository.root", "..")))
                .resolve("README.md");
        if (!Files.exists(readme)) {
            readme = Path.of("..", "README.md");
        }
        List<String> commands = Files.readAllLines(readme).stream()
                .map(String::strip)
                .filter(line -> line.startsWith(LAUNCHER) && !line.equals(LAUNCHER + "demo"))
                .toList();
        assertEquals(6, commands.size(), "init, adopt, two applies, compact, verify: " + commands);

        Path parcels = temp.resolve("parcels");
        Path countries = temp.resolve("countries");
        ArchiveFixtures.writeGeoPandasStyleArchive(countries, 1);
        Path work = Files.createDirectories(temp.resolve("work"));
        Parcels.template(work);
        List<Group> nightly = Parcels.generate(11, 0, 1200);
        List<Group> deltaRows = new ArrayList<>();
        nightly.forEach(row -> deltaRows.add(Parcels.deltaRow(row, row.getDouble("area_m2", 0), false)));
        Parcels.write(work.resolve("nightly.parquet"), NightlyDelta.schema(), deltaRows);
        Group edited = nightly.get(3);
        Group gone = nightly.get(4);
        Group added = Parcels.generate(12, 5000, 5001).get(0);
        Files.writeString(
                work.resolve("changes.geojson"),
                "{\"type\":\"FeatureCollection\",\"features\":["
                        + "{\"type\":\"Feature\",\"id\":\"" + Parcels.key(edited)
                        + "\",\"properties\":{\"land_use\":\"forest\",\"area_m2\":1.5,"
                        + "\"updated_at\":\"2026-01-03T00:00:00Z\"},\"geometry\":" + Parcels.geoJsonGeometry(edited)
                        + "},"
                        + "{\"type\":\"Feature\",\"id\":\"" + Parcels.key(added) + "\",\"properties\":{\"area_m2\":2.5,"
                        + "\"updated_at\":\"2026-01-03T00:00:00Z\"},\"geometry\":" + Parcels.geoJsonGeometry(added)
                        + "},"
                        + "{\"type\":\"Feature\",\"id\":\"" + Parcels.key(gone)
                        + "\",\"properties\":{\"deleted\":true},\"geometry\":null}]}");

        for (String command : commands) {
            List<Object> args = new ArrayList<>();
            for (String word : command.substring(LAUNCHER.length()).split("\\s+", -1)) {
                args.add(
                        switch (word) {
                            case "/data/parcels" -> parcels;
                            case "/data/countries" -> countries;
                            case "template.parquet", "nightly.parquet", "changes.geojson" -> work.resolve(word);
                            default -> word;
                        });
            }
            Cli.Result result = Cli.run(args.toArray()).expect(0);
            if (command.contains("--json")) {
                assertTrue(result.json().get("consistent").booleanValue(), result.out());
            }
        }
        assertEquals(1.5, Parcels.areas(parcels).get(Parcels.key(edited)));
        assertEquals(SyntheticParcels.KEY, "parcel_id");

        String sql = Files.readAllLines(readme).stream()
                .map(String::strip)
                .filter(line -> line.startsWith("SELECT h3_cell, count(*) FROM read_parquet('/data/parcels/"))
                .findFirst()
                .orElseThrow();
        long total = DuckDb.query(
                        sql.replace("/data/parcels", parcels.toString()).replaceAll(";$", ""))
                .stream()
                .mapToLong(row -> ((Number) row.get(1)).longValue())
                .sum();
        assertEquals(1200, total, "the README's DuckDB query reads the archive");
    }
}
