package dev.nifigeoparquet.archive.compaction;

import java.util.List;
import java.util.Optional;

/**
 * What compaction would do to one partition, decided from its commit state alone (no storage call).
 *
 * @param cell         the partition
 * @param version      the commit version the plan was made from
 * @param liveFiles    live files in that version
 * @param eligibleFiles live files old enough to be rewritten
 * @param groups       the groups to rewrite, in partition order; empty when the partition is skipped
 * @param skipReason   why nothing is rewritten; null when {@code groups} is not empty
 */
public record PartitionPlan(
        String cell, long version, int liveFiles, int eligibleFiles, List<FileGroup> groups, String skipReason) {

    public PartitionPlan {
        groups = List.copyOf(groups);
        if (groups.isEmpty() == (skipReason == null)) {
            throw new IllegalArgumentException("A plan either has groups or a skip reason, not both or neither");
        }
    }

    static PartitionPlan skip(String cell, long version, int liveFiles, int eligibleFiles, String reason) {
        return new PartitionPlan(cell, version, liveFiles, eligibleFiles, List.of(), reason);
    }

    public boolean qualifies() {
        return !groups.isEmpty();
    }

    public Optional<String> skipped() {
        return Optional.ofNullable(skipReason);
    }

    /** Files that would be rewritten. */
    public int inputFiles() {
        return groups.stream().mapToInt(group -> group.files().size()).sum();
    }
}
