package dev.nifigeoparquet.archive.error;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;

/** Creating a batch of objects ({@code ArchiveStorage.createExclusiveAll}) stopped: the objects before {@link #created()} exist, the others do not. */
public final class BatchCreationException extends IOException {
    private final int created;

    public BatchCreationException(int created, IOException cause) {
        super("created " + created + " objects, then: " + cause.getMessage(), cause);
        this.created = created;
    }

    /** How many objects, from the first, were created. */
    public int created() {
        return created;
    }

    /** Why the next one was not: a {@link FileAlreadyExistsException} when it existed. */
    @Override
    public synchronized IOException getCause() {
        return (IOException) super.getCause();
    }
}
