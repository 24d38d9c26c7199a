package dev.nifigeoparquet.archive.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.compaction.Compactor;
import dev.nifigeoparquet.archive.compaction.GeneratedArchive;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.ForwardingStorage;
import dev.nifigeoparquet.archive.testing.TestFiles;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.parquet.io.InputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write given up half way releases what its staged file holds. Parquet's writer, once aborted, never closes its
 * stream: on local storage a file channel stayed open (until garbage collection), on S3 a multipart upload stayed open
 * and billed (S3ArchiveStorageTest shows the abort there).
 */
class AbandonedWriteTest {

    @TempDir
    Path temp;

    @Test
    void aCompactionThatFailsAfterItsOutputWasOpenedLeavesNoFileOpen() throws IOException {
        Path root = temp.resolve("archive");
        GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), Clock.systemUTC());
        GeneratedArchive.fill(archive, 0, 0, 4, 50);
        String cell = GeneratedArchive.cellOf(0);
        String before = TestFiles.treeDigest(root);

        // The second data file read after the new file was staged cannot be read.
        List<String> staged = new ArrayList<>();
        ForwardingStorage failing = new ForwardingStorage(new LocalArchiveStorage(root)) {
            private int readsWhileStaging;

            @Override
            public OutputStream createStaged(String path) throws IOException {
                staged.add(path);
                return super.createStaged(path);
            }

            @Override
            public OutputStream createStagedDeferred(String path) throws IOException {
                staged.add(path);
                return super.createStagedDeferred(path);
            }

            @Override
            public InputFile openInputFile(String path) throws IOException {
                if (!staged.isEmpty() && path.endsWith(ArchiveLayout.DATA_FILE_SUFFIX) && ++readsWhileStaging == 2) {
                    throw new IOException("simulated read failure of " + path);
                }
                return super.openInputFile(path);
            }
        };

        Compactor compactor = new Compactor(GeoParquetArchive.open(failing));
        assertThrows(IOException.class, () -> compactor.compact(cell));

        assertFalse(staged.isEmpty(), "the compaction staged its output before it failed");
        assertEquals(List.of(), openFilesUnder(root), "file descriptors this process holds under the archive");
        assertEquals(before, TestFiles.treeDigest(root), "the failed compaction left the archive as it was");
    }

    /** The files under {@code root} this process has open, as Linux lists its descriptors. */
    private static List<String> openFilesUnder(Path root) throws IOException {
        assertTrue(Files.isDirectory(Path.of("/proc/self/fd")), "this check needs Linux's /proc");
        List<String> open = new ArrayList<>();
        try (Stream<Path> descriptors = Files.list(Path.of("/proc/self/fd"))) {
            for (Path descriptor : descriptors.toList()) {
                try {
                    String target = Files.readSymbolicLink(descriptor).toString();
                    if (target.startsWith(root.toString())) {
                        open.add(target);
                    }
                } catch (IOException closedMeanwhile) {
                    // the listing's own descriptor, or one closed since the listing
                }
            }
        }
        return open;
    }
}
