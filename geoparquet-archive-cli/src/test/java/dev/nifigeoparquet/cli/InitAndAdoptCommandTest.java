package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.io.WKBReader;

/** {@code init} from a peer template and {@code adopt} of a GeoPandas-style archive. */
class InitAndAdoptCommandTest {

    private static final String POLYGONS = "geoparquet-1.1.0/data-polygon-encoding_wkb.parquet";

    @TempDir
    Path temp;

    @Test
    void initsFromAPeerTemplateAndAppendsThePeerRows() throws Exception {
        Path template = PeerData.copy(POLYGONS, temp.resolve("peer"));
        Path archive = temp.resolve("archive");
        Cli.Result created = Cli.run(
                        "init", "--archive", archive, "--template", template, "--key", "col", "--h3-resolution", 5)
                .expect(0);
        assertTrue(
                created.out().contains("h3 resolution:   5") && created.out().contains("key:             [col]"),
                created.out());
        assertTrue(Files.isRegularFile(archive.resolve("_geoparquet_archive/descriptor.json")));

        // The peer file holds an empty and a null geometry, which cannot be keyed: the whole delta is refused.
        String unkeyable = Cli.run("apply", "--archive", archive, "--mode", "append", "--delta", template, "-q")
                .expect(2)
                .reason();
        assertTrue(
                unkeyable.contains("EMPTY_GEOMETRY")
                        && unkeyable.contains("NULL_GEOMETRY")
                        && unkeyable.contains("nothing was written"),
                unkeyable);
        try (var entries = Files.list(archive)) {
            assertTrue(
                    entries.noneMatch(entry -> entry.getFileName().toString().startsWith("h3_cell=")),
                    "no partition was written");
        }

        ParquetRows.Contents contents = ParquetRows.read(template);
        List<Group> keyable = new ArrayList<>();
        for (Group row : contents.rows()) {
            if (row.getFieldRepetitionCount("geometry") > 0
                    && !new WKBReader()
                            .read(row.getBinary("geometry", 0).getBytes())
                            .isEmpty()) {
                keyable.add(row);
            }
        }
        Path delta = temp.resolve("keyable.parquet");
        ArchiveFixtures.writeFile(
                delta, contents.footer().schema(), contents.footer().canonicalEntries(), keyable);
        Cli.run("apply", "--archive", archive, "--mode", "append", "--delta", delta, "-q")
                .expect(0);
        long expected = DuckDb.countRows(template) - 2;
        assertEquals(keyable.size(), expected, "DuckDB agrees two peer rows have no keyable geometry");
        assertEquals(expected, Parcels.count(archive), "every keyable peer row lands in the archive once");
        JsonNode report = Cli.run("verify", "--archive", archive, "--json", "--expect-count", expected)
                .expect(0)
                .json();
        assertTrue(report.get("consistent").booleanValue(), report.toString());

        String again = Cli.run(
                        "init", "--archive", archive, "--template", template, "--key", "col", "--h3-resolution", 5)
                .expect(2)
                .reason();
        assertTrue(again.contains("already exists"), again);
        String noKey = Cli.run(
                        "init",
                        "--archive",
                        temp.resolve("other"),
                        "--template",
                        template,
                        "--key",
                        "nope",
                        "--h3-resolution",
                        5)
                .expect(2)
                .reason();
        assertTrue(noKey.contains("'nope'"), noKey);
        String badResolution = Cli.run(
                        "init", "--archive", temp.resolve("other"), "--template", template, "--h3-resolution", 16)
                .expect(2)
                .reason();
        assertTrue(badResolution.contains("16"), badResolution);
        String noTemplate = Cli.run(
                        "init",
                        "--archive",
                        temp.resolve("other"),
                        "--template",
                        temp.resolve("none.parquet"),
                        "--h3-resolution",
                        5)
                .expect(2)
                .reason();
        assertTrue(noTemplate.contains("none.parquet"), noTemplate);
    }

    @Test
    void adoptsAGeoPandasStyleArchiveAndVerifiesIt() throws Exception {
        Path root = temp.resolve("geopandas");
        var byCell = ArchiveFixtures.writeGeoPandasStyleArchive(root, 1);
        long rows = byCell.values().stream().mapToLong(List::size).sum();

        String mismatch = Cli.run("adopt", "--archive", root, "--key", "name", "--h3-resolution", 3, "-q")
                .expect(2)
                .reason();
        assertTrue(mismatch.contains("3") && mismatch.contains("1"), mismatch);

        Cli.Result adopted =
                Cli.run("adopt", "--archive", root, "--key", "name", "-q").expect(0);
        assertTrue(adopted.out().contains("partitions:      " + byCell.size()), adopted.out());
        assertTrue(adopted.out().contains("rows:            " + rows), adopted.out());

        JsonNode report = Cli.run("verify", "--archive", root, "--json", "--expect-count", rows)
                .expect(0)
                .json();
        assertTrue(report.get("consistent").booleanValue(), report.toString());
        assertEquals(byCell.size(), report.get("partitions").intValue());
        assertEquals(rows, report.get("rows").longValue());
        assertEquals(rows, Parcels.count(root), "DuckDB reads the same rows");
        assertTrue(
                report.get("knownVariations").size() > 0, "GeoPandas' per-file bboxes are known variations: " + report);
    }
}
