package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo's figures reconcile by an independent count, and its HTML report stands alone. */
class DemoCommandTest {

    private static final Pattern ROWS = Pattern.compile(
            "rows: baseline ([\\d,]+) \\+ net delta ([+-][\\d,]+) = ([\\d,]+) after \\(expected ([\\d,]+)\\): reconciled");
    private static final Pattern TOUCHED = Pattern.compile("partitions touched: (\\d+) of (\\d+)");

    @TempDir
    Path temp;

    @Test
    void figuresReconcileAndTheReportIsSelfContained() throws Exception {
        Path dir = temp.resolve("demo");
        Cli.Result result = Cli.run("demo", "--dir", dir, "--features", 20_000, "--delta", 600)
                .expect(0);
        assertTrue(result.err().contains("parcels generated"), "progress on stderr: " + result.err());

        Matcher rows = ROWS.matcher(result.out());
        assertTrue(rows.find(), result.out());
        long baseline = number(rows.group(1));
        long net = number(rows.group(2));
        long after = number(rows.group(3));
        assertEquals(20_000, baseline);
        assertEquals(baseline + net, after);
        assertEquals(after, number(rows.group(4)));
        Path archive = dir.resolve("archive");
        assertEquals(after, Parcels.count(archive), "DuckDB counts the rows the report claims");
        assertTrue(
                result.out().contains("geo consistent: True") && result.out().contains("crs: OGC:CRS84"), result.out());
        assertTrue(Files.isRegularFile(dir.resolve("nightly-delta.parquet")));

        // Touched partitions: those with a commit after their bulk-load commit, read from the commit logs.
        List<String> touched = new ArrayList<>();
        try (Stream<Path> logs = Files.list(archive.resolve("_geoparquet_archive/log"))) {
            for (Path log : logs.filter(p -> p.getFileName().toString().matches("[0-9a-f]{15}"))
                    .toList()) {
                try (Stream<Path> entries = Files.list(log)) {
                    if (entries.anyMatch(
                            entry -> !entry.getFileName().toString().equals("00000000000000000001.json"))) {
                        touched.add(log.getFileName().toString());
                    }
                }
            }
        }
        Matcher counts = TOUCHED.matcher(result.out());
        assertTrue(counts.find(), result.out());
        assertEquals(touched.size(), Integer.parseInt(counts.group(1)), "touched partitions " + touched);
        assertTrue(touched.size() < Integer.parseInt(counts.group(2)) / 4, "the delta touches a few partitions only");

        String html = Files.readString(dir.resolve("report.html"));
        assertFalse(
                html.contains("http://")
                        || html.contains("https://")
                        || html.contains("<script")
                        || html.contains("<link"),
                "the report loads nothing from elsewhere");
        assertTrue(html.contains("<svg") && html.contains("geo consistent"), "map and figures");
        for (String cell : touched) {
            assertTrue(
                    html.contains("class=\"cell touched\" data-cell=\"" + cell + "\""),
                    cell + " highlighted on the map");
            assertTrue(html.contains("<code>" + cell + "</code>"), cell + " named in the table");
        }
    }

    @Test
    void refusesADirectoryThatHoldsFiles() throws Exception {
        Files.writeString(temp.resolve("keep.txt"), "mine");
        String reason = Cli.run("demo", "--dir", temp, "--features", 1000, "--delta", 10, "-q")
                .expect(2)
                .reason();
        assertTrue(reason.contains("not an empty directory"), reason);
        assertTrue(Files.exists(temp.resolve("keep.txt")));
    }

    private static long number(String text) {
        return Long.parseLong(text.replace(",", "").replace("+", ""));
    }
}
