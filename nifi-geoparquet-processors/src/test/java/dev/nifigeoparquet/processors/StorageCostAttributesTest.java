package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.s3.S3Location;
import dev.nifigeoparquet.archive.s3.S3MockServer;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.service.ArchiveStorageType;
import dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import dev.nifigeoparquet.processors.testing.S3Archives;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.nifi.processor.Processor;
import org.apache.nifi.reporting.InitializationException;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.apache.nifi.util.TestRunners;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The storage cost attributes of the upsert, the compaction and the verification, on real runs: zero on a local root,
 * and on an s3:// root (S3Mock) the requests and bytes the bucket itself shows, counted from listings of the bucket
 * before and after each operation rather than from the meter that produced the attributes.
 *
 * <p>What the bucket shows follows from the storage's request pattern (docs/archive-format.md, section 12.1): each
 * new object is one PUT of its bytes; each data or index file is staged, which adds a zero-byte staging record PUT
 * and its DELETE; each object gone was one DELETE.
 */
class StorageCostAttributesTest {

    private static final String PREFIX = "parcels";

    @TempDir
    Path dir;

    Path localRoot;
    String s3Root;
    S3Client s3;
    String bucket;
    List<MockFlowFile> routed;

    @BeforeEach
    void setUp() throws Exception {
        localRoot = dir.resolve("archive");
        ParcelArchives parcels = ParcelArchives.create(localRoot, 200);
        routed = ChainFixtures.routeGeoParquet(
                localRoot, ChainFixtures.geoParquetDelta(dir.resolve("delta.parquet"), ChainFixtures.delta(parcels)));

        s3Root = S3Archives.upload(localRoot, PREFIX);
        s3 = S3MockServer.get().client();
        bucket = S3Location.parse(s3Root).bucket();
    }

    @Test
    void onALocalRootEveryCountIsZero() throws Exception {
        MockFlowFile upserted = upsert(runner(UpsertGeoParquetPartition.class, localRoot.toString()));
        MockFlowFile compacted = compact(runner(CompactGeoParquetPartition.class, localRoot.toString()), upserted);
        MockFlowFile verified = verify(runner(VerifyGeoMetadata.class, localRoot.toString()), compacted);

        assertTrue(
                Long.parseLong(upserted.getAttribute(GeoParquetAttributes.FILES_WRITTEN)) > 0,
                "the upsert wrote files");
        for (String prefix : List.of(
                GeoParquetAttributes.UPSERT_STORAGE,
                GeoParquetAttributes.COMPACTION_STORAGE,
                GeoParquetAttributes.VERIFICATION_STORAGE)) {
            for (String count : List.of(
                    StorageCostAttributes.PUT_COUNT,
                    StorageCostAttributes.GET_COUNT,
                    StorageCostAttributes.LIST_COUNT,
                    StorageCostAttributes.DELETE_COUNT,
                    StorageCostAttributes.BYTES_UPLOADED,
                    StorageCostAttributes.BYTES_DOWNLOADED,
                    StorageCostAttributes.OBJECTS_DELETED)) {
                verified.assertAttributeEquals(prefix + count, "0");
            }
            assertNull(
                    verified.getAttribute(prefix + StorageCostAttributes.YOUNGEST_DELETED_AGE),
                    prefix + ": no age without deletions");
        }
    }

