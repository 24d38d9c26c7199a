package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.NightlyBacklog;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code apply --delta-sequence}, as an operator catching up on a backlog uses it: three nights (updates, new keys,
 * deletions, re-inserts, moves) applied in all six orders, one command after another and as three commands running at
 * once (three processes, started in every order), leave the rows the nights leave applied in order. Replaying a night
 * changes nothing. Without the sequence the orders disagree. Runs after {@code package}: the concurrent commands are the
 * real launcher, {@code bin/geoparquet-archive}.
 */
class BacklogCommandIT {

    private static final List<List<Integer>> ORDERS = List.of(
            List.of(0, 1, 2), List.of(0, 2, 1), List.of(1, 0, 2), List.of(1, 2, 0), List.of(2, 0, 1), List.of(2, 1, 0));

    @TempDir
    Path temp;

    Path baseline;
    final List<Path> nights = new ArrayList<>();

    @BeforeEach
    void createArchiveAndNights() throws Exception {
        baseline = temp.resolve("baseline");
        Parcels.initKeyed(baseline, temp, "--version-column", SyntheticParcels.VERSION, "--h3-resolution", 5);
        List<Group> rows = Parcels.generate(7, 0, 400);
        Cli.run(
                        "apply",
                        "--archive",
                        baseline,
                        "--mode",
                        "append",
                        "--delta",
                        Parcels.write(temp.resolve("baseline.parquet"), SyntheticParcels.schema(), rows),
                        "--quiet")
                .expect(0);
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(baseline));
        Map<String, List<Group>> byCell = new TreeMap<>();
        for (Group row : rows) {
            byCell.computeIfAbsent(ArchiveFixtures.cellOf(archive, row), cell -> new ArrayList<>())
                    .add(row);
        }
        NightlyBacklog backlog = NightlyBacklog.against(byCell, row -> ArchiveFixtures.cellOf(archive, row), false);
        for (int night = 0; night < 3; night++) {
            nights.add(Parcels.write(
                    temp.resolve("nightly-" + NightlyBacklog.sequence(night) + ".parquet"),
                    NightlyDelta.schema(),
                    backlog.night(night)));
        }
    }

    @Test
    void threeNightsInEveryOrderOneAfterAnotherAndAtOnceLeaveTheRowsOfTheInOrderRun() throws Exception {
        Path inOrder = copy("in-order");
        for (int night = 0; night < 3; night++) {
            apply(inOrder, night, true);
        }
        List<List<Object>> expected = rows(inOrder);
        for (List<Integer> order : ORDERS) {
            Path serial = copy("serial-" + name(order));
            for (int night : order) {
                apply(serial, night, true);
            }
            assertEquals(expected, rows(serial), "commands one after another, order " + order);
            for (int night : order) {
                Cli.Result replay = apply(serial, night, true);
                assertTrue(
                        replay.out().contains("rows net:           +0"), "a replay changes nothing: " + replay.out());
            }
            assertEquals(expected, rows(serial), "replayed, order " + order);
            Cli.run("verify", "--archive", serial, "--expect-count", expected.size())
                    .expect(0);
        }
        for (List<Integer> order : ORDERS) {
            Path concurrent = copy("concurrent-" + name(order));
            applyAtOnce(concurrent, order);
            assertEquals(expected, rows(concurrent), "three commands at once, started in order " + order);
            Cli.run("verify", "--archive", concurrent, "--expect-count", expected.size())
                    .expect(0);
        }
        Path unsequenced = copy("unsequenced");
        for (int night : List.of(2, 1, 0)) {
            apply(unsequenced, night, false);
        }
        assertNotEquals(expected, rows(unsequenced), "without --delta-sequence the late nights win");
    }

    @Test
    void aSequenceWithReplaceOrBelowZeroIsAUsageError() {
        String replace = Cli.run(
                        "apply",
                        "--archive",
                        baseline,
                        "--mode",
                        "replace",
                        "--delta",
                        nights.get(0),
                        "--delta-sequence",
                        1)
                .expect(ExitCodes.USAGE)
                .reason();
        assertTrue(replace.contains("--delta-sequence") && replace.contains("replace"), replace);
        String negative = Cli.run(
                        "apply",
                        "--archive",
                        baseline,
                        "--mode",
                        "upsert",
                        "--delete-field",
                        NightlyDelta.DELETE_MARKER,
                        "--delta",
                        nights.get(0),
                        "--delta-sequence",
                        -5)
                .expect(ExitCodes.USAGE)
                .reason();
        assertTrue(negative.contains("0 or more"), negative);
    }

    private Cli.Result apply(Path archive, int night, boolean sequenced) {
        List<Object> args = new ArrayList<>(List.of(
                "apply",
                "--archive",
                archive,
                "--mode",
                "upsert",
                "--delete-field",
                NightlyDelta.DELETE_MARKER,
                "--delta",
                nights.get(night),
                "--quiet"));
        if (sequenced) {
            args.addAll(List.of("--delta-sequence", NightlyBacklog.sequence(night)));
        }
        return Cli.run(args.toArray()).expect(0);
    }

    /** Three launcher processes at once, one night each, started in {@code order}. */
    private void applyAtOnce(Path archive, List<Integer> order) throws Exception {
        Path launcher = Path.of(System.getProperty("repository.root", ".."))
                .toAbsolutePath()
                .normalize()
                .resolve("bin/geoparquet-archive");
        List<Process> running = new ArrayList<>();
        for (int night : order) {
            Path log = temp.resolve(archive.getFileName() + "-night-" + night + ".log");
            running.add(new ProcessBuilder(
                            launcher.toString(),
                            "apply",
                            "--archive",
                            archive.toString(),
                            "--mode",
                            "upsert",
                            "--delete-field",
                            NightlyDelta.DELETE_MARKER,
                            "--delta",
                            nights.get(night).toString(),
                            "--delta-sequence",
                            String.valueOf(NightlyBacklog.sequence(night)),
                            "--quiet")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start());
        }
        for (int i = 0; i < running.size(); i++) {
            Process process = running.get(i);
            assertTrue(process.waitFor(5, TimeUnit.MINUTES), "the command finishes");
            Path log = temp.resolve(archive.getFileName() + "-night-" + order.get(i) + ".log");
            assertEquals(0, process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        }
    }

    private static List<List<Object>> rows(Path archive) {
        return DuckDb.query(
                "SET enable_geoparquet_conversion = false;"
                        + " SELECT parcel_id, land_use, area_m2, updated_at, md5(geometry), h3_cell"
                        + " FROM read_parquet(?, hive_partitioning = true) ORDER BY parcel_id",
                archive + "/*/*.parquet");
    }

    private Path copy(String name) throws Exception {
        Path to = temp.resolve(name);
        try (Stream<Path> paths = Files.walk(baseline)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path target = to.resolve(baseline.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(path, target);
                }
            }
        }
        return to;
    }

    private static String name(List<Integer> order) {
        return order.stream().map(String::valueOf).reduce("", String::concat);
    }
}
