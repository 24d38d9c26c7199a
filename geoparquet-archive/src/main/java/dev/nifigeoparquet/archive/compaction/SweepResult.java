package dev.nifigeoparquet.archive.compaction;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
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

    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("partitions", partitions.size());
        node.put("compacted", compacted().size());
        node.put("failed", failed().size());
        node.put("bytesRead", bytesRead());
        node.put("bytesWritten", bytesWritten());
        ArrayNode array = node.putArray("results");
        partitions.forEach(partition -> array.add(partition.toJson()));
        return node;
    }
}
