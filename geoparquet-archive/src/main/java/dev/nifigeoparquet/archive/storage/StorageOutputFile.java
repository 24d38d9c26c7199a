package dev.nifigeoparquet.archive.storage;

import java.io.IOException;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/** A Parquet {@link OutputFile} that writes a staged object through {@link ArchiveStorage#createStaged}. */
public final class StorageOutputFile implements OutputFile {

    private final ArchiveStorage storage;
    private final String path;
    private final boolean deferred;
    private CountingPositionOutputStream stream;

    /** A staged object that is durable once the Parquet writer closes it. */
    public StorageOutputFile(ArchiveStorage storage, String path) {
        this(storage, path, false);
    }

    /**
     * @param deferred whether the object is opened with {@link ArchiveStorage#createStagedDeferred}: durable only after
     *                 {@link ArchiveStorage#sync} of its path
     */
    public StorageOutputFile(ArchiveStorage storage, String path, boolean deferred) {
        this.storage = storage;
        this.path = path;
        this.deferred = deferred;
    }

    /** Bytes written so far; after the Parquet writer is closed, the file's size. */
    public long bytesWritten() {
        return stream == null ? 0 : stream.getPos();
    }

    /**
     * Gives the staged object up without completing it: a Parquet writer that aborts leaves its stream open, holding a
     * file channel or a multipart upload.
     */
    public void abandon() throws IOException {
        if (stream != null) {
            stream.abandon();
        }
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) throws IOException {
        stream = new CountingPositionOutputStream(
                deferred ? storage.createStagedDeferred(path) : storage.createStaged(path), true);
        return stream;
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
