package dev.nifigeoparquet.archive.error;

/**
 * Work that only one process may do at a time (adopting the archive, sweeping it) is being done by another holder of
 * its lease, or this process lost the lease it held because it let it lapse. Nothing of this attempt was committed;
 * trying again once the other holder is done (or its lease has lapsed) succeeds.
 */
public final class LeaseUnavailableException extends ArchiveException {

    public LeaseUnavailableException(String message) {
        super(message);
    }

    @Override
    public FailureKind kind() {
        return FailureKind.TRANSIENT;
    }
}
