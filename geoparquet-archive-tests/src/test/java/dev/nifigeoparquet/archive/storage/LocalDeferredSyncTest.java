package dev.nifigeoparquet.archive.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deferred staged files start being forced when they are closed; {@link LocalArchiveStorage#sync} then waits for those
 * forces. Whether a file reached the disk cannot be seen short of a power loss, so these tests hold the rest: every
 * file closed on any thread is synced with its content intact, and a file deleted or renamed away before the sync
 * leaves only its directory to force, as it always did.
 */
class LocalDeferredSyncTest {

    @TempDir
    Path root;

    @Test
    void filesClosedOnSeveralThreadsAreSyncedTogetherWithTheirContent() throws Exception {
        LocalArchiveStorage storage = new LocalArchiveStorage(root);
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            paths.add("_geoparquet_archive/staging/cell" + (i % 4) + "/part-" + i + ".parquet.staged");
        }
        try (ExecutorService threads = Executors.newFixedThreadPool(4)) {
            List<Future<?>> written = new ArrayList<>();
            for (String path : paths) {
                written.add(threads.submit(() -> {
                    write(storage, path, contentOf(path));
                    return null;
                }));
            }
            for (Future<?> file : written) {
                file.get();
            }
        }

        storage.sync(paths);

        for (String path : paths) {
            assertArrayEquals(contentOf(path), Files.readAllBytes(root.resolve(path)), path);
        }
        storage.sync(paths); // a second sync forces them again, without the forces begun at closing
    }

    @Test
    void aFileDeletedOrRenamedAwayBeforeTheSyncLeavesOnlyItsDirectoryToForce() throws Exception {
        LocalArchiveStorage storage = new LocalArchiveStorage(root);
        String kept = "_geoparquet_archive/staging/x/part-kept.parquet.staged";
        String deleted = "_geoparquet_archive/staging/x/part-deleted.parquet.staged";
        String moved = "_geoparquet_archive/staging/x/part-moved.parquet.staged";
        for (String path : List.of(kept, deleted, moved)) {
            write(storage, path, contentOf(path));
        }
        storage.delete(deleted);
        Files.move(root.resolve(moved), root.resolve("moved-away.bin"));

        storage.sync(List.of(kept, deleted, moved));

        assertArrayEquals(contentOf(kept), Files.readAllBytes(root.resolve(kept)));
        assertFalse(Files.exists(root.resolve(deleted)));
        assertTrue(Files.exists(root.resolve("moved-away.bin")));
    }

    private static void write(LocalArchiveStorage storage, String path, byte[] content) throws Exception {
        try (OutputStream out = storage.createStagedDeferred(path)) {
            out.write(content);
        }
    }

    private static byte[] contentOf(String path) {
        return ("the content of " + path).repeat(1000).getBytes(StandardCharsets.UTF_8);
    }
}
