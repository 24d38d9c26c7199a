package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.s3.S3Backend;
import dev.nifigeoparquet.archive.testing.StorageBackend;
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

    @Override
    int sampledPointsPerOperation() {
        return 4;
    }

    /**
     * The first, the last and a few commit points between: an operation that commits one entry per key-index shard
     * repeats the same requests at each, and the local run fails every one.
     */
    @Override
    int sampledCommitPointsPerOperation() {
        return 4;
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
