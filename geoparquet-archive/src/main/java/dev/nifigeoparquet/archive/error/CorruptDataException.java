package dev.nifigeoparquet.archive.error;

/**
 * Data the archive holds cannot be used as its commit log describes it: a data file that cannot be read as Parquet, is
 * missing, or holds other rows or bytes than its entry records. The archive was damaged outside the commit protocol;
 * nothing was committed, and retrying the same operation cannot help until it is repaired. The message names the file.
 */
public class CorruptDataException extends ArchiveException {

    public CorruptDataException(String message) {
        super(message);
    }

    public CorruptDataException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public FailureKind kind() {
        return FailureKind.OPERATOR_ACTION;
    }

    @Override
    public String advice() {
        return "A data file of the archive was damaged or lost outside the archive's commit protocol: restore it from a "
                + "backup, or repair the partition as docs/reliability.md describes, then retry.";
    }
}
