package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.commit.ArchiveLease;
import dev.nifigeoparquet.archive.format.LeaseRecord;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.nifi.util.TestRunner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweeps of CompactGeoParquetPartition and VerifyGeoMetadata without an incoming connection: at most one per Sweep
 * Interval, one at a time across processors and nodes, and nothing read from the archive between them.
 */
class SweepScheduleTest {

    @TempDir
    Path dir;

    Path root;
    long qualifying;

    @BeforeEach
    void setUp() throws Exception {
        root = dir.resolve("archive");
        ParcelArchives parcels = ParcelArchives.create(root, 300);
        // Every partition holds two files (the archive was appended to twice): each qualifies with Minimum Files 1.
        qualifying = parcels.initial.values().stream()
                .filter(rows -> rows.size() > 1)
                .count();
    }

    @Test
    void aSweepRunsOncePerIntervalWhateverTheScheduleAndIsDueAgainAfterIt() throws Exception {
        TestRunner sweep = sweeper(root);
        sweep.run();
        assertEquals(
                qualifying,
                sweep.getFlowFilesForRelationship(CompactGeoParquetPartition.REL_SUCCESS)
                        .size());
        LeaseRecord done = lease().latest().orElseThrow();
        assertEquals(LeaseRecord.State.RELEASED, done.state(), "released with its work done");

        sweep.clearTransferState();
        sweep.run(5);
        sweep.assertTransferCount(CompactGeoParquetPartition.REL_SUCCESS, 0);
        assertEquals(done, lease().latest().orElseThrow(), "not due: nothing was taken, nothing read");
        assertTrue(sweep.isYieldCalled());

        // A second node that restarted (a new processor) reads the lease once and finds the sweep not due either.
        TestRunner restarted = sweeper(root);
        restarted.run();
        restarted.assertTransferCount(CompactGeoParquetPartition.REL_SUCCESS, 0);

        TestRunner hourly = sweeper(root);
        hourly.setProperty(CompactGeoParquetPartition.SWEEP_INTERVAL, "0 sec");
        hourly.run();
        assertEquals(done.version() + 2, lease().latest().orElseThrow().version(), "due again: taken and released");
    }

    @Test
    void twoNodesAndTwoTasksSweepingAtOnceSweepOnce() throws Exception {
        List<TestRunner> nodes = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            // Each node reaches the archive through its own path, as two machines mounting shared storage.
            nodes.add(sweeper(Files.createSymbolicLink(dir.resolve("node-" + i), root)));
        }
        CyclicBarrier start = new CyclicBarrier(4);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (TestRunner node : nodes) {
                for (int task = 0; task < 2; task++) {
                    running.add(pool.submit(() -> {
                        start.await();
                        node.run(1, false, true);
                        return null;
                    }));
                }
            }
            for (Future<?> run : running) {
                run.get();
            }
        } finally {
            pool.shutdownNow();
        }
        long compacted = 0;
        for (TestRunner node : nodes) {
            compacted += node.getFlowFilesForRelationship(CompactGeoParquetPartition.REL_SUCCESS)
                    .size();
            node.assertTransferCount(CompactGeoParquetPartition.REL_FAILURE, 0);
        }
        assertEquals(qualifying, compacted, "one sweep compacted each qualifying partition, once");
        assertEquals(2, lease().latest().orElseThrow().version(), "the lease was taken once and released once");
    }

    @Test
    void verificationSweepsOncePerIntervalToo() throws Exception {
        TestRunner audit = ChainFixtures.verify(root);
        audit.setIncomingConnection(false);
        audit.run(3);
        audit.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_VALID, 1);
        LeaseRecord done = new ArchiveLease(
                        new LocalArchiveStorage(root), VerifyGeoMetadata.SWEEP_LEASE, Clock.systemUTC())
                .latest()
                .orElseThrow();
        assertEquals(LeaseRecord.State.RELEASED, done.state());
        assertTrue(Duration.between(done.acquiredAt(), done.expiresAt()).toMinutes() < 5, "released once done");
    }

    private TestRunner sweeper(Path archiveRoot) throws Exception {
        TestRunner sweep = ChainFixtures.compact(archiveRoot);
        sweep.setIncomingConnection(false);
        sweep.setProperty(CompactGeoParquetPartition.MIN_FILES, "1");
        return sweep;
    }

    private ArchiveLease lease() {
        return new ArchiveLease(
                new LocalArchiveStorage(root), CompactGeoParquetPartition.SWEEP_LEASE, Clock.systemUTC());
    }
}
