package dev.nifigeoparquet.archive.storage;

import java.time.Instant;

/**
 * An object (file) or directory found in storage.
 *
 * @param path         path relative to the archive root, '/'-separated
 * @param size         size in bytes (0 for directories)
 * @param lastModified when the object was last written
 * @param directory    whether this is a directory (a common prefix on object stores)
 */
public record StoredObject(String path, long size, Instant lastModified, boolean directory) {

    /** The last path segment. */
    public String name() {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? path : path.substring(slash + 1);
    }
}
