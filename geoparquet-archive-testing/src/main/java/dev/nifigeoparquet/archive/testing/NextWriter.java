package dev.nifigeoparquet.archive.testing;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionRecovery;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.ProtocolSettings;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** What the next writer of an archive does after a crash: recovers every partition and index partition. */
public final class NextWriter {

    private NextWriter() {}

    /** Recovers every partition as a writer would a day later, long after the writer lease and any transaction timeout. */
    public static void recoverEverything(ArchiveStorage storage) throws IOException {
        Instant afterLease = Instant.now().plus(Duration.ofDays(1));
        if (!GeoParquetArchive.exists(storage)) {
            // An adoption that re-homes rows commits partitions before it writes the descriptor.
            for (StoredObject child : storage.list(ArchiveLayout.LOG_DIRECTORY)) {
                if (child.directory() && !ArchiveLayout.isIndexShard(child.name())) {
                    new PartitionRecovery(storage, ProtocolSettings.DEFAULT).recover(child.name(), afterLease);
                }
            }
            return;
        }
        GeoParquetArchive archive = GeoParquetArchive.open(storage);
        Set<String> partitions = new TreeSet<>();
        for (String directory : List.of(ArchiveLayout.LOG_DIRECTORY, ArchiveLayout.STAGING_DIRECTORY)) {
            for (StoredObject child : storage.list(directory)) {
                if (child.directory()) {
                    partitions.add(child.name());
                }
            }
        }
        // A partition whose first commit never happened has staged debris and no log; its next writer clears it.
        for (String partition : partitions) {
            new PartitionRecovery(storage, archive.descriptor().protocol()).recover(partition, afterLease);
        }
    }
}
