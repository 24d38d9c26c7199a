package dev.nifigeoparquet.archive.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * What a shipped archive (a jar, the NAR) holds that only tests may: classes of the given packages, in the archive or
 * in any jar nested in it, and nested jars of the given artifacts.
 */
public final class ShippedContent {

    /** The package of the fixtures in this module, as a path prefix. */
    public static final String TESTING_PACKAGE = "dev/nifigeoparquet/archive/testing/";

    private ShippedContent() {}

    /**
     * Every entry of {@code archive} (nested jars opened) under one of {@code packages} or naming a nested jar whose
     * file name starts with one of {@code artifacts}, as {@code outer!inner}.
     */
    public static List<String> forbidden(Path archive, List<String> packages, List<String> artifacts)
            throws IOException {
        List<String> found = new ArrayList<>();
        try (InputStream in = Files.newInputStream(archive)) {
            scan(archive.getFileName().toString(), in, packages, artifacts, found);
        }
        return found;
    }

    private static void scan(
            String where, InputStream in, List<String> packages, List<String> artifacts, List<String> found)
            throws IOException {
        ZipInputStream zip = new ZipInputStream(in);
        for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
            String name = entry.getName();
            if (packages.stream().anyMatch(name::startsWith)) {
                found.add(where + "!" + name);
            } else if (name.endsWith(".jar")) {
                String file = name.substring(name.lastIndexOf('/') + 1);
                if (artifacts.stream().anyMatch(file::startsWith)) {
                    found.add(where + "!" + name);
                }
                scan(where + "!" + name, zip, packages, artifacts, found);
            }
        }
    }
}
