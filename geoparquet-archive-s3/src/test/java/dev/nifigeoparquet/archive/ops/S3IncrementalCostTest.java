package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.edited;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.s3.S3Backend;
import dev.nifigeoparquet.archive.storage.StorageCost;
import dev.nifigeoparquet.archive.storage.StorageMeter;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenario 1 on S3, in requests and bytes: a nightly delta edits a few parcels of one partition. The incremental
 * upsert rewrites that partition only; a full rewrite writes every partition again. Both are measured with the
 * storage meter against S3Mock, and the numbers are printed for the benchmark report.
 */
class S3IncrementalCostTest {

    private static final int PARCELS = 200;

    @TempDir
    Path temp;

    @Test
    void anIncrementalUpsertCostsAFractionOfAFullRewrite() throws IOException {
        S3Backend s3 = S3Backend.get();
        ParcelArchive archive =
                ParcelArchive.create(s3, temp.resolve("incremental"), PARCELS, WriterSettings.defaults());
        String cell = archive.largestCell();
        List<Group> rows = archive.initial.get(cell);
        List<DeltaRow> delta = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            delta.add(DeltaRow.upsert(edited(rows.get(i), 1000.0 + i, BASE_TIME.plusSeconds(60))));
        }

        StorageMeter.Measured<OperationResult> incremental =
                StorageMeter.measure(() -> ParcelArchive.apply(archive.archive, cell, WriteMode.UPSERT, delta));
        assertEquals(3, incremental.result().updated());

        // The full rewrite: every partition written again into a fresh archive, as a pipeline without partition
        // updates does it (the same rows, the delta applied).
        StorageMeter.Measured<ParcelArchive> full = StorageMeter.measure(
                () -> ParcelArchive.create(s3, temp.resolve("full-rewrite"), PARCELS, WriterSettings.defaults()));

        StorageCost inc = incremental.cost();
        StorageCost all = full.cost();
        System.out.println("scenario 1 on S3 (" + PARCELS + " parcels, " + archive.initial.size()
                + " partitions, 3 rows edited in one):");
        System.out.println("  incremental upsert: " + inc);
        System.out.println("  full rewrite:       " + all);
        for (Map.Entry<String, Long> ratio : Map.of(
                        "requests",
                        ratioPercent(inc.requests(), all.requests()),
                        "bytes uploaded",
                        ratioPercent(inc.bytesUploaded(), all.bytesUploaded()))
                .entrySet()) {
            System.out.println("  incremental/full " + ratio.getKey() + ": " + ratio.getValue() + "%");
        }
        assertTrue(inc.puts() * 5 < all.puts(), "incremental PUTs " + inc.puts() + " vs full " + all.puts());
        assertTrue(
                inc.bytesUploaded() * 5 < all.bytesUploaded(),
                "incremental bytes " + inc.bytesUploaded() + " vs full " + all.bytesUploaded());
        assertEquals(
                1,
                inc.deleted().stream()
                        .filter(d -> d.path().endsWith(".parquet"))
                        .count(),
                "the superseded data file is the one data object deleted: " + inc.deleted());
        assertTrue(
                inc.deleted().stream()
                        .filter(d -> d.path().endsWith(".parquet"))
                        .allMatch(d -> d.age() != null),
                "its age is known from the recovery listing");
    }

    private static long ratioPercent(long part, long whole) {
        return whole == 0 ? 0 : Math.round(100.0 * part / whole);
    }
}
