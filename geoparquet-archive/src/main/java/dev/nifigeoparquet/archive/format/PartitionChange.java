package dev.nifigeoparquet.archive.format;

import java.util.List;

/**
 * What an operation does to one partition, computed on its current state: files it adds (already staged) and
 * live files it supersedes. The live files after the commit are the current ones minus {@code removed}, in
 * their order, followed by {@code added}.
 */
public record PartitionChange(List<NewDataFile> added, List<String> removed) {

    public PartitionChange {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
    }

    public static PartitionChange none() {
        return new PartitionChange(List.of(), List.of());
    }
}
