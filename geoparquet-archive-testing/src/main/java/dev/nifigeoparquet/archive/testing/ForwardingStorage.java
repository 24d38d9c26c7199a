package dev.nifigeoparquet.archive.testing;

import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.apache.parquet.io.InputFile;

/**
 * A storage that passes every call of {@link ArchiveStorage}'s own to another, for test storages that change a few.
 * The interface's default methods (deferred staging, sync, grouped creation) keep their defaults, built on these.
 */
public abstract class ForwardingStorage implements ArchiveStorage {

    protected final ArchiveStorage delegate;

    protected ForwardingStorage(ArchiveStorage delegate) {
        this.delegate = delegate;
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
    public InputFile openInputFile(String path) throws IOException {
        return delegate.openInputFile(path);
    }

    @Override
    public byte[] readAllBytes(String path) throws IOException {
        return delegate.readAllBytes(path);
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
}
