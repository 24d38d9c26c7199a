package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.compaction.CompactionOptions;
import dev.nifigeoparquet.archive.compaction.Compactor;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plain reader polls {@code read_parquet('<root>/*}{@code /*.parquet')} with DuckDB while runs upsert every partition
 * again and again. Each partition holds one file, and every run rewrites every row of it with a new round number:
 * the reader must never fail, and must see every partition whole, with all its rows, each of one round.
 */
class PlainReaderDuringApplyTest {

    private static final int ROUNDS = 12;

    @TempDir
    Path temp;

    @Test
    void aReaderOfSingleFilePartitionsNeverFailsAndSeesEachPartitionOldOrNew() throws Exception {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("archive"), 1500);
        Map<String, Integer> rowsPerCell = new TreeMap<>();
        archive.initial.forEach((cell, rows) -> rowsPerCell.put(cell, rows.size()));
        assertTrue(rowsPerCell.size() >= 10, "enough partitions: " + rowsPerCell.size());

        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger reads = new AtomicInteger();
        List<String> failed = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        Thread reader = Thread.ofPlatform().start(() -> {
            while (writing.get()) {
                try {
                    Map<String, List<Long>> seen = new TreeMap<>();
                    for (List<Object> row : DuckDb.query(
                            "SELECT h3_cell, count(*), count(DISTINCT parcel_id), "
                                    + "min(floor(area_m2 / 1000000)), max(floor(area_m2 / 1000000)) "
                                    + "FROM read_parquet(?, hive_partitioning = true) GROUP BY h3_cell",
                            archive.root + "/*/*.parquet")) {
                        seen.put(
                                (String) row.get(0),
                                List.of(
                                        ((Number) row.get(1)).longValue(),
                                        ((Number) row.get(2)).longValue(),
                                        ((Number) row.get(3)).longValue(),
                                        ((Number) row.get(4)).longValue()));
                    }
                    reads.incrementAndGet();
                    if (!seen.keySet().equals(rowsPerCell.keySet())) {
                        wrong.add("partitions " + seen.keySet());
                    }
                    seen.forEach((cell, counts) -> {
                        long expected = rowsPerCell.getOrDefault(cell, -1);
                        if (counts.get(0) != expected
                                || counts.get(1) != expected
                                || !counts.get(2).equals(counts.get(3))) {
                            wrong.add(cell + ": " + counts + ", expected " + expected + " rows of one round");
                        }
                    });
                } catch (RuntimeException e) {
                    failed.add(String.valueOf(e.getMessage()));
                }
            }
        });

        try {
            for (int round = 1; round <= ROUNDS; round++) {
                List<List<PartitionDelta>> run = new ArrayList<>();
                for (Map.Entry<String, List<Group>> cell : archive.initial.entrySet()) {
                    List<DeltaRow> rows = new ArrayList<>();
                    int i = 0;
                    for (Group row : cell.getValue()) {
                        rows.add(DeltaRow.upsert(
                                ParcelArchive.edited(row, round * 1_000_000.0 + i++, BASE_TIME.plusSeconds(round))));
                    }
                    run.add(List.of(
                            PartitionDelta.prepare(archive.archive, cell.getKey(), WriteMode.UPSERT, rows, null)));
                }
                for (ArchiveWriter.BatchOutcome outcome : new ArchiveWriter(archive.archive).applyAll(run)) {
                    outcome.orThrow();
                }
            }
        } finally {
            writing.set(false);
            reader.join();
        }
        System.out.println(
                "plain reader during " + ROUNDS + " runs over " + rowsPerCell.size() + " single-file partitions: "
                        + reads.get() + " reads, " + failed.size() + " failed, " + wrong.size() + " wrong");
        assertTrue(reads.get() >= ROUNDS, "the reader polled throughout: " + reads.get());
        assertEquals(List.of(), failed, "no read failed");
        assertEquals(List.of(), wrong, "every read saw every partition whole, each of one round");
        for (String cell : rowsPerCell.keySet()) {
            assertEquals(
                    1,
                    archive.archive.partitionState(cell).files().size(),
                    "partition " + cell + " still holds one file");
        }
    }

    @Test
    void compactionMergesIntoTheFirstFilesName() throws Exception {
        ParcelArchive archive = ParcelArchive.create(temp.resolve("compacted"), 200);
        String cell = archive.largestCell();
        List<Group> rows = archive.initial.get(cell);
        for (int i = 0; i < 3; i++) {
            ParcelArchive.apply(
                    archive.archive,
                    cell,
                    WriteMode.APPEND,
                    List.of(DeltaRow.upsert(ParcelArchive.withNewKey(rows.get(0), "extra-" + i))));
        }
        List<String> before = archive.archive.partitionState(cell).fileNames();
        assertEquals(4, before.size());
        new Compactor(archive.archive, CompactionOptions.archiveDefaults().withMinFiles(1)).compact(cell);
        assertEquals(
                List.of(before.get(0)),
                archive.archive.partitionState(cell).fileNames(),
                "the merged file is published in place of the first, so a reader never finds that name missing");
        assertEquals(
                rows.size() + 3L,
                DuckDb.query("SELECT count(*) FROM read_parquet(?)", archive.root + "/h3_cell=" + cell + "/*.parquet")
                                        .get(0)
                                        .get(0)
                                instanceof Number n
                        ? n.longValue()
                        : -1);
    }
}
