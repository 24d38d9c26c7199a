package dev.nifigeoparquet.archive.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.ArchivedObjectException;
import dev.nifigeoparquet.archive.error.FailureKind;
import dev.nifigeoparquet.archive.error.StorageAccessDeniedException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.storage.AbandonableStream;
import dev.nifigeoparquet.archive.storage.StorageCost;
import dev.nifigeoparquet.archive.storage.StorageMeter;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.StorageClass;

/** The storage contract on a real S3-compatible server (S3Mock on loopback). */
class S3ArchiveStorageTest {

    private static final String CELL = "8428309ffffffff";

    private S3MockServer server;
    private S3ArchiveStorage storage;

    @BeforeEach
    void start() throws IOException {
        server = S3MockServer.get();
        storage = server.newStorage("contract", "parcels");
    }

    /**
     * Credentials that cannot be resolved (a role that cannot be assumed, an empty default chain) need an operator: the
     * request is reported as refused for want of credentials, with their reason, never as a store that did not answer,
     * which would be retried.
     */
    @Test
    void credentialsThatCannotBeResolvedNeedAnOperatorAndNameTheReason() {
        StorageAccessDeniedException refused;
        // Its own client, built from the settings: the server's shared one signs with fixed test keys.
        try (S3ArchiveStorage unsigned =
                S3ArchiveStorage.open(storage.settings().withCredentials(() -> {
                    throw new IllegalStateException("role arn:aws:iam::123456789012:role/archive cannot be assumed");
                }))) {
            refused = assertThrows(StorageAccessDeniedException.class, () -> unsigned.list(""));
        }
        assertEquals(FailureKind.OPERATOR_ACTION, refused.kind());
        assertTrue(refused.getMessage().contains("no credentials to sign it"), refused.getMessage());
        assertTrue(refused.getMessage().contains("cannot be assumed"), refused.getMessage());
    }

    /** The AWS SDK's default chain finding no credentials on the host is the same configuration problem. */
    @Test
    void anEmptyDefaultChainNeedsAnOperator() {
        // No instance metadata service to wait for; the chain's other sources are absent on a build machine.
        String before = System.setProperty("aws.disableEc2Metadata", "true");
        try (S3ArchiveStorage unsigned =
                S3ArchiveStorage.open(storage.settings().withCredentials(null).withTls(null, null))) {
            Assumptions.assumeTrue(
                    System.getenv("AWS_ACCESS_KEY_ID") == null && System.getenv("AWS_PROFILE") == null,
                    "the host has AWS credentials");
            StorageAccessDeniedException refused =
                    assertThrows(StorageAccessDeniedException.class, () -> unsigned.list(""));
            assertTrue(refused.getMessage().contains("no credentials to sign it"), refused.getMessage());
        } finally {
            if (before == null) {
                System.clearProperty("aws.disableEc2Metadata");
            } else {
                System.setProperty("aws.disableEc2Metadata", before);
            }
        }
    }

    @Test
    void aSecondExclusiveCreateOfTheSameKeyFailsAndLeavesTheFirstContent() throws IOException {
        String entry = ArchiveLayout.logEntry(CELL, 1);
        storage.createExclusive(entry, bytes("first"));

        FileAlreadyExistsException lost =
                assertThrows(FileAlreadyExistsException.class, () -> storage.createExclusive(entry, bytes("second")));
        assertTrue(lost.getReason().contains("412"), lost.getReason());
        assertEquals("first", text(storage.readAllBytes(entry)));
    }

    /**
     * Under a true race, that exactly one of several simultaneous conditional PUTs wins is S3's own guarantee (and
     * the protocol's one assumption about the store). S3Mock checks and writes in two steps, so simultaneous PUTs can
     * all pass its check; what it does show is that each PUT lands whole and a late PUT is refused.
     */
    @Test
    void simultaneousExclusiveCreatesLandWholeAndLatecomersAreRefused() throws Exception {
        for (int round = 0; round < 10; round++) {
            String entry = ArchiveLayout.logEntry(CELL, round + 1);
            List<String> winners = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch go = new CountDownLatch(1);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                String content = "writer-" + t;
                threads.add(Thread.ofPlatform().start(() -> {
                    try {
                        go.await();
                        storage.createExclusive(entry, bytes(content));
                        winners.add(content);
                    } catch (FileAlreadyExistsException lostTheRace) {
                        // refused
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }));
            }
            go.countDown();
            for (Thread thread : threads) {
                thread.join();
            }
            assertFalse(winners.isEmpty(), "round " + round);
            assertTrue(winners.contains(text(storage.readAllBytes(entry))), "the entry is one writer's content, whole");
            assertThrows(FileAlreadyExistsException.class, () -> storage.createExclusive(entry, bytes("late")));
        }
    }

