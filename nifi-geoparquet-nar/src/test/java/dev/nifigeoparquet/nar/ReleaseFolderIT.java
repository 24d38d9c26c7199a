package dev.nifigeoparquet.nar;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.testing.ShippedContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The release folder the build leaves for an operator: the NAR exactly as packaged, a checksum file {@code sha256sum -c}
 * accepts, and the compatibility table, release notes and upgrade notes for this version.
 */
class ReleaseFolderIT {

    /** The target of a Markdown link or image, up to a title or the closing parenthesis. */
    private static final Pattern MARKDOWN_LINK = Pattern.compile("\\]\\(([^)\\s]+)[^)]*\\)");

    @Test
    void theReleaseFolderHoldsTheNarItsChecksumAndTheNotesOfThisVersion() throws Exception {
        String version = System.getProperty("project.version");
        assertNotNull(version, "the build passes -Dproject.version");
        Path release = Path.of(System.getProperty("release.dir"));
        Path packaged = Path.of(System.getProperty("nar.file"));
        String narName = packaged.getFileName().toString();

        try (Stream<Path> files = Files.list(release)) {
            assertEquals(
                    List.of(
                            "COMPATIBILITY.md",
                            "OPERATOR-GUIDE.md",
                            "RELEASE-NOTES.md",
                            "UPGRADE.md",
                            "flows",
                            narName,
                            narName + ".sha256"),
                    files.map(file -> file.getFileName().toString()).sorted().toList());
        }
        byte[] nar = Files.readAllBytes(release.resolve(narName));
        assertTrue(java.util.Arrays.equals(Files.readAllBytes(packaged), nar), "the NAR as packaged");

        String digest =
                HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(nar));
        assertEquals(
                digest + "  " + narName,
                Files.readString(release.resolve(narName + ".sha256")).strip());

        for (String notes : List.of("COMPATIBILITY.md", "RELEASE-NOTES.md", "UPGRADE.md")) {
            String text = Files.readString(release.resolve(notes));
            assertTrue(text.startsWith("# nifi-geoparquet " + version), notes + " names this version");
            assertFalse(text.contains("@VERSION@"), notes + " has every version filled in");
        }
        assertTrue(Files.readString(release.resolve("COMPATIBILITY.md")).contains("2.3.0"), "the NiFi version tested");

        // An operator installs and imports from this folder alone: the guide and every flow definition, as in the tree.
        Path tree = release.getParent().getParent().getParent();
        assertEquals(
                Files.readString(tree.resolve("docs/operator-guide.md")),
                Files.readString(release.resolve("OPERATOR-GUIDE.md")));
        try (Stream<Path> flows = Files.list(tree.resolve("templates"))) {
            for (Path flow : flows.toList()) {
                assertEquals(
                        Files.readString(flow),
                        Files.readString(release.resolve("flows").resolve(flow.getFileName())),
                        "flows/" + flow.getFileName());
            }
        }
    }

    @Test
    void everyLinkInTheReleaseFolderResolvesInsideIt() throws Exception {
        Path release = Path.of(System.getProperty("release.dir")).toRealPath();
        List<String> broken = new ArrayList<>();
        try (Stream<Path> files = Files.walk(release)) {
            for (Path page :
                    files.filter(file -> file.toString().endsWith(".md")).toList()) {
                Matcher link = MARKDOWN_LINK.matcher(Files.readString(page));
                while (link.find()) {
                    String target = link.group(1).replaceFirst("#.*", "");
                    if (target.isEmpty() || target.matches("[a-z]+:.*")) {
                        continue; // an anchor in the page, or a URL
                    }
                    Path resolved = page.getParent().resolve(target).normalize();
                    if (!resolved.startsWith(release) || !Files.exists(resolved)) {
                        broken.add(release.relativize(page) + " -> " + link.group(1));
                    }
                }
            }
        }
        assertEquals(List.of(), broken, "links an operator follows from the release folder alone");
    }

    @Test
    void theNarShipsNoTestFixtureAndNoSyntheticData() throws Exception {
        Path nar = Path.of(System.getProperty("nar.file"));
        assertEquals(
                List.of(),
                ShippedContent.forbidden(
                        nar,
                        List.of(ShippedContent.TESTING_PACKAGE, "dev/nifigeoparquet/archive/synthetic/"),
                        List.of("geoparquet-archive-testing", "geoparquet-archive-synthetic", "duckdb_jdbc")));
    }
}