    @Test
    void onS3EachStepReportsTheRequestsAndBytesTheBucketShows() throws Exception {
        String root = s3Root;

        Map<String, StoredObject> beforeUpsert = objects();
        MockFlowFile upserted = upsert(runner(UpsertGeoParquetPartition.class, root));
        Map<String, StoredObject> afterUpsert = objects();
        assertCostMatchesTheBucket(upserted, GeoParquetAttributes.UPSERT_STORAGE, beforeUpsert, afterUpsert);
        assertEquals(
                upserted.getAttribute(GeoParquetAttributes.FILES_WRITTEN),
                String.valueOf(Stream.concat(
                                added(beforeUpsert, afterUpsert).stream(), replaced(beforeUpsert, afterUpsert).stream())
                        .filter(StorageCostAttributesTest::isDataFile)
                        .count()),
                "every data file written is a new object of the partition or replaces one in place");
        assertNotNull(
                upserted.getAttribute(GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.YOUNGEST_DELETED_AGE),
                "the superseded data file's age is known");

        MockFlowFile compacted = compact(runner(CompactGeoParquetPartition.class, root), upserted);
        Map<String, StoredObject> afterCompaction = objects();
        compacted.assertAttributeEquals(GeoParquetAttributes.COMPACTED, "true");
        assertCostMatchesTheBucket(compacted, GeoParquetAttributes.COMPACTION_STORAGE, afterUpsert, afterCompaction);
        assertEquals(
                upserted.getAttribute(GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.PUT_COUNT),
                compacted.getAttribute(GeoParquetAttributes.UPSERT_STORAGE + StorageCostAttributes.PUT_COUNT),
                "the upsert's cost travels on, next to the compaction's");

        MockFlowFile verified = verify(runner(VerifyGeoMetadata.class, root), compacted);
        assertEquals(afterCompaction, objects(), "verification changes nothing");
        verified.assertAttributeEquals("geo.consistent", "true");
        verified.assertAttributeEquals(
                GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.PUT_COUNT, "0");
        verified.assertAttributeEquals(
                GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.DELETE_COUNT, "0");
        verified.assertAttributeEquals(
                GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.BYTES_UPLOADED, "0");
        assertTrue(
                count(verified, GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.GET_COUNT) > 0,
                "footers were read");
        assertTrue(
                count(verified, GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.LIST_COUNT) > 0,
                "partitions were listed");
        long partitionBytes = afterCompaction.entrySet().stream()
                .filter(e -> isDataFile(e.getKey()))
                .mapToLong(e -> e.getValue().size())
                .sum();
        long downloaded =
                count(verified, GeoParquetAttributes.VERIFICATION_STORAGE + StorageCostAttributes.BYTES_DOWNLOADED);
        assertTrue(
                downloaded > 0 && downloaded < partitionBytes + 1_000_000,
                "read footers and logs, not whole archives: " + downloaded);
    }

    @Test
    void aSweepReportsEachPartitionsCostAndTogetherTheyAreWhatTheBucketShows() throws Exception {
        TestRunner sweep = runner(CompactGeoParquetPartition.class, s3Root);
        sweep.setIncomingConnection(false);
        sweep.setProperty(CompactGeoParquetPartition.MIN_FILES, "1");
        Map<String, StoredObject> before = objects();
        sweep.run();
        Map<String, StoredObject> after = objects();
        List<MockFlowFile> partitions = sweep.getFlowFilesForRelationship(CompactGeoParquetPartition.REL_SUCCESS);
        assertTrue(partitions.size() > 1, "several partitions compacted: " + partitions.size());

        long puts = 0;
        long deletes = 0;
        long uploaded = 0;
        for (MockFlowFile partition : partitions) {
            long partitionPuts =
                    count(partition, GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.PUT_COUNT);
            assertEquals(
                    partitionPuts,
                    ChainFixtures.JSON
                            .readTree(partition.getContent())
                            .get("storageCost")
                            .get("puts")
                            .asLong(),
                    "the JSON result carries the same cost");
            puts += partitionPuts;
            deletes += count(partition, GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.DELETE_COUNT);
            uploaded +=
                    count(partition, GeoParquetAttributes.COMPACTION_STORAGE + StorageCostAttributes.BYTES_UPLOADED);
        }
        Set<String> added = added(before, after);
        // The sweep's lease (taken, then released: two records) is the sweep's own, no partition's.
        Set<String> lease = new TreeSet<>(added);
        lease.removeIf(key -> !key.contains(ArchiveLayout.leaseDirectory(CompactGeoParquetPartition.SWEEP_LEASE)));
        assertEquals(2, lease.size(), "the sweep took its lease and released it: " + lease);
        added.removeAll(lease);
        Set<String> replaced = replaced(before, after);
        Set<String> gone = new TreeSet<>(before.keySet());
        gone.removeAll(after.keySet());
        long staged =
                added.stream().filter(StorageCostAttributesTest::isDataFile).count();
        assertEquals(added.size() + staged + 2L * replaced.size(), puts, "added " + added + ", replaced " + replaced);
        assertEquals(gone.size() + staged + replaced.size(), deletes, "gone " + gone + ", replaced " + replaced);
        assertEquals(bytesOf(added, after) + bytesOf(replaced, after), uploaded);
    }

