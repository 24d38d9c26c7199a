package dev.nifigeoparquet.archive.error;

/**
 * An object sits in a storage class (Glacier Flexible Retrieval, Glacier Deep Archive, or an archive tier of
 * Intelligent-Tiering) that must be restored before it can be read. The archive never reads such an object blindly:
 * the operation stops here, naming the object, its class, and what to do.
 */
public final class ArchivedObjectException extends ArchiveException {

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

    @Override
    public FailureKind kind() {
        return FailureKind.OPERATOR_ACTION;
    }

    @Override
    public String advice() {
        return "Restore " + path + " (S3 RestoreObject) or copy it back into a readable storage class, and keep the "
                + "archive's prefix out of lifecycle rules that move objects to Glacier Flexible Retrieval or Deep Archive.";
    }
}
