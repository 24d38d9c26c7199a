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
     * Operations whose storage calls are those of another operation in the matrix (an upsert's: read the log and the
     * key column, stage a file, create the entry, publish): on S3 the default run leaves them to the local matrix and
     * the heavy profile runs them here too. Each fault point costs a few hundred HTTP round trips.
     */
    private static final Set<String> LIKE_AN_UPSERT =
            Set.of("delete", "delete by key alone", "replace", "batch of two upserts");

    @Override
    boolean exercisedByDefault(String operation) {
        return !LIKE_AN_UPSERT.contains(operation);
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
     * The first, the last and one commit point between (moved by the rotation): an operation that commits one entry
     * per key-index shard repeats the same requests at each, and the local run fails the others.
     */
    @Override
    int sampledCommitPointsPerOperation() {
        return 3;
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
