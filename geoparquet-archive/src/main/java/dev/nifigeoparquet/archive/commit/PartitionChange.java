package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.format.PartitionCommit;
import java.util.List;

/**
 * What an operation does to one partition, computed on its current state: files it adds (already staged) and
 * live files it supersedes. The live files after the commit are the current ones minus {@code removed}, in
 * their order, followed by {@code added}.
 *
 * @param formatVersion the format version the new entry follows: {@link PartitionCommit#FORMAT_VERSION}, or higher
 *                      for a change that needs a newer format's rules (a key-index file with stamps)
 */
public record PartitionChange(List<NewDataFile> added, List<String> removed, int formatVersion) {

    public PartitionChange {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        if (formatVersion < PartitionCommit.FORMAT_VERSION || formatVersion > PartitionCommit.HIGHEST_FORMAT_VERSION) {
            throw new IllegalArgumentException("No entry format version " + formatVersion);
        }
    }

    /** A change under the rules of format version 1. */
    public PartitionChange(List<NewDataFile> added, List<String> removed) {
        this(added, removed, PartitionCommit.FORMAT_VERSION);
    }

    public static PartitionChange none() {
        return new PartitionChange(List.of(), List.of());
    }
}
