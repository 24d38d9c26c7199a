package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.s3.S3Backend;
import dev.nifigeoparquet.archive.testing.FaultPoints;
import dev.nifigeoparquet.archive.testing.StorageBackend;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestFactory;

/**
 * The operation-level fault matrix on S3 (S3Mock): every operation of {@link FaultMatrixTest}, each storage call
 * failing in turn, then recovery, the old-or-new check against a plain reader's download of the bucket, the
 * consistency checks and the retry. Every request goes over HTTP, so the default run samples fewer of the calls that
 * are not commit points than the local run does.
 */
class S3FaultMatrixTest extends FaultMatrixTest {

    @Override
    StorageBackend backend() {
        return S3Backend.get();
    }

    /**
     * The operations whose storage calls differ (delete, delete by key alone, replace and the batch make an upsert's
     * calls; the shard merge folds the journal first, as the fold does), in pairs. The default run takes one of each
     * pair, the rotation ({@link FaultPoints#rotation()}) choosing which, so two rotations cover all eight; every fault
     * point costs a few hundred HTTP round trips. Rotation 0 takes the transaction, the publish over a live file, the
     * index commits and the commits before a descriptor exists. The heavy profile runs all thirteen.
     */
    private static final List<String> DISTINCT_CALLS = List.of(
            "moved key",
            "append",
            "compaction",
            "upsert",
            "index shard merge",
            "creation",
            "adoption with re-homing",
            "adoption");

    @Override
    boolean exercisedByDefault(String operation) {
        int index = DISTINCT_CALLS.indexOf(operation);
        return index >= 0 && (index + FaultPoints.rotation()) % 2 == 0;
    }

    /** Fewer partitions than the local run: every partition costs each fault point a few more round trips. */
    @Override
    int parcels() {
        return 24;
    }

    /** Besides the commit points, the first and the last call only. */
    @Override
    int sampledPointsPerOperation() {
        return 1;
    }

    /**
     * The first and the last commit point: an operation that commits one entry per key-index shard repeats the same
     * requests at each, and the local run fails the others.
     */
    @Override
    int sampledCommitPointsPerOperation() {
        return 2;
    }

    @Override
    @Tag("heavy")
    @TestFactory
    @Disabled("every call with every fault kind is thousands of archive copies over HTTP, hours against S3Mock;"
            + " the heavy profile runs the full product on the local filesystem")
    Stream<DynamicTest> everyStorageCallFailsWithEveryFaultKind() {
        return Stream.empty();
    }
}
