package dev.nifigeoparquet.processors.geoparquet;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A FlowFile's content copied to a temporary file, because a Parquet footer sits at the end of the file and a
 * record reader only gets a forward-only stream. The copy is bounded so that a huge or endless stream fails
 * instead of filling the disk, and it is deleted on {@link #close()} and when spooling fails.
 */
final class SpooledContent implements Closeable {

    private static final String PREFIX = "nifi-geoparquet-";
    private static final String SUFFIX = ".parquet";
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Path file;
    private final long length;

    private SpooledContent(Path file, long length) {
        this.file = file;
        this.length = length;
    }

    /**
     * @param declaredLength the content length if known, else a negative number
     * @param maxBytes       the largest content accepted
     * @param directory      where the copy is written
     * @throws ContentTooLargeException when the content is longer than {@code maxBytes}; nothing is left on disk
     */
    static SpooledContent spool(final InputStream in, long declaredLength, long maxBytes, Path directory)
            throws IOException {
        if (declaredLength > maxBytes) {
            throw new ContentTooLargeException(declaredLength, maxBytes);
        }
        Path file = Files.createTempFile(directory, PREFIX, SUFFIX);
        try {
            long copied = 0;
            try (OutputStream out = Files.newOutputStream(file)) {
                byte[] buffer = new byte[BUFFER_BYTES];
                int read;
                while ((read = in.read(buffer)) >= 0) {
                    copied += read;
                    if (copied > maxBytes) {
                        throw new ContentTooLargeException(copied, maxBytes);
                    }
                    out.write(buffer, 0, read);
                }
            }
            return new SpooledContent(file, copied);
        } catch (IOException | RuntimeException | Error e) {
            deleteQuietly(file, e);
            throw e;
        }
    }

    Path file() {
        return file;
    }

    long length() {
        return length;
    }

    @Override
    public void close() throws IOException {
        Files.deleteIfExists(file);
    }

    private static void deleteQuietly(Path file, Throwable cause) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }

    /** The content is longer than the reader's configured maximum. */
    static final class ContentTooLargeException extends IOException {
        ContentTooLargeException(long seenBytes, long maxBytes) {
            super("Content is larger than the Maximum Content Size of " + maxBytes + " bytes (at least " + seenBytes
                    + " bytes); raise the reader's Maximum Content Size or split the data into smaller files");
        }
    }
}
