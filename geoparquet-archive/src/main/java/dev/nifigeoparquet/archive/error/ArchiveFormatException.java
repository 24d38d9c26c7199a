package dev.nifigeoparquet.archive.error;

/**
 * A metadata file of the archive (the descriptor, a commit entry, a transaction decision) that does not follow the
 * format: not JSON, a required field missing, a field of the wrong type or with a value the format does not allow.
 * The message names the file and the field.
 */
public class ArchiveFormatException extends ArchiveException {

    private final String file;

    public ArchiveFormatException(String file, String problem) {
        super(file + ": " + problem);
        this.file = file;
    }

    public ArchiveFormatException(String file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
    }

    /** The file, as the storage describes it. */
    public String file() {
        return file;
    }

    @Override
    public FailureKind kind() {
        return FailureKind.OPERATOR_ACTION;
    }

    @Override
    public String advice() {
        return "The archive's metadata file " + file
                + " is damaged: restore it from a backup, or repair the archive as "
                + "docs/reliability.md describes; nothing can be written to that part of the archive until then.";
    }
}
