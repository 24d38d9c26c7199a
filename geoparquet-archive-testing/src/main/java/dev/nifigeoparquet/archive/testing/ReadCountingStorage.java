package dev.nifigeoparquet.archive.testing;

import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.parquet.io.DelegatingSeekableInputStream;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;

/** Storage that counts the bytes read from objects under a prefix, to show how much of a file a lookup reads. */
public final class ReadCountingStorage implements ArchiveStorage {

    private final ArchiveStorage delegate;
    private final String prefix;
    private final AtomicLong bytesRead = new AtomicLong();

    public ReadCountingStorage(ArchiveStorage delegate, String prefix) {
        this.delegate = delegate;
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

    @Override
    public List<StoredObject> list(String directory) throws IOException {
        return delegate.list(directory);
    }

    @Override
    public StoredObject stat(String path) throws IOException {
        return delegate.stat(path);
    }

    @Override
    public void createExclusive(String path, byte[] content) throws IOException {
        delegate.createExclusive(path, content);
    }

    @Override
    public OutputStream createStaged(String path) throws IOException {
        return delegate.createStaged(path);
    }

    @Override
    public void publish(String stagedPath, String finalPath) throws IOException {
        delegate.publish(stagedPath, finalPath);
    }

    @Override
    public void publishReplacing(String stagedPath, String finalPath) throws IOException {
        delegate.publishReplacing(stagedPath, finalPath);
    }

    @Override
    public void delete(String path) throws IOException {
        delegate.delete(path);
    }

    @Override
    public String describe() {
        return delegate.describe();
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
