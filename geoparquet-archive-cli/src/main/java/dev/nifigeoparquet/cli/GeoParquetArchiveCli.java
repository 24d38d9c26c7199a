package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.error.ArchiveNotFoundException;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code geoparquet-archive}: creates, adopts, updates, compacts and verifies a Hive-partitioned GeoParquet archive
 * with the same engine the NiFi processors use, and runs a self-contained demo.
 *
 * <p>Exit codes: {@value ExitCodes#OK} on success, {@value ExitCodes#CHECK_FAILED} when a check fails (verification
 * found problems, counts do not reconcile) or an operation fails, {@value ExitCodes#USAGE} on usage or input
 * errors. Every failure prints one line on stderr saying why.
 */
@Command(
        name = "geoparquet-archive",
        mixinStandardHelpOptions = true,
        versionProvider = GeoParquetArchiveCli.Version.class,
        description =
                "Keeps a Hive-partitioned GeoParquet archive (<root>/h3_cell=<cell>/*.parquet) current by rewriting "
                        + "only the partitions a delta touches.",
        footer = {
            "",
            "Exit codes: 0 success, 1 a check or operation failed, 2 usage or input error.",
            "Run 'geoparquet-archive COMMAND --help' for a command's options."
        },
        subcommands = {
            InitCommand.class,
            AdoptCommand.class,
            ApplyCommand.class,
            CompactCommand.class,
            VerifyCommand.class,
            DemoCommand.class
        })
public final class GeoParquetArchiveCli implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(
                args,
                new PrintWriter(System.out, true, StandardCharsets.UTF_8),
                new PrintWriter(System.err, true, StandardCharsets.UTF_8)));
    }

    /** Runs the tool with the given arguments and streams; returns the exit code. */
    public static int run(String[] args, PrintWriter out, PrintWriter err) {
        CommandLine commandLine = new CommandLine(new GeoParquetArchiveCli());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setCaseInsensitiveEnumValuesAllowed(true);
        commandLine.setParameterExceptionHandler((e, arguments) -> {
            String command = e.getCommandLine().getCommandSpec().qualifiedName();
            e.getCommandLine()
                    .getErr()
                    .println(command + ": " + oneLine(e.getMessage()) + " (see '" + command + " --help')");
            return ExitCodes.USAGE;
        });
        commandLine.setExecutionExceptionHandler((e, failed, parsed) -> {
            String command = failed.getCommandSpec().qualifiedName();
            failed.getErr().println(command + ": " + reason(e));
            return exitCodeOf(e);
        });
        int code = commandLine.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    @Override
    public Integer call() {
        spec.commandLine()
                .getErr()
                .println("geoparquet-archive: a command is required (see 'geoparquet-archive --help')");
        return ExitCodes.USAGE;
    }

    /**
     * The exit code of a failure, by its type: what the user gave (the command line, a file, a delta, an archive location)
     * is a usage error; everything else, the engine's own invariants included, is a failed operation.
     */
    static int exitCodeOf(Exception e) {
        return switch (e) {
            case RejectedInputException ignored -> ExitCodes.USAGE; // InputException among them
            case ArchiveNotFoundException ignored -> ExitCodes.USAGE;
            case NoSuchFileException ignored -> ExitCodes.USAGE;
            case FileAlreadyExistsException ignored -> ExitCodes.USAGE;
            case KeyingException ignored -> ExitCodes.USAGE;
            default -> ExitCodes.CHECK_FAILED;
        };
    }

    static String reason(Exception e) {
        String message = e.getMessage();
        return switch (e) {
            case NoSuchFileException missing -> "no such file: " + missing.getFile();
            case FileAlreadyExistsException exists ->
                exists.getFile() + ": " + (exists.getReason() == null ? "already exists" : exists.getReason());
            case ArchiveNotFoundException ignored ->
                oneLine(message) + " (create one with 'init' or adopt an existing directory with 'adopt')";
            default -> oneLine(message == null ? e.getClass().getSimpleName() : message);
        };
    }

    /** Collapses a message onto one line, as every failure is reported in one line. */
    static String oneLine(String message) {
        return message == null ? "" : message.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = GeoParquetArchiveCli.class.getPackage().getImplementationVersion();
            return new String[] {"geoparquet-archive " + (version == null ? "(development build)" : version)};
        }
    }
}
