package dev.nifigeoparquet.processors.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rule that keeps an archive root inside the operator's allowed bases, for the archive service and for the record
 * writer that reads an archive's schema from a directory. Paths are compared after making them
 * absolute and normal, and through symbolic links for the parts that exist, so neither {@code ..} nor a link can
 * lead out of a base.
 */
public final class ArchiveLocation {

    private ArchiveLocation() {}

    /** Parses a comma-separated list of base directories; blank entries are ignored. */
    public static List<Path> parseBases(String value) {
        List<Path> bases = new ArrayList<>();
        if (value == null) {
            return bases;
        }
        for (String part : value.split(",", -1)) {
            if (!part.isBlank()) {
                bases.add(Path.of(part.strip()));
            }
        }
        return bases;
    }

    /** The s3:// entries of a comma-separated list of bases, without trailing slashes. */
    static List<String> parseS3Bases(String value) {
        List<String> bases = new ArrayList<>();
        if (value == null) {
            return bases;
        }
        for (String part : value.split(",", -1)) {
            String base = part.strip();
            if (base.startsWith("s3://")) {
                while (base.endsWith("/")) {
                    base = base.substring(0, base.length() - 1);
                }
                bases.add(base);
            }
        }
        return bases;
    }

    /**
     * Empty when {@code root} lies under one of {@code bases} (or no base is configured); otherwise the explanation,
     * naming both the root and the bases.
     */
    static Optional<String> outsideAllowedBases(Path root, List<Path> bases) {
        return outsideAllowedBases(root, bases, "Archive Root Directory");
    }

    /** Like {@link #outsideAllowedBases(Path, List)}, for a root given by the property {@code rootProperty}. */
    public static Optional<String> outsideAllowedBases(Path root, List<Path> bases, String rootProperty) {
        if (bases.isEmpty()) {
            return Optional.empty();
        }
        Path resolvedRoot = resolve(root);
        List<Path> resolvedBases = bases.stream().map(ArchiveLocation::resolve).toList();
        for (Path base : resolvedBases) {
            if (resolvedRoot.startsWith(base)) {
                return Optional.empty();
            }
        }
        return Optional.of(rootProperty + " " + resolvedRoot + " lies outside every Allowed Archive Roots base "
                + resolvedBases + "; choose a root under one of them or add its base to Allowed Archive Roots");
    }

    /** Absolute and normal; the longest existing prefix is replaced by its real path (links followed). */
    static Path resolve(Path path) {
        Path absolute = path.toAbsolutePath().normalize();
        Path existing = absolute;
        while (existing != null && !Files.exists(existing)) {
            existing = existing.getParent();
        }
        if (existing == null) {
            return absolute;
        }
        try {
            return existing.toRealPath().resolve(existing.relativize(absolute)).normalize();
        } catch (IOException e) {
            return absolute;
        }
    }
}
