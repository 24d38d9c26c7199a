package dev.nifigeoparquet.archive.commit;

import dev.nifigeoparquet.archive.s3.S3Backend;
import dev.nifigeoparquet.archive.testing.StorageBackend;

/**
 * The commit protocol's fault suite on S3 (S3Mock): every request of a commit fails in turn, with each kind of fault,
 * and the partition reads as exactly the old or the new state, recovery leaves no staging record or uncommitted data
 * file behind, and the retry lands once.
 */
class S3PartitionCommitterFaultTest extends PartitionCommitterFaultTest {

    @Override
    StorageBackend backend() {
        return S3Backend.get();
    }
}
