package dev.nifigeoparquet.archive.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionChange;
import dev.nifigeoparquet.archive.commit.RollingFileWriter;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompactorTest {

    private static final Instant START = Instant.parse("2026-01-05T10:00:00Z");
    private static final int FILES = 10;
    private static final int ROWS_PER_FILE = 37;

    @TempDir
    Path temp;

    @Test
    void tenSmallFilesBecomeOneFileIndistinguishableFromAnOriginallyWrittenOne() throws IOException {
        Path root = temp.resolve("archive");
        GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), new TestClock(START));
        long rows = GeneratedArchive.fill(archive, 0, 0, FILES, ROWS_PER_FILE);
        String cell = GeneratedArchive.cellOf(0);
        assertEquals(FILES, archive.partitionState(cell).files().size());

        Path before = temp.resolve("before");
        Files.createDirectories(before);
        for (String file : partitionFiles(root, cell)) {
            Files.copy(root.resolve(ArchiveLayout.dataFile(cell, file)), before.resolve(file));
        }

        Compactor compactor = new Compactor(archive);
        PartitionPlan plan = compactor.plan(cell);
        assertTrue(plan.qualifies(), plan.toString());
        assertEquals(1, plan.groups().size());
        PartitionCompaction result = compactor.execute(plan);

        assertEquals(FILES, result.filesBefore());
        assertEquals(1, result.filesAfter());
        assertEquals(rows, result.rows());
        assertEquals(rows, result.rowsRewritten());
        assertEquals(1, result.commits());
        assertNull(result.skipReason());
        assertEquals(plan.groups().get(0).bytes(), result.bytesRead());
        PartitionCommit state = archive.partitionState(cell);
        assertEquals(OperationType.COMPACT, state.operationType());
        assertEquals(1, state.files().size());
        assertEquals(result.bytesWritten(), state.files().get(0).bytes());
        assertEquals(List.of(state.files().get(0).name()), partitionFiles(root, cell), "superseded files deleted");

        Path output =
                root.resolve(ArchiveLayout.dataFile(cell, state.files().get(0).name()));
        assertEquals(rows, DuckDb.countRows(output));
        List<Long> idsInFileOrder = DuckDb.query(
                        "SELECT id FROM read_parquet(?, file_row_number = true) ORDER BY file_row_number",
                        output.toString())
                .stream()
                .map(row -> ((Number) row.get(0)).longValue())
                .toList();
        assertEquals(LongStream.range(0, rows).boxed().toList(), idsInFileOrder, "same keys, in their original order");
        // Every value, null and geometry byte of every row is what the small files held (copied column by column).
        String all =
                "SET enable_geoparquet_conversion = false; SELECT count(*) FROM (SELECT * FROM read_parquet(?, hive_partitioning = false) EXCEPT ALL"
                        + " SELECT * FROM read_parquet(?, hive_partitioning = false))";
        assertEquals(
                0L,
                ((Number) DuckDb.query(all, before + "/*.parquet", output.toString())
                                .get(0)
                                .get(0))
                        .longValue());
        assertEquals(
                0L,
                ((Number) DuckDb.query(all, output.toString(), before + "/*.parquet")
                                .get(0)
                                .get(0))
                        .longValue());

        Map<String, byte[]> footer = DuckDb.footerEntries(output);
        for (Map.Entry<String, String> canonical :
                archive.canonicalFooter().asMap().entrySet()) {
            assertArrayEquals(
                    canonical.getValue().getBytes(StandardCharsets.UTF_8),
                    footer.get(canonical.getKey()),
                    canonical.getKey() + " is canonical byte for byte");
        }
        assertArrayEquals(GeneratedArchive.GEO.getBytes(StandardCharsets.UTF_8), footer.get(FooterEntries.GEO));
        assertEquals(
                List.of(List.of(GeneratedArchive.CODEC.name())),
                DuckDb.query("SELECT DISTINCT compression FROM parquet_metadata(?)", output.toString()),
                "the descriptor's codec on every column chunk");
        List<Long> rowGroupRows = DuckDb.query(
                        "SELECT row_group_id, any_value(row_group_num_rows) FROM parquet_metadata(?) "
                                + "GROUP BY row_group_id ORDER BY row_group_id",
                        output.toString())
                .stream()
                .map(row -> ((Number) row.get(1)).longValue())
                .toList();
        List<Long> expectedGroups = new ArrayList<>();
        for (long left = rows; left > 0; left -= GeneratedArchive.ROW_GROUP_ROWS) {
            expectedGroups.add(Math.min(left, GeneratedArchive.ROW_GROUP_ROWS));
        }
        assertEquals(
                expectedGroups, rowGroupRows, "row groups of exactly rowGroupRowCount rows, the last one the rest");
        assertEquals(archive.schema(), ParquetRows.read(output).footer().schema(), "the archive's exact schema");

        PartitionCompaction replay = compactor.execute(plan);
        assertEquals(1, replay.replays(), "running the same compaction again is a replay");
        assertEquals(0, replay.commits());
        assertEquals(state, archive.partitionState(cell), "a replay changes nothing");
        assertFalse(compactor.plan(cell).qualifies(), "one file does not qualify again");
    }

    @Test
    void aFileReplacedInPlaceAfterThePlanIsCompactedAsItIsNow() throws IOException {
        Path root = temp.resolve("archive");
        GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), new TestClock(START));
        long rows = GeneratedArchive.fill(archive, 0, 0, 3, ROWS_PER_FILE);
        String cell = GeneratedArchive.cellOf(0);
        Compactor compactor =
                new Compactor(archive, CompactionOptions.archiveDefaults().withMinFiles(1));
        PartitionPlan plan = compactor.plan(cell);
        assertTrue(plan.qualifies(), plan.toString());

        // Between the plan and the compaction's commit, an upsert moves the first row out of the first file: the file
        // keeps its name (it is replaced in place) but holds one row and some bytes fewer.
        DataFileEntry first = archive.partitionState(cell).files().get(0);
        archive.committer().commit(cell, "move-out-0", OperationType.MOVE_OUT, (current, stager) -> {
            try (RollingFileWriter writer = new RollingFileWriter(
                            stager,
                            archive.schema(),
                            archive.canonicalFooter(),
                            archive.descriptor().writer())
                    .replacing(List.of(first.name()))) {
                for (Group row : GeneratedArchive.rows(0, 1, ROWS_PER_FILE - 1)) {
                    writer.write(row);
                }
                return new PartitionChange(writer.finish(), List.of(first.name()));
            }
        });
        assertEquals(
                List.of(first.name()),
                archive.partitionState(cell).files().stream()
                        .map(DataFileEntry::name)
                        .limit(1)
                        .toList());

        PartitionCompaction result = compactor.execute(plan);

        assertEquals(1, result.commits(), String.valueOf(result.skipReason()));
        assertEquals(rows - 1, result.rows());
        assertEquals(rows - 1, result.rowsRewritten(), "what was read is the files as they are now");
        Path output = root.resolve(ArchiveLayout.dataFile(
                cell, archive.partitionState(cell).files().get(0).name()));
        assertEquals(
                LongStream.range(1, rows).boxed().toList(),
                DuckDb.query("SELECT id FROM read_parquet(?) ORDER BY id", output.toString()).stream()
                        .map(row -> ((Number) row.get(0)).longValue())
                        .toList(),
                "every row but the one moved out, as an independent reader sees them");
    }

    @Test
    void smallFilesGiveTheirGeometryPagesAsTheyAreStoredAndTheRowsFillTheRowGroups() throws IOException {
        Path root = temp.resolve("archive");
        GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), new TestClock(START));
        // Files of 5 rows stay whole in row groups of 50: their plainly encoded pages are taken as they are.
        long rows = GeneratedArchive.fill(archive, 0, 0, 24, 5);
        String cell = GeneratedArchive.cellOf(0);
        Path before = temp.resolve("before");
        Files.createDirectories(before);
        for (String file : partitionFiles(root, cell)) {
            Files.copy(root.resolve(ArchiveLayout.dataFile(cell, file)), before.resolve(file));
        }

        PartitionCompaction result = new Compactor(archive).compact(cell);

        assertEquals(1, result.filesAfter());
        PartitionCommit state = archive.partitionState(cell);
        Path output =
                root.resolve(ArchiveLayout.dataFile(cell, state.files().get(0).name()));
        String all =
                "SET enable_geoparquet_conversion = false; SELECT count(*) FROM (SELECT * FROM read_parquet(?, hive_partitioning = false) EXCEPT ALL"
                        + " SELECT * FROM read_parquet(?, hive_partitioning = false))";
        for (List<String> pair : List.of(
                List.of(before + "/*.parquet", output.toString()), List.of(output.toString(), before + "/*.parquet"))) {
            assertEquals(
                    0L,
                    ((Number) DuckDb.query(all, pair.get(0), pair.get(1)).get(0).get(0)).longValue());
        }
        assertEquals(
                List.of(List.of(50L), List.of(50L), List.of(20L)),
                DuckDb.query(
                        "SELECT any_value(row_group_num_rows)::BIGINT FROM parquet_metadata(?) GROUP BY row_group_id"
                                + " ORDER BY row_group_id",
                        output.toString()),
                "row groups of the archive's row count, " + rows + " rows");
        String geometryBytes =
                "SELECT sum(total_compressed_size)::BIGINT FROM parquet_metadata(?) WHERE path_in_schema = 'geometry'";
        assertEquals(
                DuckDb.query(geometryBytes, before + "/*.parquet"),
                DuckDb.query(geometryBytes, output.toString()),
                "the geometry column is the small files' pages, byte for byte");
        assertArrayEquals(
                GeneratedArchive.GEO.getBytes(StandardCharsets.UTF_8),
                DuckDb.footerEntries(output).get(FooterEntries.GEO));
    }

    @Test
    void aPartitionAtTheFileCountThresholdWithoutSmallFilesIsUntouched() throws IOException {
        Path root = temp.resolve("archive");
        GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), new TestClock(START));
        GeneratedArchive.fill(archive, 0, 0, 8, ROWS_PER_FILE);
        String cell = GeneratedArchive.cellOf(0);
        PartitionCommit before = archive.partitionState(cell);
        long largest =
                before.files().stream().mapToLong(DataFileEntry::bytes).max().orElseThrow();
        Map<Path, Snapshot> files = snapshot(root.resolve(ArchiveLayout.partitionDirectory(cell)));

        // Target of three files: each file is a third of it, not "far below" (a quarter).
        Compactor compactor =
                new Compactor(archive, CompactionOptions.archiveDefaults().withTargetFileBytes(largest * 3));
        PartitionCompaction result = compactor.compact(cell);

        assertFalse(result.compacted());
        assertTrue(result.skipReason().contains("do not exceed 8"), result.skipReason());
        assertEquals(8, result.filesAfter());
        assertEquals(before, archive.partitionState(cell));
        assertEquals(files, snapshot(root.resolve(ArchiveLayout.partitionDirectory(cell))), "no file touched");

        GeneratedArchive.fill(archive, 0, 1000, 1, ROWS_PER_FILE);
        assertTrue(compactor.plan(cell).qualifies(), "nine files are more than eight");
    }

    @Test
    void filesYoungerThanTheMinimumAgeAreLeftAlone() throws IOException {
        Path root = temp.resolve("archive");
        TestClock clock = new TestClock(START);
        GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), clock);
        long oldRows = GeneratedArchive.fill(archive, 0, 0, FILES, ROWS_PER_FILE);
        clock.advance(Duration.ofHours(2));
        long youngRows = GeneratedArchive.fill(archive, 0, oldRows, 3, ROWS_PER_FILE);
        clock.advance(Duration.ofMinutes(30));
        String cell = GeneratedArchive.cellOf(0);
        List<String> young = archive.partitionState(cell).fileNames().subList(FILES, FILES + 3);

        Compactor oneHour =
                new Compactor(archive, CompactionOptions.archiveDefaults().withMinFileAge(Duration.ofHours(1)));
        PartitionPlan plan = oneHour.plan(cell);
        assertEquals(FILES, plan.eligibleFiles());
        assertEquals(FILES, plan.inputFiles(), "only the old files are planned");
        PartitionCompaction result = oneHour.execute(plan);

        PartitionCommit after = archive.partitionState(cell);
        assertEquals(1 + 3, result.filesAfter());
        assertEquals(young, after.fileNames().subList(1, 4), "young files kept, after the compacted one");
        assertEquals(oldRows + youngRows, after.rowCount());
        assertEquals(
                oldRows + youngRows,
                DuckDb.countRows(
                        root.resolve(ArchiveLayout.partitionDirectory(cell)).resolve("*.parquet")));

        Compactor threeHours =
                new Compactor(archive, CompactionOptions.archiveDefaults().withMinFileAge(Duration.ofHours(3)));
        GeneratedArchive.fill(archive, 0, 5000, 9, ROWS_PER_FILE);
        PartitionPlan none = threeHours.plan(cell);
        assertFalse(none.qualifies(), "every file is younger than three hours");
        assertEquals(0, none.eligibleFiles());
        assertTrue(none.skipReason().contains("younger than PT3H"), none.skipReason());
    }

    @Test
    void aSmallTargetPacksConsecutiveFilesIntoSeveralOutputs() throws IOException {
        Path root = temp.resolve("archive");
        GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), new TestClock(START));
        long rows = GeneratedArchive.fill(archive, 0, 0, FILES, ROWS_PER_FILE);
        String cell = GeneratedArchive.cellOf(0);
        PartitionCommit before = archive.partitionState(cell);
        long largest =
                before.files().stream().mapToLong(DataFileEntry::bytes).max().orElseThrow();

        Compactor compactor = new Compactor(
                archive, CompactionOptions.archiveDefaults().withTargetFileBytes(largest * 3 + largest / 2));
        PartitionPlan plan = compactor.plan(cell);
        assertEquals(
                List.of(3, 3, 3),
                plan.groups().stream().map(group -> group.files().size()).toList(),
                "three groups of three consecutive files; the tenth alone is not worth rewriting");
        assertEquals(before.fileNames().subList(0, 3), plan.groups().get(0).fileNames());
        PartitionCompaction result = compactor.execute(plan);

        assertEquals(3, result.commits());
        PartitionCommit after = archive.partitionState(cell);
        assertEquals(4, after.files().size());
        assertEquals(before.fileNames().get(9), after.fileNames().get(3), "the last file is untouched and still last");
        assertEquals(rows, after.rowCount());
        List<Long> ids = new ArrayList<>();
        for (String name : after.fileNames()) {
            Path file = root.resolve(ArchiveLayout.dataFile(cell, name));
            DuckDb.query(
                            "SELECT id FROM read_parquet(?, file_row_number = true) ORDER BY file_row_number",
                            file.toString())
                    .forEach(row -> ids.add(((Number) row.get(0)).longValue()));
        }
        assertEquals(
                LongStream.range(0, rows).boxed().toList(), ids, "rows keep their order across the partition's files");
    }

    @Test
    void aSweepTouchesOnlyQualifyingPartitions() throws IOException {
        Path root = temp.resolve("archive");
        GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), new TestClock(START));
        long rows = GeneratedArchive.fill(archive, 0, 0, FILES, ROWS_PER_FILE);
        GeneratedArchive.fill(archive, 1, 10_000, 1, ROWS_PER_FILE);
        GeneratedArchive.fill(archive, 2, 20_000, 8, ROWS_PER_FILE);
        String qualifying = GeneratedArchive.cellOf(0);
        List<String> others = List.of(GeneratedArchive.cellOf(1), GeneratedArchive.cellOf(2));
        assertEquals(3, archive.partitionCells().size());

        Map<Path, Snapshot> before = new HashMap<>();
        for (String cell : others) {
            for (Path directory : List.of(
                    root.resolve(ArchiveLayout.partitionDirectory(cell)),
                    root.resolve(ArchiveLayout.logDirectory(cell)),
                    root.resolve(ArchiveLayout.stagingDirectory(cell)))) {
                backdate(directory);
                before.putAll(snapshot(directory));
            }
        }

        // Small means under 134 bytes here, which none of these files is: only the file count qualifies.
        SweepResult sweep =
                new Compactor(archive, CompactionOptions.archiveDefaults().withSmallFileFraction(1e-6)).sweep();

        assertEquals(3, sweep.partitions().size());
        assertEquals(
                List.of(qualifying),
                sweep.compacted().stream().map(PartitionCompaction::cell).toList());
        assertTrue(sweep.failed().isEmpty());
        for (PartitionCompaction partition : sweep.partitions()) {
            if (!partition.compacted()) {
                assertTrue(others.contains(partition.cell()));
                assertTrue(partition.skipReason() != null
                        && !partition.skipReason().isBlank());
            }
        }
        assertEquals(1, archive.partitionState(qualifying).files().size());
        assertEquals(rows, archive.partitionState(qualifying).rowCount());
        assertEquals(1, sweep.toJson().path("compacted").asInt());
        assertEquals(3, sweep.toJson().path("results").size());
        Map<Path, Snapshot> after = new HashMap<>();
        for (String cell : others) {
            after.putAll(snapshot(root.resolve(ArchiveLayout.partitionDirectory(cell))));
            after.putAll(snapshot(root.resolve(ArchiveLayout.logDirectory(cell))));
            after.putAll(snapshot(root.resolve(ArchiveLayout.stagingDirectory(cell))));
        }
        assertEquals(
                before,
                after,
                "every file of every other partition (data, log, staging) byte-identical, same modification time");
    }

    @Test
    void aSweepOfNamedPartitionsRunsOnTheWorkersAndReportsABadNameAsFailed() throws IOException {
        Path root = temp.resolve("archive");
        GeoParquetArchive archive = GeneratedArchive.create(new LocalArchiveStorage(root), new TestClock(START))
                .useThreads(2);
        long first = GeneratedArchive.fill(archive, 0, 0, FILES, ROWS_PER_FILE);
        long second = GeneratedArchive.fill(archive, 2, 20_000, FILES, ROWS_PER_FILE);
        GeneratedArchive.fill(archive, 1, 10_000, FILES, ROWS_PER_FILE);
        String unknown = "not-a-cell";
        List<String> named = List.of(GeneratedArchive.cellOf(2), unknown, GeneratedArchive.cellOf(0));

        Set<String> heard = ConcurrentHashMap.newKeySet();
        Set<Thread> threads = ConcurrentHashMap.newKeySet();
        SweepResult sweep = new Compactor(
                        archive, CompactionOptions.archiveDefaults().withSmallFileFraction(1e-6))
                .sweep(named, compaction -> {
                    heard.add(compaction.cell());
                    threads.add(Thread.currentThread());
                });

        assertEquals(
                named,
                sweep.partitions().stream().map(PartitionCompaction::cell).toList(),
                "in the order named");
        assertEquals(Set.copyOf(named), heard, "each partition heard of once it ended");
        assertTrue(threads.stream().noneMatch(thread -> thread == Thread.currentThread()), "compacted on the workers");
        assertEquals(
                List.of(GeneratedArchive.cellOf(2), GeneratedArchive.cellOf(0)),
                sweep.compacted().stream().map(PartitionCompaction::cell).toList());
        assertEquals(
                List.of(unknown),
                sweep.failed().stream().map(PartitionCompaction::cell).toList());
        assertEquals(
                1, archive.partitionState(GeneratedArchive.cellOf(0)).files().size());
        assertEquals(first, archive.partitionState(GeneratedArchive.cellOf(0)).rowCount());
        assertEquals(second, archive.partitionState(GeneratedArchive.cellOf(2)).rowCount());
        assertEquals(
                FILES,
                archive.partitionState(GeneratedArchive.cellOf(1)).files().size(),
                "a partition not named is left alone");
    }

    @Test
    void optionsByNameAndInvalidCombinationsFailNamingTheValues() {
        CompactionOptions options = CompactionOptions.fromMap(
                Map.of(CompactionOptions.MIN_FILES, "3", CompactionOptions.MIN_FILE_AGE_SECONDS, "60"));
        assertNotEquals(CompactionOptions.archiveDefaults(), options);
        IllegalArgumentException unknown =
                assertThrows(IllegalArgumentException.class, () -> CompactionOptions.fromMap(Map.of("max-files", "3")));
        assertTrue(unknown.getMessage().contains("max-files"), unknown.getMessage());
        IllegalArgumentException tooSmall =
                assertThrows(IllegalArgumentException.class, () -> new CompactionPolicy(8, 0.25, 2, Duration.ZERO));
        assertTrue(
                tooSmall.getMessage().contains("0.25") && tooSmall.getMessage().contains("2"), tooSmall.getMessage());
    }

    // --- helpers ---

    /** A file's content and modification time. */
    record Snapshot(String sha256, FileTime modified) {}

    static Map<Path, Snapshot> snapshot(Path directory) throws IOException {
        Map<Path, Snapshot> files = new HashMap<>();
        if (!Files.isDirectory(directory)) {
            return files;
        }
        try (Stream<Path> paths = Files.list(directory)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                files.put(path, new Snapshot(sha256(Files.readAllBytes(path)), Files.getLastModifiedTime(path)));
            }
        }
        return files;
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<String> partitionFiles(Path root, String cell) throws IOException {
        try (Stream<Path> files = Files.list(root.resolve(ArchiveLayout.partitionDirectory(cell)))) {
            return files.map(path -> path.getFileName().toString()).sorted().toList();
        }
    }

    /**
     * Gives every file of the directory a modification time long past, so that a rewrite shows in it whatever the file
     * system's timestamp granularity.
     */
    private static void backdate(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return;
        }
        try (Stream<Path> files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.setLastModifiedTime(file, FileTime.from(Instant.parse("2000-01-01T00:00:00Z")));
            }
        }
    }
}