    @Test
    void aStagedDataFileIsUploadedAtItsFinalKeyAndPublishingRemovesItsStagingRecord() throws IOException {
        String staged = ArchiveLayout.stagedFile(CELL, "part-a.parquet");
        String dataFile = ArchiveLayout.dataFile(CELL, "part-a.parquet");
        try (OutputStream out = storage.createStaged(staged)) {
            out.write(bytes("parquet bytes"));
        }
        assertEquals(
                List.of("part-a.parquet.staged"), names(ArchiveLayout.stagingDirectory(CELL)), "the staging record");
        assertEquals(0, storage.stat(staged).size(), "the record is empty");
        assertEquals("parquet bytes", text(storage.readAllBytes(dataFile)), "the data is already at its final key");

        storage.publish(staged, dataFile);
        assertEquals(List.of(), names(ArchiveLayout.stagingDirectory(CELL)));
        assertEquals(List.of("part-a.parquet"), names(ArchiveLayout.partitionDirectory(CELL)));
        storage.publish(staged, dataFile); // idempotent for recovery
    }

    @Test
    void replacementsAndKeyIndexFilesStayStandardWhileDataFilesTakeTheConfiguredClass() throws IOException {
        S3ArchiveStorage infrequent = server.storage(storage.settings().withStorageClass("STANDARD_IA"));
        String replacement = ArchiveLayout.replacementFile(CELL, "part-new.parquet");
        try (OutputStream out = infrequent.createStaged(replacement)) {
            out.write(bytes("new content"));
        }
        String shard = ArchiveLayout.indexShard(3);
        String indexFile = ArchiveLayout.newIndexFileName();
        try (OutputStream out = infrequent.createStaged(ArchiveLayout.stagedFile(shard, indexFile))) {
            out.write(bytes("keys"));
        }
        assertEquals(null, infrequent.head(replacement).orElseThrow().storageClass(), "a replacement is staging");
        assertEquals(
                null,
                infrequent
                        .head(ArchiveLayout.dataFile(shard, indexFile))
                        .orElseThrow()
                        .storageClass(),
                "key-index files are read on every write and superseded within days");

        String dataFile = ArchiveLayout.dataFile(CELL, "part-0.parquet");
        infrequent.publishReplacing(replacement, dataFile);
        assertEquals("STANDARD_IA", infrequent.head(dataFile).orElseThrow().storageClassAsString());
    }

    @Test
    void archiveClassesAreRefusedForDataFiles() {
        for (String frozen : List.of("GLACIER", "DEEP_ARCHIVE")) {
            IllegalArgumentException refused = assertThrows(
                    IllegalArgumentException.class, () -> storage.settings().withStorageClass(frozen));
            assertTrue(refused.getMessage().contains("restore"), refused.getMessage());
        }
    }

    @Test
    void aFileReplacedWhileItIsReadReadsAsSuperseded() throws IOException {
        String dataFile = ArchiveLayout.dataFile(CELL, "part-0.parquet");
        String replacement = ArchiveLayout.replacementFile(CELL, "part-r.parquet");
        try (OutputStream out = storage.createStaged(ArchiveLayout.stagedFile(CELL, "part-0.parquet"))) {
            out.write(bytes("old content"));
        }
        InputFile opened = storage.openInputFile(dataFile);
        try (OutputStream out = storage.createStaged(replacement)) {
            out.write(bytes("new content, longer"));
        }
        storage.publishReplacing(replacement, dataFile);

        NoSuchFileException superseded = assertThrows(NoSuchFileException.class, () -> {
            try (SeekableInputStream in = opened.newStream()) {
                in.readFully(new byte[4]);
            }
        });
        assertTrue(superseded.getMessage().contains("replaced while it was being read"), superseded.getMessage());
    }

