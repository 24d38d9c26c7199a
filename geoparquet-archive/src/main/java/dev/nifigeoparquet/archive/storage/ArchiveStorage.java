package dev.nifigeoparquet.archive.storage;

import org.apache.parquet.io.InputFile;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.List;

/**
 * The storage an archive lives on, reduced to the few primitives the commit protocol needs.
 * Paths are relative to the archive root and use '/' as separator, so the same protocol runs on a
 * local filesystem and on an object store.
 *
 * <p>The one atomic primitive is {@link #createExclusive}: a new object appears whole, or the call
 * fails because one already exists. Nothing in this interface replaces an existing object.
 */
public interface ArchiveStorage {

    /**
     * Lists the objects directly inside a directory (not recursively), sorted by name.
     * A missing directory lists as empty. Sub-directories are returned with {@link StoredObject#directory()} true.
     */
    List<StoredObject> list(String directory) throws IOException;

    /** Metadata of one object, or {@link NoSuchFileException} when it does not exist. */
    StoredObject stat(String path) throws IOException;

    /** Whether an object exists at this path. */
    default boolean exists(String path) throws IOException {
        try {
            stat(path);
            return true;
        } catch (NoSuchFileException e) {
            return false;
        }
    }

    /** A random-access view of an object for Parquet readers; {@link NoSuchFileException} when absent. */
    InputFile openInputFile(String path) throws IOException;

    /** Reads a small object whole (commit entries, the descriptor). */
    byte[] readAllBytes(String path) throws IOException;

    /**
     * Creates an object exclusively and durably: it appears complete (never partially written) or not at all,
     * and the call fails with {@link FileAlreadyExistsException} when the path already exists, including when a
     * concurrent writer created it first. This is the commit point of the protocol.
     */
    void createExclusive(String path, byte[] content) throws IOException;

    /**
     * Opens a new staging object for streaming writes (data files). The object must not exist yet. Staged objects
     * become durable when the stream is closed and are published with {@link #publish}.
     */
    OutputStream createStaged(String path) throws IOException;

    /**
     * Makes a durable staged object visible at its final path without ever replacing an existing object
     * ({@link FileAlreadyExistsException} if the target exists), then removes the staged name.
     * Idempotent for recovery: when the target already exists and the staged object is gone, it does nothing.
     */
    void publish(String stagedPath, String finalPath) throws IOException;

    /**
     * Makes a durable staged object the content of {@code finalPath}, replacing the object there in one step (a reader
     * that opens the path gets the old content or the new, and never finds it missing), then removes the staged name.
     * Idempotent for recovery: when the staged object is gone, it was published already and nothing is done.
     */
    void publishReplacing(String stagedPath, String finalPath) throws IOException;

    /** Deletes an object; deleting a missing object is not an error. */
    void delete(String path) throws IOException;

    /** Human-readable location of the archive root, for messages. */
    String describe();

    /**
     * How old a data object should be before it is deleted by choice (compaction), because the storage charges for
     * deleting younger ones: an object store's cold storage classes bill a minimum storage duration. Compaction never
     * rewrites files committed more recently than this. Zero (the default) when deleting early costs nothing.
     */
    default Duration minimumObjectAge() {
        return Duration.ZERO;
    }
}
