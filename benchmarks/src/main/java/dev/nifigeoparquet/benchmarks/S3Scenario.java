package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.s3.S3ArchiveStorage;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StorageCost;
import dev.nifigeoparquet.archive.storage.StorageMeter;
import dev.nifigeoparquet.archive.storage.StoredObject;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Iterator;
import java.util.Objects;
import org.apache.parquet.example.data.Group;

/**
 * Scenario 1 on an object store: the same pristine archive and delta, uploaded twice to Adobe S3Mock running in
 * this JVM; on one copy the engine's incremental upsert through {@link S3ArchiveStorage}, on the other the naive
 * full rewrite through the same storage (every partition read, merged, uploaded as a new object, its old objects
 * deleted). Each runs inside {@link StorageMeter#measure}, which counts every request and every body byte the
 * storage sends or receives: the figures a bill is made of. The uploads that set the copies up are not metered.
 *
 * <p>Request counts and bytes do not depend on the server; wall times do, and S3Mock on loopback is not S3.
 */
final class S3Scenario {

    private static final String BUCKET = "nightly";

    private S3Scenario() {}

    static void run(NightlyDeltaScenario.Prepared prepared, Path work, ObjectNode out) throws Exception {
        long t0 = System.nanoTime();
        Archives.deleteTree(work);
        Path pristine = prepared.archive().root;
        Delta delta = prepared.delta();
        try (InProcessS3 s3 = InProcessS3.start(work.resolve("objects"))) {
            s3.createBucket(BUCKET);
            S3ArchiveStorage incrementalStorage = s3.storage(BUCKET, "incremental");
            S3ArchiveStorage fullStorage = s3.storage(BUCKET, "full-rewrite");
            var upload =
                    Probe.measure(() -> s3.upload(pristine, incrementalStorage) + s3.upload(pristine, fullStorage));
            ObjectNode setup = out.putObject("setup");
            setup.put("server", "Adobe S3Mock in process, loopback HTTP");
            setup.put("archiveCopiesUploaded", 2);
            setup.put("bytesUploadedNotMetered", upload.value());
            setup.put("uploadSeconds", upload.measurement().seconds());

            // The archive is opened before the measurement, as a long-running service holds it open between deltas.
            GeoParquetArchive archive = GeoParquetArchive.open(incrementalStorage);
            var inc = Probe.measure(
                    () -> StorageMeter.measure(() -> delta.applyIncrementally(archive, WriteMode.UPSERT)));
            OperationResult result = inc.value().result();
            StorageCost incCost = inc.value().cost();

            var full = Probe.measure(() -> StorageMeter.measure(() -> NaiveFullRewrite.inPlace(
                    fullStorage, delta, archive.schema(), archive.canonicalFooter(), WriterSettings.defaults())));
            NaiveFullRewrite.Result n = full.value().result();
            StorageCost fullCost = full.value().cost();

            ObjectNode approaches = out.putObject("approaches");
            ObjectNode incJson = cost(approaches.putObject("incremental"), inc.measurement(), incCost);
            incJson.put("partitionsTouched", result.partitionsTouched().size());
            ObjectNode fullJson = cost(approaches.putObject("fullRewrite"), full.measurement(), fullCost);
            fullJson.put("partitionsTouched", n.partitions());
            fullJson.put("filesRead", n.filesRead());
            fullJson.put("filesWritten", n.filesWritten());

            ObjectNode ratios = out.putObject("ratios");
            ratio(ratios, "requestsFullOverIncremental", fullCost.requests(), incCost.requests());
            ratio(ratios, "putsFullOverIncremental", fullCost.puts(), incCost.puts());
            ratio(ratios, "getsFullOverIncremental", fullCost.gets(), incCost.gets());
            ratio(ratios, "bytesUploadedFullOverIncremental", fullCost.bytesUploaded(), incCost.bytesUploaded());
            ratio(ratios, "bytesDownloadedFullOverIncremental", fullCost.bytesDownloaded(), incCost.bytesDownloaded());
            ratio(
                    ratios,
                    "bytesTransferredFullOverIncremental",
                    fullCost.bytesUploaded() + fullCost.bytesDownloaded(),
                    incCost.bytesUploaded() + incCost.bytesDownloaded());

            // Counted after both, unmetered: row counts from the footers a plain reader would read, the engine's own
            // verification of its archive, and an order-independent digest of every row with its cell on each side.
            long expected = prepared.archive().rows + delta.expectedNetRows();
            ObjectNode rec = out.putObject("reconciliation");
            rec.put("baselineRows", prepared.archive().rows);
            rec.put("netRowsExpected", delta.expectedNetRows());
            rec.put("netRowsReportedByEngine", result.netRows());
            rec.put("expectedAfter", expected);
            Digest afterInc = digest(incrementalStorage);
            Digest afterFull = digest(fullStorage);
            rec.put("afterIncrementalRowsRead", afterInc.rows());
            rec.put("afterFullRewriteRowsRead", afterFull.rows());
            rec.put("sameRowsAfterBoth", afterInc.equals(afterFull));
            VerificationReport report = new ArchiveVerifier(archive)
                    .verify(VerifyOptions.wholeArchive().expectingRows(expected));
            rec.put("engineVerificationConsistent", report.consistent());
            rec.put("fullRewriteRowsWrittenByRewrite", n.rowsWritten());
            rec.put(
                    "holds",
                    afterInc.rows() == expected
                            && afterFull.rows() == expected
                            && afterInc.equals(afterFull)
                            && n.rowsWritten() == expected
                            && result.netRows() == delta.expectedNetRows()
                            && report.consistent());
        } finally {
            Archives.deleteTree(work);
        }
        out.put("wallSeconds", (System.nanoTime() - t0) / 1e9);
    }