    /**
     * PUTs are the new objects plus one staging record per staged file, and for a data file replaced in place the upload
     * of its replacement and the server-side copy over the live key; DELETEs the objects gone, those staging records and
     * each replacement's staged copy; objects deleted also count each replaced object's former content; bytes uploaded
     * are the new and replacing objects' bytes (staging records are empty, a copy uploads nothing).
     */
    private static void assertCostMatchesTheBucket(
            MockFlowFile flowFile, String prefix, Map<String, StoredObject> before, Map<String, StoredObject> after) {
        Set<String> added = added(before, after);
        Set<String> replaced = replaced(before, after);
        Set<String> gone = new TreeSet<>(before.keySet());
        gone.removeAll(after.keySet());
        long staged = added.stream()
                .filter(key -> isDataFile(key) || key.startsWith(ArchiveLayout.INDEX_DIRECTORY + "/"))
                .count();
        long bytes = bytesOf(added, after) + bytesOf(replaced, after);
        String where = prefix + ": added " + added + ", replaced " + replaced + ", gone " + gone + ", attributes "
                + flowFile.getAttributes();
        System.out.println(prefix + "* on S3: "
                + new TreeMap<>(flowFile.getAttributes())
                        .entrySet().stream()
                                .filter(e -> e.getKey().startsWith(prefix))
                                .map(e -> e.getKey().substring(prefix.length()) + "=" + e.getValue())
                                .toList()
                + "; the bucket: " + added.size() + " objects added (" + staged + " staged), " + replaced.size()
                + " replaced, " + gone.size() + " gone");

        assertTrue(
                added.stream().anyMatch(StorageCostAttributesTest::isDataFile)
                        || replaced.stream().anyMatch(StorageCostAttributesTest::isDataFile),
                where);
        assertEquals(
                added.size() + staged + 2L * replaced.size(),
                count(flowFile, prefix + StorageCostAttributes.PUT_COUNT),
                where);
        assertEquals(
                gone.size() + staged + replaced.size(),
                count(flowFile, prefix + StorageCostAttributes.DELETE_COUNT),
                where);
        assertEquals(
                gone.size() + staged + 2L * replaced.size(),
                count(flowFile, prefix + StorageCostAttributes.OBJECTS_DELETED),
                where);
        assertEquals(bytes, count(flowFile, prefix + StorageCostAttributes.BYTES_UPLOADED), where);
        assertTrue(count(flowFile, prefix + StorageCostAttributes.GET_COUNT) > 0, where);
        assertTrue(count(flowFile, prefix + StorageCostAttributes.LIST_COUNT) > 0, where);
        assertTrue(count(flowFile, prefix + StorageCostAttributes.BYTES_DOWNLOADED) > 0, where);
    }

    private static Set<String> added(Map<String, StoredObject> before, Map<String, StoredObject> after) {
        Set<String> added = new TreeSet<>(after.keySet());
        added.removeAll(before.keySet());
        return added;
    }

    /** Keys present before and after whose content changed: data files rewritten in place. */
    private static Set<String> replaced(Map<String, StoredObject> before, Map<String, StoredObject> after) {
        Set<String> replaced = new TreeSet<>();
        after.forEach((key, now) -> {
            StoredObject was = before.get(key);
            if (was != null && !was.eTag().equals(now.eTag())) {
                replaced.add(key);
            }
        });
        return replaced;
    }

