package dev.nifigeoparquet.archive.error;

/** A file the latest commit lists is neither published nor staged: the archive was damaged outside the protocol. */
public final class CommittedFileMissingException extends CorruptDataException {
    public CommittedFileMissingException(String file, long version) {
        super("Committed data file " + file + " (commit version " + version + ") is missing from storage");
    }
}
