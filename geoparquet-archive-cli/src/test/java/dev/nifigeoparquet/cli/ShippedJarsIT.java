package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.testing.ShippedContent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The tool as packaged (its jar and {@code lib/}) holds no test fixture: no class of the testing module, not the
 * module's jar nor DuckDB's driver. The synthetic parcel generator behind {@code demo} is shipped.
 */
class ShippedJarsIT {

    private static final List<String> TEST_ONLY_ARTIFACTS = List.of("geoparquet-archive-testing", "duckdb_jdbc");

    @Test
    void theToolShipsNoTestFixture() throws Exception {
        Path target = Path.of("target");
        List<Path> shipped = new ArrayList<>();
        try (Stream<Path> jars = Files.list(target)) {
            jars.filter(jar ->
                            jar.getFileName().toString().matches("geoparquet-archive-cli(-[0-9.]+(-SNAPSHOT)?)?\\.jar"))
                    .forEach(shipped::add);
        }
        assertEquals(1, shipped.size(), "the tool's jar in " + target.toAbsolutePath() + ": " + shipped);
        try (Stream<Path> jars = Files.list(target.resolve("lib"))) {
            jars.forEach(shipped::add);
        }
        assertTrue(
                shipped.stream()
                        .anyMatch(jar -> jar.getFileName().toString().startsWith("geoparquet-archive-synthetic")),
                "the demo's generator is shipped: " + shipped);

        List<String> forbidden = new ArrayList<>();
        for (Path jar : shipped) {
            String name = jar.getFileName().toString();
            if (TEST_ONLY_ARTIFACTS.stream().anyMatch(name::startsWith)) {
                forbidden.add(name);
            }
            forbidden.addAll(
                    ShippedContent.forbidden(jar, List.of(ShippedContent.TESTING_PACKAGE), TEST_ONLY_ARTIFACTS));
        }
        assertEquals(List.of(), forbidden);
    }
}