    @Test
    void discardingAStagedFileDeletesItsDataAtTheFinalKey() throws IOException {
        String staged = ArchiveLayout.stagedFile(CELL, "part-lost.parquet");
        try (OutputStream out = storage.createStaged(staged)) {
            out.write(bytes("a losing attempt"));
        }
        storage.delete(staged);
        assertEquals(List.of(), names(ArchiveLayout.stagingDirectory(CELL)));
        assertEquals(List.of(), names(ArchiveLayout.partitionDirectory(CELL)));
        assertThrows(
                NoSuchFileException.class,
                () -> storage.publish(staged, ArchiveLayout.dataFile(CELL, "part-lost.parquet")));
    }

    @Test
    void largeFilesAreMultipartUploadsAndReadBackByRange() throws IOException {
        byte[] content = new byte[S3StorageSettings.MIN_PART_SIZE * 2 + 12345];
        new Random(7).nextBytes(content);
        S3ArchiveStorage small = server.storage(storage.settings()
                .withPartSizeBytes(S3StorageSettings.MIN_PART_SIZE)
                .withStorageClass("STANDARD_IA"));
        String staged = ArchiveLayout.stagedFile(CELL, "part-big.parquet");
        StorageMeter.Measured<Void> upload = StorageMeter.measure(() -> {
            try (OutputStream out = small.createStaged(staged)) {
                for (int i = 0; i < content.length; i += 1000) {
                    out.write(content, i, Math.min(1000, content.length - i));
                }
            }
            return null;
        });
        // marker PUT + create + 3 parts + complete
        assertEquals(6, upload.cost().puts(), upload.cost().toString());
        assertEquals(content.length, upload.cost().bytesUploaded());

        String dataFile = ArchiveLayout.dataFile(CELL, "part-big.parquet");
        HeadObjectResponse head = small.head(dataFile).orElseThrow();
        assertEquals(content.length, head.contentLength());
        assertEquals("STANDARD_IA", head.storageClassAsString(), "data files take the configured storage class");
        assertEquals(null, small.head(staged).orElseThrow().storageClass(), "staging records stay STANDARD");

        InputFile input = small.openInputFile(dataFile);
        StorageMeter.Measured<byte[]> read = StorageMeter.measure(() -> {
            byte[] middle = new byte[100_000];
            try (SeekableInputStream in = input.newStream()) {
                in.seek(S3StorageSettings.MIN_PART_SIZE - 50_000);
                in.readFully(middle);
                in.seek(content.length - 8);
                byte[] tail = new byte[8];
                in.readFully(tail);
                assertArrayEquals(Arrays.copyOfRange(content, content.length - 8, content.length), tail);
            }
            return middle;
        });
        assertArrayEquals(
                Arrays.copyOfRange(
                        content, S3StorageSettings.MIN_PART_SIZE - 50_000, S3StorageSettings.MIN_PART_SIZE + 50_000),
                read.result());
        assertEquals(2, read.cost().gets(), "one ranged GET per read: " + read.cost());
        assertEquals(
                100_000 + S3InputFile.READ_AHEAD, read.cost().bytesDownloaded(), "only the ranges read are downloaded");
    }

    @Test
    void anAbandonedUploadIsAbortedAndNothingAppearsAtItsKey() throws IOException {
        S3ArchiveStorage small = server.storage(storage.settings().withPartSizeBytes(S3StorageSettings.MIN_PART_SIZE));
        String path = ArchiveLayout.dataFile(CELL, "part-abandoned.parquet");
        OutputStream out = small.createStaged(path);
        out.write(new byte[S3StorageSettings.MIN_PART_SIZE + 1]);
        assertFalse(
                server.client()
                        .listMultipartUploads(b -> b.bucket(small.location().bucket()))
                        .uploads()
                        .isEmpty(),
                "a part was uploaded");

        assertTrue(out instanceof AbandonableStream, "a stream that publishes on close can be given up");
        ((AbandonableStream) out).abandon();
        out.close();

        ListMultipartUploadsResponse open = server.client()
                .listMultipartUploads(b -> b.bucket(small.location().bucket()));
        assertTrue(open.uploads().isEmpty(), "no upload is left open: " + open.uploads());
        assertFalse(small.exists(path), "closing an abandoned upload does not complete it");
    }