    private static long bytesOf(Set<String> keys, Map<String, StoredObject> objects) {
        return keys.stream().mapToLong(key -> objects.get(key).size()).sum();
    }

    /** An object as the bucket lists it; the entity tag changes when its content is replaced. */
    private record StoredObject(long size, String eTag) {}

    private static boolean isDataFile(String key) {
        return key.startsWith(ArchiveLayout.PARTITION_PREFIX) && key.endsWith(ArchiveLayout.DATA_FILE_SUFFIX);
    }

    private static long count(MockFlowFile flowFile, String attribute) {
        String value = flowFile.getAttribute(attribute);
        assertNotNull(value, attribute + " is written");
        return Long.parseLong(value);
    }

    /** Every object of the archive in the bucket: key relative to the archive root -> size. */
    private Map<String, StoredObject> objects() {
        Map<String, StoredObject> objects = new TreeMap<>();
        for (S3Object object : s3.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(PREFIX + "/"))
                .contents()) {
            objects.put(object.key().substring(PREFIX.length() + 1), new StoredObject(object.size(), object.eTag()));
        }
        return objects;
    }

    // ---- the three steps, on one routed cell

    private MockFlowFile upsert(TestRunner upsert) throws Exception {
        ChainFixtures.addService(upsert, "reader", new GeoParquetReader());
        upsert.setProperty(UpsertGeoParquetPartition.RECORD_READER, "reader");
        upsert.setProperty(UpsertGeoParquetPartition.DELETE_MARKER, ChainFixtures.DELETE_MARKER);
        MockFlowFile cell = routed.get(0);
        upsert.enqueue(cell.getContentStream(), cell.getAttributes());
        upsert.run();
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS, 1);
        return upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS)
                .get(0);
    }

    private static MockFlowFile compact(TestRunner compact, MockFlowFile upserted) {
        compact.setProperty(CompactGeoParquetPartition.MIN_FILES, "1");
        compact.enqueue(upserted.getContentStream(), upserted.getAttributes());
        compact.run();
        compact.assertAllFlowFilesTransferred(CompactGeoParquetPartition.REL_SUCCESS, 1);
        return compact.getFlowFilesForRelationship(CompactGeoParquetPartition.REL_SUCCESS)
                .get(0);
    }

    private static MockFlowFile verify(TestRunner verify, MockFlowFile compacted) {
        verify.enqueue(compacted.getContentStream(), compacted.getAttributes());
        verify.run();
        verify.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_VALID, 1);
        return verify.getFlowFilesForRelationship(VerifyGeoMetadata.REL_VALID).get(0);
    }

    /** A processor with the archive service on {@code root}: a directory, or an s3:// root on S3Mock. */
    private static TestRunner runner(Class<? extends Processor> type, String root) throws IOException {
        TestRunner runner = TestRunners.newTestRunner(type);
        StandardGeoParquetArchiveService archive = new StandardGeoParquetArchiveService();
        try {
            runner.addControllerService("archive", archive);
        } catch (InitializationException e) {
            throw new IllegalStateException(e);
        }
        runner.setProperty(archive, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root);
        if (root.startsWith("s3://")) {
            runner.setProperty(archive, StandardGeoParquetArchiveService.ARCHIVE_STORAGE, ArchiveStorageType.S3);
            runner.setProperty(archive, "S3 Endpoint Override URL", S3Archives.endpoint());
            runner.setProperty(archive, "S3 Region", S3Archives.REGION);
            runner.setProperty(archive, "S3 Authentication Strategy", "Access Keys");
            runner.setProperty(archive, "S3 Access Key ID", S3Archives.ACCESS_KEY_ID);
            runner.setProperty(archive, "S3 Secret Access Key", S3Archives.SECRET_ACCESS_KEY);
        }
        runner.enableControllerService(archive);
        runner.setProperty("GeoParquet Archive Service", "archive");
        return runner;
    }
}
