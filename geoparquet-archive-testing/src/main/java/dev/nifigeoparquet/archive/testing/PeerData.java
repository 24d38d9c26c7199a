package dev.nifigeoparquet.archive.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * Locates the peer test data (real files written by other GeoParquet implementations) through the system
 * property {@value #PROPERTY}, which the build sets. The files are read-only inputs: copy one into a test's
 * temporary directory with {@link #copy} before handing it to code that might write next to it.
 */
public final class PeerData {

    public static final String PROPERTY = "peer.testdata.dir";

    private PeerData() {}

    /** The peer folder; fails with a message saying how to fix a missing or wrong property. */
    public static Path root() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isBlank()) {
            throw new IllegalStateException("System property " + PROPERTY + " is not set; run the tests through Maven "
                    + "(surefire sets it) or pass -D" + PROPERTY + "=/path/to/shared/testdata/peer");
        }
        Path root = Path.of(value).toAbsolutePath().normalize();
        if (!Files.isDirectory(root)) {
            throw new IllegalStateException(
                    "Peer test data folder " + root + " (from -D" + PROPERTY + ") does not exist");
        }
        return root;
    }

    /** A file inside the peer folder, e.g. {@code "geoparquet-1.1.0/example.parquet"}; it must exist. */
    public static Path file(String relative) {
        Path file = root().resolve(relative);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("Peer test file " + file + " is missing");
        }
        return file;
    }

    /** Copies a peer file into {@code dir} (created if needed) under its own name and returns the copy. */
    public static Path copy(String relative, Path dir) {
        Path source = file(relative);
        try {
            Files.createDirectories(dir);
            Path target = dir.resolve(source.getFileName().toString());
            Files.copy(source, target, StandardCopyOption.REPLACE_EXISTING);
            target.toFile().setWritable(true);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy peer file " + source + " to " + dir, e);
        }
    }

    /** Every Parquet file in the peer folder, as paths relative to it, sorted. */
    public static List<String> parquetFiles() {
        Path root = root();
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(path -> path.toString().endsWith(".parquet"))
                    .map(path -> root.relativize(path).toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + root, e);
        }
    }
}
