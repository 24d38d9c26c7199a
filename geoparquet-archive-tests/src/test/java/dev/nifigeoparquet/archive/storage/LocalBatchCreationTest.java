package dev.nifigeoparquet.archive.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.nifigeoparquet.archive.error.BatchCreationException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction's commit entries are created by {@link LocalArchiveStorage#createExclusiveAll}: their files are written
 * side by side, then linked in order. What a caller relies on: every object appears with its content, the first
 * existing name stops the batch with the count of those created before it, and no temporary file is left either way.
 */
class LocalBatchCreationTest {

    @TempDir
    Path root;

    @Test
    void everyObjectIsCreatedWithItsContentInDirectoriesMadeForIt() throws Exception {
        LocalArchiveStorage storage = new LocalArchiveStorage(root);
        List<String> paths = entries(24);

        storage.createExclusiveAll(paths, contents(paths));

        for (String path : paths) {
            assertArrayEquals(contentOf(path), Files.readAllBytes(root.resolve(path)), path);
        }
        assertEquals(List.of(), temporaryFiles());
    }

    @Test
    void theFirstExistingNameStopsTheBatchAndOnlyTheObjectsBeforeItAreCreated() throws Exception {
        LocalArchiveStorage storage = new LocalArchiveStorage(root);
        List<String> paths = entries(8);
        Path taken = root.resolve(paths.get(3));
        Files.createDirectories(taken.getParent());
        Files.writeString(taken, "another writer's entry");

        BatchCreationException stopped =
                assertThrows(BatchCreationException.class, () -> storage.createExclusiveAll(paths, contents(paths)));

        assertEquals(3, stopped.created());
        assertInstanceOf(FileAlreadyExistsException.class, stopped.getCause());
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(contentOf(paths.get(i)), Files.readAllBytes(root.resolve(paths.get(i))));
        }
        assertEquals("another writer's entry", Files.readString(taken));
        for (int i = 4; i < paths.size(); i++) {
            assertFalse(Files.exists(root.resolve(paths.get(i))), paths.get(i));
        }
        assertEquals(List.of(), temporaryFiles());
    }

    private static List<String> entries(int count) {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            paths.add("_geoparquet_archive/log/cell-" + i + "/00000000000000000002.json");
        }
        return paths;
    }

    private static List<byte[]> contents(List<String> paths) {
        return paths.stream().map(LocalBatchCreationTest::contentOf).toList();
    }

    private static byte[] contentOf(String path) {
        return ("{\"entry\": \"" + path + "\"}").getBytes(StandardCharsets.UTF_8);
    }

    private List<Path> temporaryFiles() throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(file -> file.getFileName().toString().endsWith(".tmp"))
                    .toList();
        }
    }
}
