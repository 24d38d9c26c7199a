package dev.nifigeoparquet.archive.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;

/**
 * Memory grows with the delta and one row group, not with the partition: an upsert of 10,000 rows into a
 * 2,000,000-row partition under a 256 MiB heap. Heavy: run with {@code ./mvnw -Pheavy verify}, which sets -Xmx256m.
 */
@Tag("heavy")
class LargePartitionUpsertTest {

    private static final int PARTITION_ROWS = 2_000_000;
    private static final int APPEND_CHUNK = 50_000;
    private static final int DELTA_UPDATES = 5_000;
    private static final int DELTA_INSERTS = 5_000;
    private static final long HEAP_LIMIT = 256L << 20;

    @TempDir
    Path temp;

    @Test
    void upsertOfTenThousandRowsIntoTwoMillionRowPartitionFitsIn256MiB() throws IOException {
        long maxHeap = Runtime.getRuntime().maxMemory();
        assertTrue(
                maxHeap <= HEAP_LIMIT + (HEAP_LIMIT / 20),
                "this proof must run with -Xmx256m (the heavy profile sets it); max heap is " + maxHeap);

        ArchiveSpec spec = SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "synthetic parcels");
        GeoParquetArchive archive = ArchiveCreator.create(new LocalArchiveStorage(temp), spec, Clock.systemUTC());
        double lon = 5.0;
        double lat = 47.0;
        String cell = archive.keyer()
                .cellOf(new GeometryFactory().createPoint(new Coordinate(lon, lat)), archive.sourceCrs());
        SyntheticParcels parcels = new SyntheticParcels(7, 1);
        Random random = new Random(7);
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");

        double[][] firstPositions = new double[DELTA_UPDATES][];
        ArchiveWriter writer = new ArchiveWriter(archive);
        int written = 0;
        while (written < PARTITION_ROWS) {
            List<DeltaRow> chunk = new ArrayList<>(APPEND_CHUNK);
            while (chunk.size() < APPEND_CHUNK && written + chunk.size() < PARTITION_ROWS) {
                double x = lon + (random.nextDouble() - 0.5) * 0.05;
                double y = lat + (random.nextDouble() - 0.5) * 0.05;
                Group row = parcels.parcel("big-" + (written + chunk.size()), x, y, t0);
                if (!archive.keyer()
                        .cellOf(archive.geometryCodec().decode(row, 0), archive.sourceCrs())
                        .equals(cell)) {
                    continue;
                }
                if (written + chunk.size() < DELTA_UPDATES) {
                    firstPositions[written + chunk.size()] = new double[] {x, y};
                }
                chunk.add(DeltaRow.upsert(row));
            }
            writer.apply(PartitionDelta.prepare(archive, cell, WriteMode.APPEND, chunk, null));
            written += chunk.size();
        }
        assertEquals(PARTITION_ROWS, archive.partitionState(cell).rowCount());
        resetPeaks();

        List<DeltaRow> delta = new ArrayList<>();
        for (int i = 0; i < DELTA_UPDATES; i++) {
            delta.add(DeltaRow.upsert(
                    parcels.parcel("big-" + i, firstPositions[i][0], firstPositions[i][1], t0.plusSeconds(60))));
        }
        for (int i = 0; i < DELTA_INSERTS; i++) {
            delta.add(DeltaRow.upsert(
                    parcels.parcel("new-" + i, firstPositions[i][0], firstPositions[i][1], t0.plusSeconds(60))));
        }
        OperationResult result = writer.apply(PartitionDelta.prepare(archive, cell, WriteMode.UPSERT, delta, null));

        assertEquals(DELTA_UPDATES, result.updated());
        assertEquals(DELTA_INSERTS, result.inserted());
        assertEquals(PARTITION_ROWS + DELTA_INSERTS, result.rowsAfter());
        assertEquals(
                (long) PARTITION_ROWS + DELTA_INSERTS,
                ((Number) DuckDb.query(
                                        "SELECT count(*) FROM read_parquet(?, hive_partitioning = false)",
                                        temp + "/h3_cell=" + cell + "/*.parquet")
                                .get(0)
                                .get(0))
                        .longValue());
        System.out.printf(
                "upsert of %d rows into a %d-row partition: max heap %d MiB, peak heap used %d MiB, bytes read %d, written %d%n",
                delta.size(),
                PARTITION_ROWS,
                maxHeap >> 20,
                peakHeapUsed() >> 20,
                result.bytesRead(),
                result.bytesWritten());
    }

    private static void resetPeaks() {
        System.gc();
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
    }

    private static long peakHeapUsed() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak;
    }
}
