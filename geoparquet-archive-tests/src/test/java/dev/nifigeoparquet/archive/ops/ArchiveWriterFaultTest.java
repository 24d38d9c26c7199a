package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.edited;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.key;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.withNewKey;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionRecovery;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage;
import dev.nifigeoparquet.archive.testing.FaultPoints;
import dev.nifigeoparquet.archive.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every storage call of every write operation fails in turn, with each kind of fault. The archive then reads as
 * exactly the old or exactly the new state (rows and values, as DuckDB reads them), recovery leaves nothing
 * behind, and retrying the operation lands it exactly once.
 */
class ArchiveWriterFaultTest {

    /** Storage calls sampled per operation besides its commit points (the heavy profile runs them all). */
    private static final int SPREAD = 6;

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(WriteMode.class)
    void everyStorageCallOfAnOperationCanFail(WriteMode mode) throws IOException {
        ParcelArchive baseline = ParcelArchive.create(temp.resolve("baseline"), 60);
        String cell = baseline.largestCell();
        List<DeltaRow> delta = delta(baseline, cell, mode);
        Map<String, Double> oldState = baseline.readAreas();

        Path healthy = TestFiles.copyTree(baseline.root, temp.resolve("healthy"));
        FaultInjectingStorage counter = FaultInjectingStorage.counting(new LocalArchiveStorage(healthy));
        ParcelArchive.apply(GeoParquetArchive.open(counter), cell, mode, delta);
        Map<String, Double> newState = areas(healthy);
        assertTrue(!newState.equals(oldState), "the operation changes the archive");
        int calls = counter.callCount();

        List<FaultPoints.Point> points = FaultPoints.of(counter.calls(), SPREAD);
        for (FaultPoints.Point point : points) {
            Path root =
                    TestFiles.copyTree(baseline.root, temp.resolve(mode + "-" + point.fault() + "-" + point.failAt()));
            FaultInjectingStorage faulty =
                    new FaultInjectingStorage(new LocalArchiveStorage(root), point.failAt(), point.fault());
            try {
                ParcelArchive.apply(GeoParquetArchive.open(faulty), cell, mode, delta);
            } catch (IOException | RuntimeException expected) {
                // the injected fault
            }
            String where = mode + " " + point + " of " + calls;
            LocalArchiveStorage storage = new LocalArchiveStorage(root);
            PartitionCommit recovered = new PartitionRecovery(
                            storage,
                            GeoParquetArchive.open(storage).descriptor().protocol())
                    .recover(cell, Instant.now().plus(Duration.ofDays(1)))
                    .state();
            Map<String, Double> state = areas(root);
            assertTrue(state.equals(oldState) || state.equals(newState), where + ": neither old nor new state");
            long rowsInCell = state.equals(newState) ? count(root, cell) : baselineCount(baseline, cell);
            assertEquals(rowsInCell, recovered.rowCount(), where + ": commit state and files agree");
            assertEquals(
                    Set.copyOf(recovered.fileNames()),
                    TestFiles.names(root.resolve(ArchiveLayout.partitionDirectory(cell))),
                    where);
            assertTrue(
                    TestFiles.names(root.resolve(ArchiveLayout.stagingDirectory(cell)))
                            .isEmpty(),
                    where + ": staging left behind");

            ParcelArchive.apply(GeoParquetArchive.open(storage), cell, mode, delta);
            assertEquals(newState, areas(root), where + ": the retried operation lands exactly once");
        }
        System.out.println(mode + ": " + FaultPoints.describe(points, calls));
    }

    private static List<DeltaRow> delta(ParcelArchive archive, String cell, WriteMode mode) {
        List<Group> rows = archive.initial.get(cell);
        List<DeltaRow> delta = new ArrayList<>();
        switch (mode) {
            case APPEND -> delta.add(DeltaRow.upsert(withNewKey(rows.get(0), "appended")));
            case DELETE -> {
                Group key = new SimpleGroup(SyntheticParcels.schema());
                key.add(SyntheticParcels.KEY, key(rows.get(0)));
                delta.add(DeltaRow.deletion(key));
            }
            default -> {
                delta.add(DeltaRow.upsert(edited(rows.get(0), 123.0, BASE_TIME.plusSeconds(1))));
                delta.add(DeltaRow.upsert(withNewKey(rows.get(1), "inserted")));
            }
        }
        return delta;
    }

    private static Map<String, Double> areas(Path root) {
        return new ParcelArchiveView(root).areas();
    }

    private static long count(Path root, String cell) {
        return new ParcelArchiveView(root).count(cell);
    }

    private static long baselineCount(ParcelArchive archive, String cell) {
        return archive.initial.get(cell).size();
    }

    /** DuckDB's view of an archive directory. */
    private record ParcelArchiveView(Path root) {
        Map<String, Double> areas() {
            Map<String, Double> areas = new TreeMap<>();
            for (List<Object> row : DuckDb.query(
                    "SELECT parcel_id, area_m2 FROM read_parquet(?, hive_partitioning = true)",
                    root + "/*/*.parquet")) {
                if (areas.put((String) row.get(0), ((Number) row.get(1)).doubleValue()) != null) {
                    throw new AssertionError("duplicate key " + row.get(0) + " in " + root);
                }
            }
            return areas;
        }

        long count(String cell) {
            return ((Number) DuckDb.query(
                                    "SELECT count(*) FROM read_parquet(?, hive_partitioning = false)",
                                    root + "/h3_cell=" + cell + "/*.parquet")
                            .get(0)
                            .get(0))
                    .longValue();
        }
    }
}
