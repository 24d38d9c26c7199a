package dev.nifigeoparquet.archive.testing;

import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** Storage that counts the bytes read from objects under a prefix, to show how much of a file a lookup reads. */
public final class ReadCountingStorage extends ForwardingStorage {

    private final String prefix;
    private final AtomicLong bytesRead = new AtomicLong();

    public ReadCountingStorage(ArchiveStorage delegate, String prefix) {
        super(delegate);
        this.prefix = prefix;
    }

    public long bytesRead() {
        return bytesRead.get();
    }

    @Override
    public InputFile openInputFile(String path) throws IOException {
        InputFile file = delegate.openInputFile(path);
        if (!path.startsWith(prefix)) {
            return file;
        }
        return new InputFile() {
            @Override
            public long getLength() throws IOException {
                return file.getLength();
            }

            @Override
            public SeekableInputStream newStream() throws IOException {
                SeekableInputStream stream = file.newStream();
                return new DelegatingSeekableInputStream(new CountingStream(stream)) {
                    @Override
                    public long getPos() throws IOException {
                        return stream.getPos();
                    }

                    @Override
                    public void seek(long position) throws IOException {
                        stream.seek(position);
                    }
                };
            }
        };
    }

    @Override
    public byte[] readAllBytes(String path) throws IOException {
        byte[] bytes = delegate.readAllBytes(path);
        if (path.startsWith(prefix)) {
            bytesRead.addAndGet(bytes.length);
        }
        return bytes;
    }

    private final class CountingStream extends InputStream {
        private final InputStream in;

        CountingStream(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                bytesRead.incrementAndGet();
            }
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = in.read(buffer, offset, length);
            if (n > 0) {
                bytesRead.addAndGet(n);
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
