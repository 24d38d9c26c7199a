package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Scenario 8, the command line cold: the nightly delta applied by {@code bin/geoparquet-archive apply}, a process
 * started for it as cron or an operator starts it, with its start-up cache and without, against DuckDB doing the same
 * partition work ({@link DuckDbSameWork#main}) as its own Java process: a JVM started for it, DuckDB's library
 * loaded, the canonical {@code geo} bytes read from a data file, the touched cells given (the engine's key index finds
 * them; a script would have to scan the archive's keys). Each runs once unmeasured (which makes the start-up cache
 * when it is missing), then {@link #ROUNDS} times, interleaved in an order that turns each round, each on its own
 * copy; every measured copy's digest must equal the unmeasured command line copy's, whose rows and distinct keys
 * DuckDB counts.
 */
final class CliColdScenario {

    static final int ROUNDS = 5;

    enum Approach {
        CLI("commandLine"),
        CLI_WITHOUT_STARTUP_CACHE("commandLineWithoutStartupCache"),
        DUCKDB_SAME_WORK_PROCESS("duckDbSameWorkProcess");

        final String key;

        Approach(String key) {
            this.key = key;
        }
    }

    private CliColdScenario() {}

    static void run(NightlyDeltaScenario.Prepared prepared, Path launcher, Path work, ObjectNode out) throws Exception {
        Path pristine = prepared.archive().root;
        Archives.deleteTree(work);
        Files.createDirectories(work);
        Path cliDelta = work.resolve("delta-for-the-command-line.parquet");
        prepared.delta().writeParquetForTheCommandLine(cliDelta);
        Map<Approach, List<Double>> seconds = new EnumMap<>(Approach.class);
        try (DuckDb referee = new DuckDb()) {
            Rounds.Copies copies = new Rounds.Copies(
                    referee, prepared.archive().rows + prepared.delta().expectedNetRows());
            Set<String> cells = DuckDbSameWork.touchedCells(referee, pristine, prepared.deltaFile());
            out.put("launcher", launcher.toString());
            out.put("partitionsTouched", cells.size());
            for (int round = -1; round < ROUNDS; round++) {
                for (int k = 0; k < Approach.values().length; k++) {
                    Approach approach = Rounds.inTurn(Approach.values(), round, k);
                    Path root = work.resolve(approach.key + "-" + (round + 1));
                    Archives.linkCopy(pristine, root);
                    List<String> command = command(approach, launcher, root, cliDelta, prepared.deltaFile(), cells);
                    double wall = runProcess(command, approach, work.resolve(approach.key + ".log"));
                    copies.check(root, approach == Approach.CLI, round >= 0);
                    Archives.deleteTree(root);
                    if (round >= 0) {
                        seconds.computeIfAbsent(approach, a -> new ArrayList<>())
                                .add(wall);
                    }
                }
            }
            out.set("verification", copies.verification());
        }
        ObjectNode approaches = out.putObject("approaches");
        seconds.forEach((approach, runs) -> Rounds.putWallSeconds(approaches.putObject(approach.key), runs));
        double duckDb = approaches
                .path(Approach.DUCKDB_SAME_WORK_PROCESS.key)
                .path("medianWallSeconds")
                .asDouble();
        ObjectNode ratios = out.putObject("ratios");
        ratios.put(
                "commandLineOverDuckDbSameWorkProcess",
                approaches.path(Approach.CLI.key).path("medianWallSeconds").asDouble() / duckDb);
        ratios.put(
                "commandLineWithoutStartupCacheOverDuckDbSameWorkProcess",
                approaches
                                .path(Approach.CLI_WITHOUT_STARTUP_CACHE.key)
                                .path("medianWallSeconds")
                                .asDouble()
                        / duckDb);
        Archives.deleteTree(work);
    }

    /** {@code bin/geoparquet-archive} of the checkout the benchmarks run in (the working directory or above it). */
    static Path launcher() throws IOException {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path launcher = dir.resolve("bin").resolve("geoparquet-archive");
            if (Files.isExecutable(launcher)) {
                return launcher;
            }
        }
        throw new IOException("No bin/geoparquet-archive in " + Path.of("").toAbsolutePath() + " or above it");
    }

    private static List<String> command(
            Approach approach, Path launcher, Path root, Path cliDelta, Path deltaFile, Set<String> cells) {
        List<String> command = new ArrayList<>();
        if (approach == Approach.DUCKDB_SAME_WORK_PROCESS) {
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            // The options this process was started with that concern native access, not its heap or recording.
            ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                    .filter(option -> option.startsWith("--enable-native-access")
                            || option.startsWith("--sun-misc-unsafe-memory-access"))
                    .forEach(command::add);
            command.addAll(List.of(
                    "-cp",
                    System.getProperty("java.class.path"),
                    DuckDbSameWork.class.getName(),
                    root.toString(),
                    deltaFile.toString()));
            command.addAll(cells);
        } else {
            command.addAll(List.of(
                    launcher.toString(),
                    "apply",
                    "--archive",
                    root.toString(),
                    "--mode",
                    "upsert",
                    "--delta",
                    cliDelta.toString(),
                    "--delete-field",
                    "is_delete",
                    "--quiet"));
        }
        return command;
    }

    /** Runs one command to its end; its wall seconds, from start to exit. */
    private static double runProcess(List<String> command, Approach approach, Path log)
            throws IOException, InterruptedException {
        ProcessBuilder builder =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment()
                .put("GEOPARQUET_STARTUP_CACHE", approach == Approach.CLI_WITHOUT_STARTUP_CACHE ? "off" : "on");
        long start = System.nanoTime();
        int exit = builder.start().waitFor();
        double wall = (System.nanoTime() - start) / 1e9;
        if (exit != 0) {
            throw new IllegalStateException(approach.key + " exited with " + exit + ": " + String.join(" ", command)
                    + "\n" + Files.readString(log));
        }
        return wall;
    }
}
