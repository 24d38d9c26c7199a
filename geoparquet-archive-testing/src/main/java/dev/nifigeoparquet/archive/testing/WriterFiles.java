package dev.nifigeoparquet.archive.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Files written by pyarrow 25, GeoPandas 1.2, DuckDB 1.5 and polars 1.44 (test resources {@code writers/}, made by
 * its {@code generate.py}): parcels around four towns, as one file, as empty files of every shape those writers
 * produce, and as datasets written one file per town. Copy them before handing them to code that writes.
 */
public final class WriterFiles {

    private WriterFiles() {}

    private static Path extracted;

    /** The folder on the test class path; when it is inside a jar (another module's tests), a copy of it. */
    public static synchronized Path root() {
        try {
            URI uri = WriterFiles.class.getResource("/writers").toURI();
            if ("file".equals(uri.getScheme())) {
                return Path.of(uri);
            }
            if (extracted == null) {
                Path target = Files.createTempDirectory("writers");
                try (FileSystem jar = FileSystems.newFileSystem(uri, Map.of());
                        Stream<Path> paths = Files.walk(jar.getPath("/writers"))) {
                    Path inJar = jar.getPath("/writers");
                    for (Path path : (Iterable<Path>) paths::iterator) {
                        Path to = target.resolve(inJar.relativize(path).toString());
                        if (Files.isDirectory(path)) {
                            Files.createDirectories(to);
                        } else {
                            Files.copy(path, to);
                        }
                    }
                }
                extracted = target;
            }
            return extracted;
        } catch (URISyntaxException | IOException e) {
            throw new IllegalStateException("Cannot find the test files written by other tools", e);
        }
    }

    public static Path file(String relative) {
        Path file = root().resolve(relative);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("Test file " + file + " is missing");
        }
        return file;
    }

    /** Every Parquet file, relative to the folder, sorted. */
    public static List<String> parquetFiles() {
        try (Stream<Path> files = Files.walk(root())) {
            return files.filter(path -> path.toString().endsWith(".parquet"))
                    .map(path -> root().relativize(path).toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Copies a file (or a folder, recursively) to {@code target}, which must not exist yet. */
    public static Path copy(String relative, Path target) {
        Path source = root().resolve(relative);
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path to = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(to);
                } else {
                    Files.createDirectories(to.getParent());
                    Files.copy(path, to, StandardCopyOption.REPLACE_EXISTING);
                }
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot copy " + source + " to " + target, e);
        }
    }
}
