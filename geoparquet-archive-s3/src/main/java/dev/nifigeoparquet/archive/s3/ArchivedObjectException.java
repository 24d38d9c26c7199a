package dev.nifigeoparquet.archive.s3;

import java.io.IOException;

/**
 * An object sits in a storage class (Glacier Flexible Retrieval, Glacier Deep Archive, or an archive tier of
 * Intelligent-Tiering) that must be restored before it can be read. The archive never reads such an object blindly:
 * the operation stops here, naming the object, its class, and what to do.
 */
public final class ArchivedObjectException extends IOException {

    private final String path;
    private final String storageClass;

    public ArchivedObjectException(String location, String path, String storageClass, String restoreState) {
        super(location + "/" + path + " is in storage class " + storageClass + " and " + restoreState
                + "; restore it (S3 RestoreObject) or move it back to a readable class before the archive reads it");
        this.path = path;
        this.storageClass = storageClass;
    }

    public String path() {
        return path;
    }

    public String storageClass() {
        return storageClass;
    }
}
