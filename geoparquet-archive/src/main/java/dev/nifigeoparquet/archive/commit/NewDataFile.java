package dev.nifigeoparquet.archive.commit;

/**
 * A data file an operation staged, before the commit stamps it.
 *
 * @param name     the unique name it was staged under
 * @param rows     its rows
 * @param bytes    its size
 * @param replaces the live file whose name and place it takes when published (that file's content is superseded);
 *                 null when it is published under its own name
 */
public record NewDataFile(String name, long rows, long bytes, String replaces) {

    /** A file published under its own name. */
    public NewDataFile(String name, long rows, long bytes) {
        this(name, rows, bytes, null);
    }

    /** The name it has in the partition once published. */
    public String publishedName() {
        return replaces != null ? replaces : name;
    }
}
