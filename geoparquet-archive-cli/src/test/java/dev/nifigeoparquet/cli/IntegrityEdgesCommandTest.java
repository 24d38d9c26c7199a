package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.TestFiles;
import dev.nifigeoparquet.archive.testing.WriterFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a new user and a hostile tester met: each case exits as documented, says what is wrong, and changes nothing. */
class IntegrityEdgesCommandTest {

    @TempDir
    Path temp;

    /** GeoPandas' per-town files under the h3_cell directory of their rows at resolution 3; town 1 under town 0's cell when asked. */
    private Path perTownDataset(boolean misplaceTownOne) throws Exception {
        Path root = temp.resolve("towns");
        Path source = WriterFiles.copy("geopandas-per-town", temp.resolve("towns-source"));
        String townZeroCell = null;
        for (int town = 0; town < 4; town++) {
            Path file = source.resolve("town-" + town + ".parquet");
            Map<String, List<Group>> byCell = ArchiveFixtures.rowsByCell(file, 3);
            assertEquals(1, byCell.size(), "fixture: one town, one cell");
            String cell = byCell.keySet().iterator().next();
            townZeroCell = town == 0 ? cell : townZeroCell;
            Path target = root.resolve("h3_cell=" + (misplaceTownOne && town == 1 ? townZeroCell : cell))
                    .resolve(file.getFileName());
            Files.createDirectories(target.getParent());
            Files.move(file, target);
        }
        return root;
    }

    @Test
    void anArchivePathThatIsAFileIsAnInputErrorSayingSo() throws Exception {
        Path file = Files.writeString(temp.resolve("not-a-directory"), "x");
        for (String command : List.of("verify", "compact")) {
            String reason = Cli.run(command, "--archive", file).expect(2).reason();
            assertTrue(reason.contains(file + " is a file, not a directory"), reason);
        }
        String apply = Cli.run("apply", "--archive", file, "--mode", "upsert", "--delta", file)
                .expect(2)
                .reason();
        assertTrue(apply.contains("is a file, not a directory"), apply);
        String adopt = Cli.run("adopt", "--archive", file).expect(2).reason();
        assertTrue(adopt.contains("is a file, not a directory"), adopt);

        Path template = WriterFiles.copy("geopandas-parcels.parquet", temp.resolve("template.parquet"));
        String init = Cli.run("init", "--archive", file, "--template", template, "--h3-resolution", 5)
                .expect(2)
                .reason();
        assertTrue(init.contains("archive " + file + " cannot be created: it is a file, not a directory"), init);
        String below = Cli.run(
                        "init", "--archive", file.resolve("archive"), "--template", template, "--h3-resolution", 5)
                .expect(2)
                .reason();
        assertTrue(below.contains("cannot be created: " + file + " is a file, not a directory"), below);
        assertEquals("x", Files.readString(file));
    }

    @Test
    void initFromAGeoPandasTemplateReportsTheBboxItLeavesOutThenEmptyDeltasAreNoOps() throws Exception {
        Path template = WriterFiles.copy("geopandas-parcels.parquet", temp.resolve("template.parquet"));
        Path archive = temp.resolve("archive");
        Cli.Result created = Cli.run(
                        "init",
                        "--archive",
                        archive,
                        "--template",
                        template,
                        "--key",
                        "parcel_id",
                        "--h3-resolution",
                        5)
                .expect(0);
        assertTrue(
                created.err().contains("warning: ")
                        && created.err().contains("removed the file-level 'bbox' of column(s) [geometry]"),
                created.err());
        Cli.run("apply", "--archive", archive, "--mode", "append", "--delta", template, "-q")
                .expect(0);
        assertEquals(24, Parcels.count(archive));

        // An empty night, as each writer writes it: a no-op with exit 0.
        String before = TestFiles.treeDigest(archive);
        for (String empty : List.of(
                "pyarrow-empty-stats.parquet",
                "pyarrow-empty-nostats.parquet",
                "pyarrow-zero-row-groups.parquet",
                "geopandas-empty.parquet")) {
            Path delta = WriterFiles.copy(empty, temp.resolve(empty));
            Cli.Result result = Cli.run("apply", "--archive", archive, "--mode", "upsert", "--delta", delta)
                    .expect(0);
            assertTrue(
                    result.out().contains("applied upsert delta of 0 rows")
                            && result.out().contains("partitions touched: 0 of"),
                    empty + ": " + result.out());
        }
        assertEquals(before, TestFiles.treeDigest(archive), "an empty delta changes nothing");
        JsonNode report = Cli.run("verify", "--archive", archive, "--json", "--expect-count", 24, "--check-placement")
                .expect(0)
                .json();
        assertTrue(report.get("consistent").booleanValue(), report.toString());
        assertEquals(24, report.get("rowsPlaced").longValue());
    }

    @Test
    void aDeleteFieldTheDeltaDoesNotHaveIsAnError() throws Exception {
        Path archive = temp.resolve("parcels");
        Parcels.initKeyed(archive, temp, "--h3-resolution", 4);
        List<Group> parcels = Parcels.generate(3, 0, 20);
        Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "append",
                        "--delta",
                        Parcels.write(temp.resolve("baseline.parquet"), SyntheticParcels.schema(), parcels),
                        "-q")
                .expect(0);
        String before = TestFiles.treeDigest(archive);

