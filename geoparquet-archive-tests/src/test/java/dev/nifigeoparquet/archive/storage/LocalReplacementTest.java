package dev.nifigeoparquet.archive.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Publishing over a live name replaces it in one step, and a reader that opened the old content keeps reading it whole:
 * its length and its bytes come from the file it opened, not from whatever the name holds later.
 */
class LocalReplacementTest {

    @TempDir
    Path root;

    @Test
    void aReaderOfTheOldContentKeepsItWhileNewContentIsPublishedOverItsName() throws Exception {
        LocalArchiveStorage storage = new LocalArchiveStorage(root);
        byte[] old = "the old content of the file".getBytes(StandardCharsets.UTF_8);
        byte[] replacement = "new".getBytes(StandardCharsets.UTF_8);
        Files.createDirectories(root.resolve("h3_cell=x"));
        Files.write(root.resolve("h3_cell=x/part-a.parquet"), old);
        try (var out = storage.createStaged("_geoparquet_archive/staging/x/part-b.parquet.replacement")) {
            out.write(replacement);
        }

        InputFile opened = storage.openInputFile("h3_cell=x/part-a.parquet");
        try (SeekableInputStream stream = opened.newStream()) {
            storage.publishReplacing(
                    "_geoparquet_archive/staging/x/part-b.parquet.replacement", "h3_cell=x/part-a.parquet");
            byte[] read = new byte[old.length];
            stream.readFully(read);
            assertArrayEquals(old, read, "the open file is the old one");
            assertEquals(old.length, opened.getLength());
        }
        assertArrayEquals(
                replacement,
                Files.readAllBytes(root.resolve("h3_cell=x/part-a.parquet")),
                "the name holds the new content");
        assertFalse(
                Files.exists(root.resolve("_geoparquet_archive/staging/x/part-b.parquet.replacement")),
                "the staged name is gone");

        storage.publishReplacing(
                "_geoparquet_archive/staging/x/part-b.parquet.replacement", "h3_cell=x/part-a.parquet");
        assertArrayEquals(
                replacement,
                Files.readAllBytes(root.resolve("h3_cell=x/part-a.parquet")),
                "publishing again does nothing");
    }
}
