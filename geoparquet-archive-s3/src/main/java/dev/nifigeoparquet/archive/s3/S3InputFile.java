package dev.nifigeoparquet.archive.s3;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/**
 * A Parquet {@link InputFile} over one S3 object: every read is a ranged GET of exactly the bytes asked for, except
 * that small reads are served from a buffer filled by one GET (and a read near the end fetches the file's tail at
 * once, which is where Parquet's footer is). Reads are pinned to the ETag the file was opened with, so an object
 * replaced meanwhile fails the read instead of mixing two versions.
 */
final class S3InputFile implements InputFile {

    /** Small reads (page headers, the footer length) are rounded up to one GET of this many bytes. */
    static final int READ_AHEAD = 64 * 1024;

    private final S3ArchiveStorage storage;
    private final String path;
    private final long length;
    private final String eTag;

    S3InputFile(S3ArchiveStorage storage, String path, long length, String eTag) {
        this.storage = storage;
        this.path = path;
        this.length = length;
        this.eTag = eTag;
    }

    @Override
    public long getLength() {
        return length;
    }

    @Override
    public SeekableInputStream newStream() {
        return new RangedStream();
    }

    @Override
    public String toString() {
        return storage.describe() + "/" + path;
    }

    private final class RangedStream extends SeekableInputStream {
        private long position;
        private byte[] buffer = new byte[0];
        private long bufferStart;

        @Override
        public long getPos() {
            return position;
        }

        @Override
        public void seek(long newPosition) throws IOException {
            if (newPosition < 0 || newPosition > length) {
                throw new EOFException(
                        "Seek to " + newPosition + " outside " + S3InputFile.this + " of " + length + " bytes");
            }
            position = newPosition;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] target, int offset, int wanted) throws IOException {
            if (wanted == 0) {
                return 0;
            }
            if (position >= length) {
                return -1;
            }
            int count = (int) Math.min(wanted, length - position);
            if (!buffered(position, count)) {
                if (count >= READ_AHEAD) {
                    storage.readRange(path, eTag, position, target, offset, count);
                    position += count;
                    return count;
                }
                fill(position);
            }
            int available = (int) Math.min(count, bufferStart + buffer.length - position);
            System.arraycopy(buffer, (int) (position - bufferStart), target, offset, available);
            position += available;
            return available;
        }

        private boolean buffered(long at, int count) {
            return at >= bufferStart && at + count <= bufferStart + buffer.length;
        }

        /** One GET of READ_AHEAD bytes from {@code at}; near the end, the whole tail of the file instead. */
        private void fill(long at) throws IOException {
            long start = at;
            if (length - at < READ_AHEAD) {
                start = Math.max(0, length - READ_AHEAD);
            }
            int size = (int) Math.min(READ_AHEAD, length - start);
            byte[] fresh = new byte[size];
            storage.readRange(path, eTag, start, fresh, 0, size);
            buffer = fresh;
            bufferStart = start;
        }

        @Override
        public void readFully(byte[] bytes) throws IOException {
            readFully(bytes, 0, bytes.length);
        }

        @Override
        public void readFully(byte[] bytes, int start, int len) throws IOException {
            int done = 0;
            while (done < len) {
                int n = read(bytes, start + done, len - done);
                if (n < 0) {
                    throw new EOFException("Reached the end of " + S3InputFile.this + " with " + (len - done)
                            + " bytes still to read");
                }
                done += n;
            }
        }

        @Override
        public int read(ByteBuffer target) throws IOException {
            int wanted = target.remaining();
            if (wanted == 0) {
                return 0;
            }
            byte[] bytes = new byte[(int) Math.min(wanted, Math.max(0, length - position))];
            if (bytes.length == 0) {
                return -1;
            }
            int n = read(bytes, 0, bytes.length);
            if (n > 0) {
                target.put(bytes, 0, n);
            }
            return n;
        }

        @Override
        public void readFully(ByteBuffer target) throws IOException {
            byte[] bytes = new byte[target.remaining()];
            readFully(bytes, 0, bytes.length);
            target.put(bytes);
        }
    }
}
