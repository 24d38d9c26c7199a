package dev.nifigeoparquet.archive.error;

/**
 * Thrown inside a key-index fold's shard commit that a later fold made unnecessary, so that no entry is created; the
 * fold catches it. It carries no stack trace: it ends an update, it reports nothing.
 */
public final class FoldSubsumedException extends RuntimeException {

    public FoldSubsumedException() {
        super(null, null, false, false);
    }
}