    @Test
    void aFailedMultipartUploadIsAborted() throws IOException {
        S3ArchiveStorage small = server.storage(storage.settings().withPartSizeBytes(S3StorageSettings.MIN_PART_SIZE));
        String path = ArchiveLayout.dataFile(CELL, "part-taken.parquet");
        small.createExclusive(path, bytes("already there"));
        OutputStream out = small.createStaged("elsewhere/part-taken.parquet");
        out.write(new byte[S3StorageSettings.MIN_PART_SIZE + 1]);
        // Make completion fail: the bucket vanishes under the upload... simpler: abort through close with a forged
        // state.
        server.client()
                .abortMultipartUpload(b -> b.bucket(small.location().bucket())
                        .key(small.location().key("elsewhere/part-taken.parquet"))
                        .uploadId(openUploadId(small)));
        assertThrows(IOException.class, out::close, "completing an upload that no longer exists fails");
        ListMultipartUploadsResponse open = server.client()
                .listMultipartUploads(b -> b.bucket(small.location().bucket()));
        assertTrue(open.uploads().isEmpty(), "no upload is left open: " + open.uploads());
        assertFalse(small.exists("elsewhere/part-taken.parquet"));
    }

    @Test
    void objectsInArchiveClassesAreReportedAndNeverRead() throws IOException {
        String dataFile = ArchiveLayout.dataFile(CELL, "part-cold.parquet");
        server.client()
                .putObject(
                        b -> b.bucket(storage.location().bucket())
                                .key(storage.location().key(dataFile))
                                .storageClass(StorageClass.DEEP_ARCHIVE),
                        RequestBody.fromBytes(bytes("frozen")));

        ArchivedObjectException refused =
                assertThrows(ArchivedObjectException.class, () -> storage.openInputFile(dataFile));
        assertEquals("DEEP_ARCHIVE", refused.storageClass());
        assertTrue(refused.getMessage().contains("restore"), refused.getMessage());
        List<StoredObject> cold = storage.objectsNeedingRestore("");
        assertEquals(List.of(dataFile), cold.stream().map(StoredObject::path).toList());
    }

    @Test
    void coldStorageClassesSetTheMinimumObjectAgeUnlessOverridden() {
        assertEquals(Duration.ZERO, storage.minimumObjectAge());
        assertEquals(
                Duration.ofDays(90),
                server.storage(storage.settings().withStorageClass("GLACIER_IR"))
                        .minimumObjectAge());
        assertEquals(
                Duration.ofDays(30),
                server.storage(storage.settings().withStorageClass("STANDARD_IA"))
                        .minimumObjectAge());
        assertEquals(
                Duration.ZERO,
                server.storage(storage.settings().withStorageClass("GLACIER_IR").withMinimumObjectAge(Duration.ZERO))
                        .minimumObjectAge());
    }

    @Test
    void deletesAreReportedWithTheAgeOfTheObject() throws IOException {
        String dataFile = ArchiveLayout.dataFile(CELL, "part-old.parquet");
        storage.createExclusive(dataFile, bytes("x"));
        storage.list(ArchiveLayout.partitionDirectory(CELL));
        StorageMeter.Measured<Void> deletion = StorageMeter.measure(() -> {
            storage.delete(dataFile);
            return null;
        });
        StorageCost cost = deletion.cost();
        assertEquals(1, cost.deletes());
        assertEquals(dataFile, cost.deleted().get(0).path());
        assertNotNull(cost.deleted().get(0).age(), "the age is known from the listing, without a HEAD");
        assertEquals(1, cost.deletedYoungerThan(Duration.ofDays(30)).size());
    }

    @Test
    void listingsShowObjectsAndSubdirectoriesOfOneLevel() throws IOException {
        storage.createExclusive(ArchiveLayout.DESCRIPTOR, bytes("{}"));
        storage.createExclusive(ArchiveLayout.dataFile(CELL, "part-1.parquet"), bytes("1"));
        List<StoredObject> top = storage.list("");
        assertEquals(
                List.of("_geoparquet_archive", "h3_cell=" + CELL),
                top.stream().map(StoredObject::path).toList());
        assertTrue(top.stream().allMatch(StoredObject::directory));
        assertEquals(List.of(), names("h3_cell=8428309fffffff0"), "a missing directory lists as empty");
        assertThrows(NoSuchFileException.class, () -> storage.stat("nothing.json"));
        assertThrows(NoSuchFileException.class, () -> storage.readAllBytes("nothing.json"));
    }

    private static String openUploadId(S3ArchiveStorage small) {
        return S3MockServer.get0()
                .client()
                .listMultipartUploads(b -> b.bucket(small.location().bucket()))
                .uploads()
                .get(0)
                .uploadId();
    }

    private List<String> names(String directory) throws IOException {
        return storage.list(directory).stream().map(StoredObject::name).toList();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
