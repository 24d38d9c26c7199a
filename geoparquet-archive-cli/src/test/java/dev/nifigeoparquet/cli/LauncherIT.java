package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the real launcher, {@code bin/geoparquet-archive}, as a process (after {@code package}, so its jar exists):
 * it finds a JDK the way {@code .ci/run} does and starts the tool.
 */
class LauncherIT {

    @TempDir
    Path temp;

    record Run(int exitCode, String out, String err) {}

    private static Path launcher() {
        Path root = Path.of(System.getProperty("repository.root", ".."))
                .toAbsolutePath()
                .normalize();
        Path launcher = root.resolve("bin/geoparquet-archive");
        assertTrue(Files.isExecutable(launcher), launcher + " is executable");
        return launcher;
    }

    private Run run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(launcher().toString());
        command.addAll(List.of(args));
        Path out = temp.resolve("out.txt");
        Path err = temp.resolve("err.txt");
        Process process = new ProcessBuilder(command)
                .directory(temp.toFile())
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        assertTrue(process.waitFor(10, TimeUnit.MINUTES), "the launcher finishes");
        return new Run(
                process.exitValue(),
                Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    /**
     * The first run builds the tool; it says so and shows each module as Maven starts it, instead of a silent minute.
     * A checkout whose {@code mvnw} prints what Maven prints (and leaves the real jar) stands in for the build.
     */
    @Test
    void theFirstRunShowsTheBuildsProgress() throws Exception {
        Path root = Path.of(System.getProperty("repository.root", ".."))
                .toAbsolutePath()
                .normalize();
        Path checkout = temp.resolve("checkout");
        Files.createDirectories(checkout.resolve("bin/lib"));
        Files.copy(root.resolve("bin/geoparquet-archive"), checkout.resolve("bin/geoparquet-archive"));
        Files.copy(root.resolve("bin/lib/find-java.sh"), checkout.resolve("bin/lib/find-java.sh"));
        checkout.resolve("bin/geoparquet-archive").toFile().setExecutable(true);
        Path target = root.resolve("geoparquet-archive-cli/target");
        Path mvnw = checkout.resolve("mvnw");
        Files.writeString(
                mvnw,
                String.join(
                        "\n",
                        "#!/usr/bin/env bash",
                        "echo '[INFO] Scanning for projects...'",
                        "echo '[INFO] Downloading from central: https://repo.example/x.pom'",
                        "echo '[INFO] Building nifi-geoparquet 0.1.0-SNAPSHOT                                   [1/3]'",
                        "echo '[INFO] Building geoparquet-archive 0.1.0-SNAPSHOT                                [2/3]'",
                        "echo '[INFO] Building geoparquet-archive-cli 0.1.0-SNAPSHOT                            [3/3]'",
                        "mkdir -p geoparquet-archive-cli/target",
                        "cp -r '" + target.resolve("lib") + "' '" + target.resolve("geoparquet-archive-cli.jar")
                                + "' geoparquet-archive-cli/target/",
                        "echo '[INFO] BUILD SUCCESS'",
                        ""));
        mvnw.toFile().setExecutable(true);

        Process process = new ProcessBuilder(
                        checkout.resolve("bin/geoparquet-archive").toString(), "--version")
                .directory(temp.toFile())
                .redirectOutput(temp.resolve("first-out.txt").toFile())
                .redirectError(temp.resolve("first-err.txt").toFile())
                .start();
        assertTrue(process.waitFor(2, TimeUnit.MINUTES));
        String err = Files.readString(temp.resolve("first-err.txt"));
        assertEquals(0, process.exitValue(), err);
        assertEquals(
                List.of(
                        "geoparquet-archive: building the command-line tool first (./mvnw package, about a minute; once)...",
                        "geoparquet-archive:   downloading Maven and the build's dependencies (first build only)...",
                        "geoparquet-archive:   building nifi-geoparquet 0.1.0-SNAPSHOT [1/3]",
                        "geoparquet-archive:   building geoparquet-archive 0.1.0-SNAPSHOT [2/3]",
                        "geoparquet-archive:   building geoparquet-archive-cli 0.1.0-SNAPSHOT [3/3]",
                        "geoparquet-archive:   built; running the command"),
                err.lines().toList());
        assertTrue(Files.readString(temp.resolve("first-out.txt")).startsWith("geoparquet-archive "));
    }

    @Test
    void helpRunsThroughTheLauncher() throws Exception {
        Run help = run("--help");
        assertEquals(0, help.exitCode(), help.err());
        assertTrue(help.out().startsWith("Usage: geoparquet-archive"), help.out());
        Run usage = run("verify");
        assertEquals(2, usage.exitCode());
        assertEquals(1, usage.err().lines().count(), usage.err());
    }

    /** The README's quickstart, exactly: the default demo in the working directory. */
    @Test
    void theQuickstartDemoRunsAsTheReadmeGivesIt() throws Exception {
        Run demo = run("demo");
        assertEquals(0, demo.exitCode(), demo.out() + demo.err());
        assertTrue(demo.err().contains("parcels generated"), "progress on stderr: " + demo.err());
        assertTrue(
                demo.out().contains("rows: baseline 50,000 + net delta")
                        && demo.out().contains("reconciled"),
                demo.out());
        assertTrue(Files.isRegularFile(temp.resolve("geoparquet-demo/report.html")));

        // The README shows this output: the same lines, the same figures (byte counts may move with the writer).
        Path root = Path.of(System.getProperty("repository.root", ".."))
                .toAbsolutePath()
                .normalize();
        List<String> readme = Files.readAllLines(root.resolve("README.md"));
        int start = readme.indexOf("Nightly update of $PWD/geoparquet-demo/archive");
        assertTrue(start > 0, "README.md shows the demo's output");
        List<String> shown = readme.subList(
                start, start + readme.subList(start, readme.size()).indexOf("```"));
        List<String> printed = demo.out()
                .replace(temp.toRealPath().toString(), "$PWD")
                .replace(temp.toString(), "$PWD")
                .lines()
                .toList();
        assertEquals(
                shown.size(), printed.size(), "README.md:\n" + String.join("\n", shown) + "\ndemo:\n" + demo.out());
        for (int i = 0; i < shown.size(); i++) {
            boolean bytes = shown.get(i).startsWith("bytes written: ");
            assertEquals(
                    bytes ? shown.get(i).replaceAll("[0-9]+", "#") : shown.get(i),
                    bytes ? printed.get(i).replaceAll("[0-9]+", "#") : printed.get(i));
        }
        assertTrue(
                demo.err().contains("upsert partitions: 4 done") && !demo.err().contains("deletions by key"),
                demo.err());
    }

    @Test
    void aSmallDemoRunsQuietlyThroughTheLauncher() throws Exception {
        Path dir = temp.resolve("small");
        Run demo = run("demo", "--quiet", "--dir", dir.toString(), "--features", "3000", "--delta", "200");
        assertEquals(0, demo.exitCode(), demo.out() + demo.err());
        assertEquals("", demo.err(), "--quiet: nothing on stderr");
        assertTrue(demo.out().contains("geo consistent: True") && demo.out().contains("reconciled"), demo.out());
        assertTrue(Files.isRegularFile(dir.resolve("report.html")));
    }
}