        Path parquet = Parcels.write(
                temp.resolve("edits.parquet"),
                NightlyDelta.schema(),
                List.of(Parcels.deltaRow(parcels.get(0), 5, true)));
        String wrongName = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        parquet,
                        "--delete-field",
                        "removed",
                        "-q")
                .expect(2)
                .reason();
        assertTrue(
                wrongName.contains("delete-marker field 'removed' is not a field of the delta")
                        && wrongName.contains(NightlyDelta.DELETE_MARKER),
                wrongName);

        String feature = "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\","
                + "\"properties\":{\"parcel_id\":\"p-0\",\"land_use\":\"residential\",\"area_m2\":5,\"updated_at\":\"2026-01-02T00:00:00Z\""
                + "MARKER},\"geometry\":" + Parcels.geoJsonGeometry(parcels.get(0)) + "}]}";
        Path unmarked = Files.writeString(temp.resolve("edits.geojson"), feature.replace("MARKER", ""));
        String geoJsonName = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        unmarked,
                        "--delete-field",
                        "deleted",
                        "-q")
                .expect(2)
                .reason();
        assertTrue(geoJsonName.contains("no feature of " + unmarked + " has a property 'deleted'"), geoJsonName);
        assertEquals(before, TestFiles.treeDigest(archive));

        Path marked =
                Files.writeString(temp.resolve("deletes.geojson"), feature.replace("MARKER", ",\"deleted\":true"));
        Cli.run("apply", "--archive", archive, "--mode", "upsert", "--delta", marked, "--delete-field", "deleted", "-q")
                .expect(0);
        assertEquals(19, Parcels.count(archive), "with the right name the feature is deleted");
    }

    @Test
    void aGeoJsonWithNaNNamesWhereAndWhatInsteadOfAParserSetting() throws Exception {
        Path archive = temp.resolve("parcels");
        Parcels.initKeyed(archive, temp, "--h3-resolution", 4);
        Path nan = Files.writeString(
                temp.resolve("nan.geojson"),
                "{\"type\": \"FeatureCollection\", \"features\": [\n"
                        + "{\"type\": \"Feature\", \"properties\": {\"parcel_id\": \"a\", \"area_m2\": NaN}, \"geometry\": null}]}");
        String reason = Cli.run("apply", "--archive", archive, "--mode", "upsert", "--delta", nan, "-q")
                .expect(2)
                .reason();
        assertTrue(
                reason.contains(nan + " is not valid JSON at line 2, column ")
                        && reason.contains("NaN is not a JSON number"),
                reason);
        assertFalse(reason.contains("JsonReadFeature") || reason.contains("ALLOW_"), reason);
        Path infinity = Files.writeString(
                temp.resolve("inf.geojson"),
                "{\"type\": \"FeatureCollection\", \"features\": ["
                        + "{\"type\": \"Feature\", \"properties\": {\"area_m2\": -Infinity}, \"geometry\": null}]}");
        String negative = Cli.run("apply", "--archive", archive, "--mode", "upsert", "--delta", infinity, "-q")
                .expect(2)
                .reason();
        assertTrue(negative.contains("-Infinity is not a JSON number"), negative);
    }

    @Test
    void adoptRefusesMisplacedRowsRehomesThemWhenAskedAndVerifyChecksPlacement() throws Exception {
        Path root = perTownDataset(true);
        String before = TestFiles.treeDigest(root);
        String refused = Cli.run("adopt", "--archive", root, "--key", "parcel_id", "-q")
                .expect(2)
                .reason();
        assertTrue(
                refused.contains("6 row(s) lie outside the partition of their geometry's cell")
                        && refused.contains("town-1.parquet row 0")
                        && refused.contains("--rehome"),
                refused);
        assertEquals(before, TestFiles.treeDigest(root), "a refused adoption changes nothing");

        Cli.Result adopted = Cli.run("adopt", "--archive", root, "--key", "parcel_id", "--rehome", "-q")
                .expect(0);
        assertTrue(adopted.out().contains("rows re-homed:   6"), adopted.out());
        assertEquals(
                4L,
                DuckDb.query(
                                                "SELECT count(DISTINCT h3_cell) FROM read_parquet(?, hive_partitioning = true)",
                                                root + "/*/*.parquet")
                                        .get(0)
                                        .get(0)
                                instanceof Number n
                        ? n.longValue()
                        : -1);
        JsonNode all = Cli.run("verify", "--archive", root, "--json", "--expect-count", 24, "--check-placement=all")
                .expect(0)
                .json();
        assertTrue(all.get("consistent").booleanValue(), all.toString());
        assertEquals(24, all.get("rowsPlaced").longValue());
        JsonNode sample = Cli.run("verify", "--archive", root, "--json", "--check-placement", "8")
                .expect(0)
                .json();
        assertEquals(8, sample.get("rowsPlaced").longValue(), "every third of 24 rows");
        String bad = Cli.run("verify", "--archive", root, "--check-placement=some")
                .expect(2)
                .reason();
        assertTrue(bad.contains("--check-placement: A placement check is 'none', 'all' or a positive number"), bad);

        // The nightly update GeoPandas users run next: verify stays consistent.
        Path edit = WriterFiles.copy("geopandas-per-town/town-2.parquet", temp.resolve("town-2.parquet"));
        Cli.run("apply", "--archive", root, "--mode", "upsert", "--delta", edit, "-q")
                .expect(0);
        JsonNode after = Cli.run("verify", "--archive", root, "--json", "--expect-count", 24, "--check-placement")
                .expect(0)
                .json();
        assertTrue(after.get("consistent").booleanValue(), after.toString());
    }
}