    private static ObjectNode cost(ObjectNode node, Probe.Measurement m, StorageCost cost) {
        node.put("wallSeconds", m.seconds());
        node.put("cpuSeconds", m.cpuSeconds());
        node.put("puts", cost.puts());
        node.put("gets", cost.gets());
        node.put("lists", cost.lists());
        node.put("deletes", cost.deletes());
        node.put("requests", cost.requests());
        node.put("bytesUploaded", cost.bytesUploaded());
        node.put("bytesDownloaded", cost.bytesDownloaded());
        node.put("objectsDeleted", cost.deleted().size());
        node.put(
                "objectsDeletedWithKnownAge",
                cost.deleted().stream().filter(d -> d.age() != null).count());
        cost.deleted().stream()
                .map(StorageCost.DeletedObject::age)
                .filter(Objects::nonNull)
                .min(Duration::compareTo)
                .ifPresent(age -> node.put("youngestDeletedObjectAgeSeconds", age.toMillis() / 1e3));
        return node;
    }

    private static void ratio(ObjectNode ratios, String name, long numerator, long denominator) {
        if (denominator == 0) {
            ratios.putNull(name);
        } else {
            ratios.put(name, (double) numerator / denominator);
        }
    }

    /** The rows a plain reader finds in the partition directories, and the sum of a 64-bit hash of each row and its cell. */
    private record Digest(long rows, long sum) {}

    private static Digest digest(ArchiveStorage storage) throws IOException {
        long rows = 0;
        long sum = 0;
        for (StoredObject partition : storage.list("")) {
            String cell = partition.directory() ? ArchiveLayout.cellOfPartitionDirectory(partition.name()) : null;
            if (cell == null) {
                continue;
            }
            for (StoredObject file : storage.list(partition.path())) {
                if (file.directory() || !file.name().endsWith(ArchiveLayout.DATA_FILE_SUFFIX)) {
                    continue;
                }
                try (GeoParquetFileReader reader = GeoParquetFileReader.open(
                        storage.openInputFile(file.path()), storage.describe() + "/" + file.path())) {
                    for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                        sum += rowHash(it.next(), cell);
                        rows++;
                    }
                }
            }
        }
        return new Digest(rows, sum);
    }

    private static long rowHash(Group row, String cell) {
        long h = fnv(0xcbf29ce484222325L, cell.getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < row.getType().getFieldCount(); i++) {
            h = mix(h ^ i);
            // A struct column (the covering bbox) is computed from the geometry, which is hashed itself.
            if (row.getFieldRepetitionCount(i) == 0 || !row.getType().getType(i).isPrimitive()) {
                continue;
            }
            h = switch (row.getType().getType(i).asPrimitiveType().getPrimitiveTypeName()) {
                case BINARY, FIXED_LEN_BYTE_ARRAY -> fnv(h, row.getBinary(i, 0).getBytes());
                case DOUBLE -> mix(h ^ Double.doubleToLongBits(row.getDouble(i, 0)));
                case FLOAT -> mix(h ^ Float.floatToIntBits(row.getFloat(i, 0)));
                case INT64 -> mix(h ^ row.getLong(i, 0));
                case INT32 -> mix(h ^ row.getInteger(i, 0));
                case BOOLEAN -> mix(h ^ (row.getBoolean(i, 0) ? 1 : 2));
                default -> throw new IllegalStateException("unexpected column type in " + row.getType());
            };
        }
        return mix(h);
    }

    private static long fnv(long h, byte[] bytes) {
        for (byte b : bytes) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        return h;
    }

    /** The finaliser of SplitMix64. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
