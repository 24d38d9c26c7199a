package dev.nifigeoparquet.archive.storage;

import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

import java.io.IOException;
import java.io.OutputStream;

/** A Parquet {@link OutputFile} that writes a staged object through {@link ArchiveStorage#createStaged}. */
public final class StorageOutputFile implements OutputFile {

    private final ArchiveStorage storage;
    private final String path;
    private long bytesWritten;

    public StorageOutputFile(ArchiveStorage storage, String path) {
        this.storage = storage;
        this.path = path;
    }

    /** Bytes written so far; after the Parquet writer is closed, the file's size. */
    public long bytesWritten() {
        return bytesWritten;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        OutputStream out = storage.createStaged(path);
        return new PositionOutputStream() {
            @Override
            public long getPos() {
                return bytesWritten;
            }

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                bytesWritten++;
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                out.write(bytes, offset, length);
                bytesWritten += length;
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.close();
            }
        };
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return storage.describe() + "/" + path;
    }
}
