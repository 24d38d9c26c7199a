package dev.nifigeoparquet.archive.format;

import java.time.Instant;
import java.util.Objects;

/**
 * A live data file of a partition as its commit entry records it.
 *
 * @param name        file name inside the partition directory
 * @param rows        row count
 * @param bytes       file size
 * @param committedAt when the commit that added it was made (compaction's minimum-age rule reads this, so no
 *                    storage call is needed to learn a file's age)
 */
public record DataFileEntry(String name, long rows, long bytes, Instant committedAt) {

    public DataFileEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(committedAt, "committedAt");
        if (rows < 0 || bytes < 0) {
            throw new IllegalArgumentException("Data file " + name + " has negative rows (" + rows + ") or bytes (" + bytes + ")");
        }
    }
}
