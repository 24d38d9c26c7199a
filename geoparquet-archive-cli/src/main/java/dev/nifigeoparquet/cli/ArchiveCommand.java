package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** What every command shares: the output streams, {@code --quiet}, and opening an archive. */
abstract class ArchiveCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(
            names = {"-q", "--quiet"},
            description = "Print no progress on stderr (errors are still reported).")
    boolean quiet;

    PrintWriter out() {
        return spec.commandLine().getOut();
    }

    PrintWriter err() {
        return spec.commandLine().getErr();
    }

    Progress progress() {
        return new Progress(err(), quiet);
    }

    /** Opens an existing archive; a missing directory or descriptor is an input error. */
    static GeoParquetArchive openArchive(Path root) throws IOException {
        requireDirectory(root, "archive");
        return GeoParquetArchive.open(new LocalArchiveStorage(root));
    }

    /**
     * Gives the archive's operations {@code threads} threads for the partitions of a run (null keeps the default, one
     * per available core); fewer than 1 is an input error.
     */
    static GeoParquetArchive withThreads(GeoParquetArchive archive, Integer threads) {
        if (threads == null) {
            return archive;
        }
        if (threads < 1) {
            throw new InputException("--threads must be at least 1, was " + threads);
        }
        return archive.useThreads(threads);
    }

    /** An existing directory; a missing path, or a path that is a file, is an input error saying which. */
    static Path requireDirectory(Path directory, String role) {
        if (Files.isDirectory(directory)) {
            return directory;
        }
        if (Files.exists(directory)) {
            throw new InputException(role + " " + directory + " is a file, not a directory");
        }
        throw new InputException(role + " directory " + directory + " does not exist");
    }

    /**
     * A path where a directory can be created: it is a directory already, or nothing exists there and its nearest
     * existing ancestor is a directory. Anything else (a file in the way) is an input error naming it.
     */
    static Path requireCreatableDirectory(Path directory, String role) {
        Path absolute = directory.toAbsolutePath().normalize();
        for (Path path = absolute; path != null; path = path.getParent()) {
            if (Files.isDirectory(path)) {
                return directory;
            }
            if (Files.exists(path)) {
                throw new InputException(role + " " + directory + " cannot be created: "
                        + (path.equals(absolute) ? "it" : path) + " is a file, not a directory");
            }
        }
        return directory;
    }

    static Path requireFile(Path file, String role) {
        if (!Files.isRegularFile(file)) {
            throw new InputException(role + " " + file + " does not exist or is not a file");
        }
        return file;
    }
}
