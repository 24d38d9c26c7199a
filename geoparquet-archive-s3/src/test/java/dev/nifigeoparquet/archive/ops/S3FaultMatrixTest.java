package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.s3.S3Backend;
import dev.nifigeoparquet.archive.testing.StorageBackend;
import java.util.Set;
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
     * Operations whose storage calls another operation of the matrix makes too: an upsert's (read the log and the key
     * column, stage a file, create the entry, publish), and the journal fold's, which the shard merge runs before it
     * merges. On S3 the default run leaves them to the local matrix and the heavy profile runs them here too: each
     * fault point costs a few hundred HTTP round trips.
     */
    private static final Set<String> CALLS_MADE_BY_ANOTHER =
            Set.of("delete", "delete by key alone", "replace", "batch of two upserts", "index journal fold");

    @Override
    boolean exercisedByDefault(String operation) {
        return !CALLS_MADE_BY_ANOTHER.contains(operation);
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
