package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.StorageAccessDeniedException;
import dev.nifigeoparquet.archive.error.StorageUnavailableException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import dev.nifigeoparquet.archive.testing.ForwardingStorage;
import dev.nifigeoparquet.archive.testing.LimitedStorage;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.apache.nifi.util.LogMessage;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each kind of failure, met by the processors that write and read the archive, reaches an operator the way its kind
 * asks (FailureKind): a transient one goes to retry, penalised, and the processor yields with a warning; bad input goes
 * to failure and the processor goes on; one that needs an operator goes to failure with what to do, as an error, and the
 * processor yields. The archive is unchanged by each, file for file.
 */
class FailureRoutingTest {

    @TempDir
    Path dir;

    Path root;
    ParcelArchives parcels;
    List<MockFlowFile> routed;

    @BeforeEach
    void setUp() throws Exception {
        root = dir.resolve("archive");
        parcels = ParcelArchives.create(root, 200);
        routed = ChainFixtures.routeGeoParquet(
                root, ChainFixtures.geoParquetDelta(dir.resolve("delta.parquet"), ChainFixtures.delta(parcels)));
    }

    @Test
    void aStorageThatIsDownSendsTheDeltaToRetryAndTheProcessorYieldsWithAWarning() throws Exception {
        Map<String, String> before = ParcelArchives.hashes(root);
        TestRunner upsert = upsert(storage -> new ForwardingStorage(storage) {
            @Override
            public OutputStream createStaged(String path) throws IOException {
                throw new StorageUnavailableException(
                        "S3 could not serve PUT " + path + " for now (503 SlowDown)", null);
            }
        });
        ChainFixtures.pass(routed.subList(0, 1), upsert);
        upsert.run();

        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_RETRY, 1);
        MockFlowFile retried = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_RETRY)
                .get(0);
        assertTrue(retried.isPenalized(), "penalised, so it waits before its next attempt");
        assertTrue(
                retried.getAttribute("error.message").contains("503 SlowDown"), retried.getAttribute("error.message"));
        assertTrue(upsert.isYieldCalled(), "the storage is down: the processor backs off");
        assertFalse(upsert.getLogger().getWarnMessages().isEmpty(), "a warning, since nobody needs to act");
        assertEquals(List.of(), upsert.getLogger().getErrorMessages(), "no error bulletin for a transient failure");
        assertEquals(before, ParcelArchives.hashes(root), "the archive is unchanged");
    }

    @Test
    void badInputGoesToFailureAloneAndTheProcessorDoesNotYield() throws Exception {
        TestRunner upsert = upsert(UnaryOperator.identity());
        MockFlowFile first = routed.get(0);
        String otherCell = routed.get(1).getAttribute("h3.cell");
        // The records of one cell sent as another cell's: every record lies outside the cell it claims.
        upsert.enqueue(first.toByteArray(), Map.of("h3.cell", otherCell));
        upsert.run();

        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_FAILURE, 1);
        String reason = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE)
                .get(0)
                .getAttribute("error.message");
        assertTrue(reason.contains("not in partition " + otherCell), reason);
        assertFalse(upsert.isYieldCalled(), "the next FlowFile may well be fine");
    }

    @Test
    void damagedOrNewerMetadataAndAReadOnlyArchiveGoToFailureWithWhatToDoAndTheProcessorYields() throws Exception {
        String cell = routed.get(0).getAttribute("h3.cell");
        Path latest = root.resolve(ArchiveLayout.logEntry(
                cell, parcels.archive.partitionState(cell).version()));
        String entry = Files.readString(latest);

        Files.writeString(latest, entry.substring(0, entry.length() / 2));
        assertOperatorFailure(UnaryOperator.identity(), cell, "restore it from a backup");

        Files.writeString(latest, entry.replaceFirst("\"formatVersion\" : 1", "\"formatVersion\" : 99"));
        assertOperatorFailure(UnaryOperator.identity(), cell, "Upgrade the bundle");

        Files.writeString(latest, entry);
        assertOperatorFailure(LimitedStorage::readOnly, cell, "read and write access");
    }

    private void assertOperatorFailure(UnaryOperator<ArchiveStorage> storage, String cell, String advice)
            throws Exception {
        Map<String, String> before = ParcelArchives.hashes(root);
        TestRunner upsert = upsert(storage);
        ChainFixtures.pass(routed.subList(0, 1), upsert);
        upsert.run();

        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_FAILURE, 1);
        String reason = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_FAILURE)
                .get(0)
                .getAttribute("error.message");
        assertTrue(reason.startsWith("Partition " + cell + " was not changed: "), reason);
        assertTrue(reason.contains(advice), "the reason says what to do: " + reason);
        assertTrue(upsert.isYieldCalled(), "the archive needs an operator: the processor backs off");
        List<LogMessage> errors = upsert.getLogger().getErrorMessages();
        assertEquals(1, errors.size(), "one error bulletin: " + errors);
        assertTrue(errors.get(0).getMsg().contains(advice), errors.get(0).getMsg());
        assertEquals(before, ParcelArchives.hashes(root), "the archive is unchanged");
    }

    @Test
    void compactionAndVerificationAnswerTheirFailuresByKindToo() throws Exception {
        String cell = routed.get(0).getAttribute("h3.cell");
        TestRunner compact = ChainFixtures.compact(root, service(storage -> new ForwardingStorage(storage) {
            @Override
            public List<StoredObject> list(String directory) throws IOException {
                throw new StorageUnavailableException("connection reset listing " + directory, null);
            }
        }));
        compact.setProperty(CompactGeoParquetPartition.MIN_FILES, "1");
        compact.enqueue(new byte[0], Map.of("h3.cell", cell));
        compact.run();
        compact.assertAllFlowFilesTransferred(CompactGeoParquetPartition.REL_RETRY, 1);
        assertTrue(compact.getFlowFilesForRelationship(CompactGeoParquetPartition.REL_RETRY)
                .get(0)
                .isPenalized());
        assertTrue(compact.isYieldCalled());

        // A damaged commit entry is a problem verification reports (invalid); a storage it cannot read is a failure.
        TestRunner verifyWhileDown = ChainFixtures.runner(
                VerifyGeoMetadata.class,
                root,
                service(failingList(
                        directory -> new StorageUnavailableException("connection reset listing " + directory, null))));
        verifyWhileDown.enqueue(new byte[0], Map.of("h3.cell", cell));
        verifyWhileDown.run();
        verifyWhileDown.assertTransferCount(VerifyGeoMetadata.REL_FAILURE, 0);
        assertEquals(1, verifyWhileDown.getQueueSize().getObjectCount(), "back in its queue, to be verified later");
        assertTrue(verifyWhileDown.isYieldCalled());

        TestRunner verifyDenied = ChainFixtures.runner(
                VerifyGeoMetadata.class,
                root,
                service(failingList(directory -> new StorageAccessDeniedException(
                        "S3 refused LIST " + directory + " (403 AccessDenied)", null))));
        verifyDenied.enqueue(new byte[0], Map.of("h3.cell", cell));
        verifyDenied.run();
        verifyDenied.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_FAILURE, 1);
        String reason = verifyDenied
                .getFlowFilesForRelationship(VerifyGeoMetadata.REL_FAILURE)
                .get(0)
                .getAttribute("error.message");
        assertTrue(reason.contains("bucket's policy"), reason);
        assertTrue(verifyDenied.isYieldCalled());
    }

    /** A storage whose listings fail with {@code failure}. */
    private static UnaryOperator<ArchiveStorage> failingList(Function<String, IOException> failure) {
        return storage -> new ForwardingStorage(storage) {
            @Override
            public List<StoredObject> list(String directory) throws IOException {
                throw failure.apply(directory);
            }
        };
    }

    private TestRunner upsert(UnaryOperator<ArchiveStorage> storage) throws Exception {
        return ChainFixtures.upsert(root, GeoParquetReader::new, service(storage));
    }

    /** An archive service whose storage {@code storage} wraps. */
    private static StandardGeoParquetArchiveService service(UnaryOperator<ArchiveStorage> storage) {
        return new StandardGeoParquetArchiveService() {
            @Override
            protected ArchiveStorage decorateStorage(ArchiveStorage configured) {
                return storage.apply(configured);
            }
        };
    }
}
