package dev.nifigeoparquet.archive.error;

/**
 * Another writer committed the same partition version first, or holds the partition: nothing was committed, and the
 * operation succeeds when redone on the new state. The engine redoes it up to the archive's {@code maxCommitAttempts}.
 */
public class CommitConflictException extends ArchiveException {

    private final String cell;
    private final long version;

    public CommitConflictException(String cell, long version, String detail) {
        this(
                "Partition " + cell + ": version " + version + " was committed by another writer"
                        + (detail == null ? "" : " (" + detail + ")"),
                cell,
                version);
    }

    protected CommitConflictException(String message, String cell, long version) {
        super(message);
        this.cell = cell;
        this.version = version;
    }

    /** This conflict as the end of an operation that lost {@code attempts} times to other writers of {@code contended}. */
    public CommitConflictException afterAttempts(int attempts, String contended) {
        CommitConflictException last = new CommitConflictException(
                getMessage() + "; gave up after " + attempts + " attempts, " + contended
                        + " is being written concurrently",
                cell,
                version);
        last.initCause(this);
        return last;
    }

    public String cell() {
        return cell;
    }

    @Override
    public FailureKind kind() {
        return FailureKind.TRANSIENT;
    }

    public long version() {
        return version;
    }
}
