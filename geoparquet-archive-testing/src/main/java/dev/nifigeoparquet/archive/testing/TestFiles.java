package dev.nifigeoparquet.archive.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Directory helpers for tests that copy an archive before breaking it and inspect what is left in a directory. */
public final class TestFiles {

    private TestFiles() {}

    /** Copies a directory tree; returns {@code target}. */
    public static Path copyTree(Path source, Path target) throws IOException {
        try (Stream<Path> paths = Files.walk(source)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Path destination = target.resolve(source.relativize(path).toString());
                if (Files.isDirectory(path)) {
                    Files.createDirectories(destination);
                } else {
                    Files.copy(path, destination);
                }
            }
        }
        return target;
    }

    /** Deletes a directory tree; a missing one is not an error. */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(path);
            }
        }
    }

    /**
     * A SHA-256 over every directory and file under {@code root} (relative path, and each file's bytes), in path order:
     * equal before and after exactly when nothing was created, removed or changed.
     */
    public static String treeDigest(Path root) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : (Iterable<Path>) paths.sorted()::iterator) {
                digest.update((root.relativize(path) + (Files.isDirectory(path) ? "/" : "") + "\n")
                        .getBytes(StandardCharsets.UTF_8));
                if (Files.isRegularFile(path)) {
                    digest.update(Files.readAllBytes(path));
                }
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** The names in a directory, sorted; empty when it does not exist. */
    public static Set<String> names(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return Set.of();
        }
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(path -> path.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new));
        }
    }
}
