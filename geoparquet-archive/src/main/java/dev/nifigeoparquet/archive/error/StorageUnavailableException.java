package dev.nifigeoparquet.archive.error;

/**
 * The storage could not serve a request for now: it throttled it (S3 503 SlowDown, 429), failed on its side (5xx),
 * timed out, or could not be reached (a refused or reset connection). Nothing or the whole operation was committed, and
 * the same operation succeeds once the storage answers again.
 */
public final class StorageUnavailableException extends ArchiveException {

    public StorageUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public FailureKind kind() {
        return FailureKind.TRANSIENT;
    }
}
