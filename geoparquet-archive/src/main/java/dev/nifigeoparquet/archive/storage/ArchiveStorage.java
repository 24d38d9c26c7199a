package dev.nifigeoparquet.archive.storage;

import dev.nifigeoparquet.archive.error.BatchCreationException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.apache.parquet.io.InputFile;

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
     * become durable when the stream is closed and are published with {@link #publish}. A writer that gives the object
     * up abandons the stream when it is an {@link AbandonableStream}, and closes it otherwise.
     */
    OutputStream createStaged(String path) throws IOException;

    /**
     * Opens a new staging object like {@link #createStaged}, except that closing the stream need not make it durable:
     * {@link #sync} does, for many objects at once. Nothing may reference the object (no commit entry may name it)
     * before {@link #sync} has returned for it. The default is {@link #createStaged}: durable when closed.
     */
    default OutputStream createStagedDeferred(String path) throws IOException {
        return createStaged(path);
    }

    /**
     * Makes these objects, and the directory entries that name them (or, for a path that no longer exists, its
     * directory's entries), durable together: objects written through {@link #createStagedDeferred}, and the paths of
     * {@link #delete}. Those calls alone do not promise that their effect survives a power loss; after this returns it
     * does. ({@link #publish} and {@link #publishReplacing} are durable when they return: a staged name must never be
     * removed before its published name is durable.) The default does nothing: for a storage whose writes are durable
     * when they return (an object store).
     */
    default void sync(Collection<String> paths) throws IOException {}

    /**
     * Creates several objects exclusively and durably, in order, as {@link #createExclusive} does for each, stopping at
     * the first that cannot be created. When this returns, all of them are durable. A storage may make them durable
     * together rather than one after another; the default creates them one by one.
     *
     * @throws BatchCreationException when one could not be created: how many were created before it, and why (a
     *                                {@link FileAlreadyExistsException} when the path existed)
     */
    default void createExclusiveAll(List<String> paths, List<byte[]> contents) throws IOException {
        if (paths.size() != contents.size()) {
            throw new IllegalArgumentException(paths.size() + " paths but " + contents.size() + " contents");
        }
        for (int i = 0; i < paths.size(); i++) {
            try {
                createExclusive(paths.get(i), contents.get(i));
            } catch (IOException failure) {
                throw new BatchCreationException(i, failure);
            }
        }
    }

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

    /**
     * Deletes an object; deleting a missing object is not an error. The removal may be lost in a power loss until
     * {@link #sync} of the path returns.
     */
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
