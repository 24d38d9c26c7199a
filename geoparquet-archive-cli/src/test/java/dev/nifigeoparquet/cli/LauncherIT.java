package dev.nifigeoparquet.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the real launcher, {@code bin/geoparquet-archive}, as a process (after {@code package}, so its jar exists):
 * it finds a JDK the way {@code .ci/run} does and starts the tool.
 */
class LauncherIT {

    @TempDir
    Path temp;

    record Run(int exitCode, String out, String err) {
    }

    private static Path launcher() {
        Path root = Path.of(System.getProperty("repository.root", "..")).toAbsolutePath().normalize();
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
        Process process = new ProcessBuilder(command).directory(temp.toFile())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(process.waitFor(10, TimeUnit.MINUTES), "the launcher finishes");
        return new Run(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
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
        assertTrue(demo.out().contains("rows: baseline 50,000 + net delta") && demo.out().contains("reconciled"), demo.out());
        assertTrue(Files.isRegularFile(temp.resolve("geoparquet-demo/report.html")));
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
