package dev.nifigeoparquet.archive.storage;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A local file for Parquet readers that reads one version of it, whatever happens to its name meanwhile. A commit may
 * publish a file's new content over its name ({@code rename(2)}); a reader that opened the file by name once for its
 * length and again for its bytes could then take one version's footer and the other's data. Here the first call opens
 * the file, and its length and every stream read that same open file; the stream's close releases it.
 */
final class PinnedLocalInputFile implements InputFile {

    private final Path path;
    private FileChannel channel;

    PinnedLocalInputFile(Path path) {
        this.path = path;
    }

    /** The open file, opened by the first caller ({@link java.nio.file.NoSuchFileException} when it is gone). */
    private synchronized FileChannel channel() throws IOException {
        if (channel == null || !channel.isOpen()) {
            channel = FileChannel.open(path, StandardOpenOption.READ);
        }
        return channel;
    }

    @Override
    public long getLength() throws IOException {
        return channel().size();
    }

    @Override
    public SeekableInputStream newStream() throws IOException {
        return new ChannelStream(channel());
    }

    @Override
    public String toString() {
        return path.toString();
    }

    /** Positional reads of the open file; closing it closes the file. */
    private static final class ChannelStream extends SeekableInputStream {
        private final FileChannel channel;
        private long position;

        ChannelStream(FileChannel channel) {
            this.channel = channel;
        }

        @Override
        public long getPos() {
            return position;
        }

        @Override
        public void seek(long newPosition) {
            position = newPosition;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] bytes, int offset, int length) throws IOException {
            return read(ByteBuffer.wrap(bytes, offset, length));
        }

        @Override
        public int read(ByteBuffer buffer) throws IOException {
            if (!buffer.hasRemaining()) {
                return 0;
            }
            int read = channel.read(buffer, position);
            if (read > 0) {
                position += read;
            }
            return read;
        }

        @Override
        public void readFully(byte[] bytes) throws IOException {
            readFully(ByteBuffer.wrap(bytes));
        }

        @Override
        public void readFully(byte[] bytes, int offset, int length) throws IOException {
            readFully(ByteBuffer.wrap(bytes, offset, length));
        }

        @Override
        public void readFully(ByteBuffer buffer) throws IOException {
            while (buffer.hasRemaining()) {
                if (read(buffer) < 0) {
                    throw new EOFException(
                            "Reached the end of the file with " + buffer.remaining() + " bytes left to read");
                }
            }
        }

        @Override
        public void close() throws IOException {
            channel.close();
        }
    }
}
