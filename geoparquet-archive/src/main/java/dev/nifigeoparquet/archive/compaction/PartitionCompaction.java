package dev.nifigeoparquet.archive.compaction;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.storage.StorageCost;

/**
 * What compaction did to one partition.
 *
 * @param cell         the partition
 * @param filesBefore  live files before
 * @param filesAfter   live files after
 * @param rows         rows in the partition after (compaction never changes the count); -1 when the compaction
 *                     failed before the state could be read again
 * @param rowsRewritten rows read from input files and written to new ones
 * @param bytesRead    bytes of the input files
 * @param bytesWritten bytes of the files written
 * @param commits      commits made (one per group rewritten)
 * @param replays      groups found already committed (a replay of the same compaction)
 * @param skipReason   why nothing was rewritten; null when something was
 * @param failure      what stopped the partition's compaction, of the type that says what to do about it
 *                     ({@link dev.nifigeoparquet.archive.error.ArchiveException}); null when nothing did
 * @param cost         the storage requests and bytes it took, failed attempts included ({@link StorageCost#NONE} on
 *                     storage that bills nothing)
 */
public record PartitionCompaction(
        String cell,
        int filesBefore,
        int filesAfter,
        long rows,
        long rowsRewritten,
        long bytesRead,
        long bytesWritten,
        int commits,
        int replays,
        String skipReason,
        Exception failure,
        StorageCost cost) {

    /** A partition whose compaction failed before anything could be told about its state. */
    public static PartitionCompaction failed(String cell, int liveFiles, Exception failure) {
        return new PartitionCompaction(cell, liveFiles, liveFiles, -1, 0, 0, 0, 0, 0, null, failure, StorageCost.NONE);
    }

    /** The same result with what it cost. */
    public PartitionCompaction withCost(StorageCost measured) {
        return new PartitionCompaction(
                cell,
                filesBefore,
                filesAfter,
                rows,
                rowsRewritten,
                bytesRead,
                bytesWritten,
                commits,
                replays,
                skipReason,
                failure,
                measured);
    }

    public boolean compacted() {
        return commits > 0;
    }

    public boolean failed() {
        return failure != null;
    }

    /** What stopped the compaction, for people: the failure's message, or its type when it has none; null when none did. */
    public String failureMessage() {
        if (failure == null) {
            return null;
        }
        return failure.getMessage() == null || failure.getMessage().isBlank()
                ? failure.getClass().getSimpleName()
                : failure.getMessage();
    }

    public ObjectNode toJson() {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("cell", cell);
        node.put("compacted", compacted());
        node.put("filesBefore", filesBefore);
        node.put("filesAfter", filesAfter);
        node.put("rows", rows);
        node.put("rowsRewritten", rowsRewritten);
        node.put("bytesRead", bytesRead);
        node.put("bytesWritten", bytesWritten);
        node.put("commits", commits);
        node.put("replays", replays);
        if (skipReason != null) {
            node.put("skipReason", skipReason);
        }
        if (failure != null) {
            node.put("failure", failureMessage());
        }
        ObjectNode storage = node.putObject("storageCost");
        storage.put("puts", cost.puts());
        storage.put("gets", cost.gets());
        storage.put("lists", cost.lists());
        storage.put("deletes", cost.deletes());
        storage.put("bytesUploaded", cost.bytesUploaded());
        storage.put("bytesDownloaded", cost.bytesDownloaded());
        storage.put("objectsDeleted", cost.deleted().size());
        return node;
    }
}
