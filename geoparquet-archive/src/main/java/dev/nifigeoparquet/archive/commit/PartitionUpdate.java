package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.format.PartitionCommit;
import java.io.IOException;

/**
 * The work of one operation on one partition. It is called with the partition's current state and may be
 * called again, on the newer state, when another writer committed first; so it must derive everything from
 * {@code current} and write new files only through the {@code stager}.
 */
@FunctionalInterface
public interface PartitionUpdate {

    PartitionChange apply(PartitionCommit current, DataFileStager stager) throws IOException;
}
