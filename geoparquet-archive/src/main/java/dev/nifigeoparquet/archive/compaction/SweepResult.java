package dev.nifigeoparquet.archive.compaction;

import java.util.List;

/**
 * The result of compacting every partition of an archive that qualifies.
 *
 * @param partitions one entry per partition of the archive, compacted, skipped (with the reason) or failed
 */
public record SweepResult(List<PartitionCompaction> partitions) {

    public SweepResult {
        partitions = List.copyOf(partitions);
    }

    public List<PartitionCompaction> compacted() {
        return partitions.stream().filter(PartitionCompaction::compacted).toList();
    }

    public List<PartitionCompaction> failed() {
        return partitions.stream().filter(PartitionCompaction::failed).toList();
    }

    public long bytesRead() {
        return partitions.stream().mapToLong(PartitionCompaction::bytesRead).sum();
    }

    public long bytesWritten() {
        return partitions.stream().mapToLong(PartitionCompaction::bytesWritten).sum();
    }
}
