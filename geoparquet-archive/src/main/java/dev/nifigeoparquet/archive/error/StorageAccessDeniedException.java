package dev.nifigeoparquet.archive.error;

/**
 * The storage refused a request for want of permission (S3 403 AccessDenied): the credentials, the bucket policy or
 * the key's permissions must change before any operation on the archive can succeed. (A local file system's refusal
 * is the JDK's {@link java.nio.file.AccessDeniedException}, which {@link FailureKind#of} classifies alike.)
 */
public final class StorageAccessDeniedException extends ArchiveException {

    public StorageAccessDeniedException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public FailureKind kind() {
        return FailureKind.OPERATOR_ACTION;
    }

    @Override
    public String advice() {
        return "Check the credentials the archive service uses and the bucket's policy: they must allow listing, "
                + "reading, writing and deleting under the archive's prefix.";
    }
}
