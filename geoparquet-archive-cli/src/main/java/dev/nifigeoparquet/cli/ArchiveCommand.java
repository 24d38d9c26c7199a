package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** What every command shares: the output streams, {@code --quiet}, and opening an archive. */
abstract class ArchiveCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = {"-q", "--quiet"}, description = "Print no progress on stderr (errors are still reported).")
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
        if (!Files.isDirectory(root)) {
            throw new InputException("archive directory " + root + " does not exist");
        }
        return GeoParquetArchive.open(new LocalArchiveStorage(root));
    }

    static Path requireFile(Path file, String role) {
        if (!Files.isRegularFile(file)) {
            throw new InputException(role + " " + file + " does not exist or is not a file");
        }
        return file;
    }
}
