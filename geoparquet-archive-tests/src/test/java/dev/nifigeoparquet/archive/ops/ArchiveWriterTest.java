package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.edited;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.key;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.withNewKey;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Geometry;

/**
 * Write operations against an independent expectation: a plain map of parcel_id to area, kept beside the archive
 * and compared with what DuckDB reads back through the Hive layout.
 */
class ArchiveWriterTest {

    private static final int PARCELS = 3000;

    @TempDir
    Path temp;

    private ParcelArchive archive;
    private Map<String, Double> expected;

    @BeforeEach
    void createArchive() throws IOException {
        archive = ParcelArchive.create(temp.resolve("archive"), PARCELS);
        expected = new TreeMap<>();
        archive.initial
                .values()
                .forEach(rows -> rows.forEach(row -> expected.put(key(row), row.getDouble("area_m2", 0))));
        assertTrue(archive.initial.size() > 20, "the parcels spread over many partitions: " + archive.initial.size());
        assertEquals(expected, archive.readAreas(), "baseline as DuckDB reads it");
    }

    @Test
    void upsertRewritesOnlyItsPartitionAndTheDeltaWins() throws IOException {
        String cell = archive.largestCell();
        List<Group> existing = archive.initial.get(cell);
        Map<String, String> before = ParcelArchive.fingerprints(archive.root);

        List<Group> delta = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            Group row = existing.get(i * 3);
            delta.add(edited(row, 1000 + i, BASE_TIME.plusSeconds(60)));
            expected.put(key(row), 1000.0 + i);
        }
        for (int i = 0; i < 10; i++) {
            delta.add(withNewKey(existing.get(i), "new-" + i));
            expected.put("new-" + i, existing.get(i).getDouble("area_m2", 0));
        }
        OperationResult result = archive.apply(cell, WriteMode.UPSERT, delta);

