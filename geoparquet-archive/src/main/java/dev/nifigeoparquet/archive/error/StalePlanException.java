package dev.nifigeoparquet.archive.error;

/**
 * A planned operation found the archive changed since it planned: a partition it read has a newer commit, or another
 * writer recorded one of its keys in the key index meanwhile. Nothing was committed; the operation plans again on the
 * new state (where its rules, versions included, apply afresh) or fails after its attempts.
 */
public final class StalePlanException extends CommitConflictException {

    public StalePlanException(String cell, String detail) {
        super("Partition " + cell + " changed after the operation planned (" + detail + ")", cell, -1);
    }
}