        assertEquals(List.of(cell), result.partitionsTouched());
        assertEquals(20, result.updated());
        assertEquals(10, result.inserted());
        assertEquals(0, result.deleted());
        assertEquals(existing.size() - 20, result.unchanged());
        assertEquals(existing.size() + 10, result.rowsAfter());
        assertEquals(10, result.netRows(), "an upsert changes the count only by the net new keys");
        assertEquals(expected, archive.readAreas(), "the archive equals the independent computation");
        assertEquals(
                ParcelArchive.outside(before, cell),
                ParcelArchive.outside(ParcelArchive.fingerprints(archive.root), cell),
                "every file of every other partition is byte-identical with an unchanged modification time");
        assertCanonicalFooters(cell);
    }

    @Test
    void deleteByKeyCountsAbsentKeysAndUpsertHonoursDeleteMarkers() throws IOException {
        String cell = archive.largestCell();
        List<Group> existing = archive.initial.get(cell);
        List<DeltaRow> deletes = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            deletes.add(DeltaRow.deletion(keyOnly(key(existing.get(i)))));
            expected.remove(key(existing.get(i)));
        }
        deletes.add(DeltaRow.deletion(keyOnly("no-such-parcel")));
        OperationResult deleted = ParcelArchive.apply(archive.archive, cell, WriteMode.DELETE, deletes);
        assertEquals(5, deleted.deleted());
        assertEquals(1, deleted.absentKeysDeleted(), "a delete of an absent key is counted, not an error");
        assertEquals(-5, deleted.netRows());
        assertEquals(expected, archive.readAreas());

        List<DeltaRow> mixed = new ArrayList<>();
        mixed.add(DeltaRow.deletion(keyOnly(key(existing.get(10)))));
        expected.remove(key(existing.get(10)));
        mixed.add(DeltaRow.upsert(edited(existing.get(11), 7.5, BASE_TIME.plusSeconds(1))));
        expected.put(key(existing.get(11)), 7.5);
        OperationResult upsert = ParcelArchive.apply(archive.archive, cell, WriteMode.UPSERT, mixed);
        assertEquals(1, upsert.deleted());
        assertEquals(1, upsert.updated());
        assertEquals(expected, archive.readAreas());
    }

    @Test
    void replaceMakesTheDeltaTheWholePartition() throws IOException {
        String cell = archive.largestCell();
        List<Group> existing = archive.initial.get(cell);
        existing.forEach(row -> expected.remove(key(row)));
        List<Group> delta = List.of(edited(existing.get(0), 1, BASE_TIME), withNewKey(existing.get(1), "fresh"));
        delta.forEach(row -> expected.put(key(row), row.getDouble("area_m2", 0)));

        OperationResult result = archive.apply(cell, WriteMode.REPLACE, delta);
        assertEquals(2, result.rowsAfter());
        assertEquals(1, result.updated());
        assertEquals(1, result.inserted());
        assertEquals(existing.size() - 1, result.deleted());
        assertEquals(expected, archive.readAreas());
        assertEquals(List.of("fresh", key(existing.get(0))).stream().sorted().toList(), archive.keysOf(cell));
    }

    @Test
    void appendReconcilesBaselinePlusAppendedAndLeavesExistingFilesUntouched() throws IOException {
        long baseline = count();
        String cell = archive.largestCell();
        Map<String, String> before = ParcelArchive.fingerprints(archive.root);
        List<Group> delta = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            delta.add(withNewKey(archive.initial.get(cell).get(i % 5), "appended-" + i));
        }
        OperationResult result = archive.apply(cell, WriteMode.APPEND, delta);
        assertEquals(40, result.inserted());
        assertEquals(1, result.filesWritten());
        assertEquals(0, result.filesRemoved());
        assertEquals(baseline + 40, count(), "baseline + appended = after");
        Map<String, String> after = ParcelArchive.fingerprints(archive.root);
        before.forEach((file, print) -> assertEquals(print, after.get(file), "existing file untouched: " + file));
    }

    @Test
    void theSameDeltaTwiceIsANoOp() throws IOException {
        String cell = archive.largestCell();
        List<Group> delta = List.of(
                edited(archive.initial.get(cell).get(0), 5, BASE_TIME.plusSeconds(5)),
                withNewKey(archive.initial.get(cell).get(1), "once"));
        OperationResult first = archive.apply(cell, WriteMode.UPSERT, delta);
        Map<String, String> after = ParcelArchive.fingerprints(archive.root);
        OperationResult second = archive.apply(cell, WriteMode.UPSERT, delta);

        assertFalse(first.replay());
        assertTrue(second.replay());
        assertEquals(first.deltaId(), second.deltaId(), "the id is derived from the content, not from a delivery");
        assertEquals(0, second.inserted() + second.updated() + second.filesWritten());
        assertEquals(after, ParcelArchive.fingerprints(archive.root), "nothing written by the replay");
        assertEquals(PARCELS + 1, count());

        OperationResult appendTwice = archive.apply(
                cell,
                WriteMode.APPEND,
                List.of(withNewKey(archive.initial.get(cell).get(2), "appended-once")));
        assertTrue(archive.apply(
                        cell,
                        WriteMode.APPEND,
                        List.of(withNewKey(archive.initial.get(cell).get(2), "appended-once")))
                .replay());
        assertEquals(1, appendTwice.inserted());
        assertEquals(PARCELS + 2, count(), "a replayed append does not duplicate rows");
    }

    @Test
    void aBatchOfDeltasRewritesThePartitionOnceAndEachDeltaIsRecognisedAlone() throws IOException {
        String cell = archive.largestCell();
        List<Group> rows = archive.initial.get(cell);
        List<PartitionDelta> batch = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Group edited = edited(rows.get(i), 500 + i, BASE_TIME.plusSeconds(i + 1));
            expected.put(key(edited), 500.0 + i);
            batch.add(PartitionDelta.prepare(
                    archive.archive, cell, WriteMode.UPSERT, List.of(DeltaRow.upsert(edited)), null));
        }
        long versionBefore = archive.archive.partitionState(cell).version();
        OperationResult result = new ArchiveWriter(archive.archive).applyBatch(batch);
        assertEquals(3, result.updated());
        assertEquals(
                versionBefore + 1,
                archive.archive.partitionState(cell).version(),
                "one commit, one rewrite, for the batch");
        assertEquals(expected, archive.readAreas());

        OperationResult alone = new ArchiveWriter(archive.archive).apply(batch.get(1));
        assertTrue(alone.replay(), "a delta of the batch redelivered alone is a replay");

        Group fresh = withNewKey(rows.get(3), "after-batch");
        expected.put("after-batch", fresh.getDouble("area_m2", 0));
        PartitionDelta newDelta =
                PartitionDelta.prepare(archive.archive, cell, WriteMode.UPSERT, List.of(DeltaRow.upsert(fresh)), null);
        OperationResult mixed =
                new ArchiveWriter(archive.archive).applyBatch(List.of(batch.get(0), newDelta, batch.get(2)));
        assertEquals(1, mixed.inserted(), "only the delta not yet committed is applied");
        assertEquals(0, mixed.updated());
        assertEquals(expected, archive.readAreas());
        assertTrue(new ArchiveWriter(archive.archive).applyBatch(batch).replay());
    }

    @Test
    void anOlderVersionDoesNotOverwriteANewerRow() throws IOException {
        String cell = archive.largestCell();
        Group row = archive.initial.get(cell).get(0);
        archive.apply(cell, WriteMode.UPSERT, List.of(edited(row, 2.0, BASE_TIME.plusSeconds(3600))));
        OperationResult late =
                archive.apply(cell, WriteMode.UPSERT, List.of(edited(row, 1.0, BASE_TIME.plusSeconds(60))));
        assertEquals(1, late.olderVersionsSkipped());
        assertEquals(0, late.updated());
        assertEquals(2.0, archive.readAreas().get(key(row)), "the newer row stays");
        OperationResult sameVersion =
                archive.apply(cell, WriteMode.UPSERT, List.of(edited(row, 3.0, BASE_TIME.plusSeconds(3600))));
        assertEquals(1, sameVersion.updated(), "a version that is not older replaces");
    }

    @Test
    void duplicateKeysInOneDeltaLastWinsAndANullKeyIsRefused() throws IOException {
        String cell = archive.largestCell();
        Group row = archive.initial.get(cell).get(0);
        OperationResult result = archive.apply(
                cell,
                WriteMode.UPSERT,
                List.of(
                        edited(row, 1, BASE_TIME.plusSeconds(1)),
                        edited(row, 2, BASE_TIME.plusSeconds(1)),
                        edited(row, 3, BASE_TIME.plusSeconds(1))));
        assertEquals(2, result.duplicateKeysInDelta());
        assertEquals(1, result.updated());
        assertEquals(3.0, archive.readAreas().get(key(row)), "the last occurrence wins");

        Map<String, String> before = ParcelArchive.fingerprints(archive.root);
        Group nullKey = new SimpleGroup(SyntheticParcels.schema());
        DeltaRejectedException refused = assertThrows(
                DeltaRejectedException.class,
                () -> ParcelArchive.apply(archive.archive, cell, WriteMode.UPSERT, List.of(DeltaRow.upsert(nullKey))));
        assertTrue(
                refused.getMessage().contains("record 0")
                        && refused.getMessage().contains("null"),
                refused.getMessage());
        assertEquals(before, ParcelArchive.fingerprints(archive.root));
    }

    @Test
    void rowsAreReKeyedAndBadRowsRejectTheWholeDelta() throws IOException {
        List<String> cells = new ArrayList<>(archive.initial.keySet());
        String cell = cells.get(0);
        Group foreign = archive.initial.get(cells.get(1)).get(0);
        Map<String, String> before = ParcelArchive.fingerprints(archive.root);

        DeltaRejectedException wrongCell = assertThrows(
                DeltaRejectedException.class,
                () -> archive.apply(
                        cell,
                        WriteMode.UPSERT,
                        List.of(
                                edited(archive.initial.get(cell).get(0), 1, BASE_TIME),
                                edited(foreign, 1, BASE_TIME))));
        assertTrue(
                wrongCell.getMessage().contains("record 1 (key " + key(foreign) + ")")
                        && wrongCell.getMessage().contains(cells.get(1)),
                wrongCell.getMessage());

        Group point = edited(archive.initial.get(cell).get(0), 1, BASE_TIME);
        Group pointRow = new SimpleGroup(SyntheticParcels.schema());
        pointRow.add(SyntheticParcels.KEY, key(point));
        pointRow.add("area_m2", 1.0);
        pointRow.add(SyntheticParcels.VERSION, 0L);
        Geometry polygon = archive.archive.geometryCodec().decode(point, 0);
        pointRow.add(SyntheticParcels.GEOMETRY, Binary.fromConstantByteArray(Wkb.write(polygon.getCentroid())));
        DeltaRejectedException wrongType = assertThrows(
                DeltaRejectedException.class, () -> archive.apply(cell, WriteMode.UPSERT, List.of(pointRow)));
        assertTrue(
                wrongType.getMessage().contains("Point")
                        && wrongType.getMessage().contains("geometry_types"),
                wrongType.getMessage());

        Group badWkb = edited(archive.initial.get(cell).get(0), 1, BASE_TIME);
        Group truncated = new SimpleGroup(SyntheticParcels.schema());
        truncated.add(SyntheticParcels.KEY, key(badWkb));
        truncated.add("area_m2", 1.0);
        truncated.add(SyntheticParcels.VERSION, 0L);
        byte[] wkb = badWkb.getBinary(SyntheticParcels.GEOMETRY, 0).getBytes();
        truncated.add(SyntheticParcels.GEOMETRY, Binary.fromConstantByteArray(Arrays.copyOf(wkb, wkb.length / 2)));
        DeltaRejectedException invalid = assertThrows(
                DeltaRejectedException.class, () -> archive.apply(cell, WriteMode.UPSERT, List.of(truncated)));
        assertTrue(invalid.getMessage().contains("record 0"), invalid.getMessage());

        assertEquals(
                before,
                ParcelArchive.fingerprints(archive.root),
                "a rejected delta leaves the archive exactly as it was");
    }

    private void assertCanonicalFooters(String cell) throws IOException {
        byte[] canonical = archive.archive.canonicalFooter().geo().getBytes(StandardCharsets.UTF_8);
        PartitionCommit state = archive.archive.partitionState(cell);
        for (String file : state.fileNames()) {
            Path path = archive.root.resolve("h3_cell=" + cell).resolve(file);
            assertTrue(Files.exists(path));
            assertArrayEquals(canonical, DuckDb.footerEntries(path).get("geo"), "geo bytes of " + file);
        }
    }

    private long count() {
        return ((Number) DuckDb.query(
                                "SELECT count(*) FROM read_parquet(?, hive_partitioning = true)",
                                archive.root + "/*/*.parquet")
                        .get(0)
                        .get(0))
                .longValue();
    }

    private static Group keyOnly(String id) {
        Group row = new SimpleGroup(SyntheticParcels.schema());
        row.add(SyntheticParcels.KEY, id);
        return row;
    }
}
