package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The version column guards a stored row wherever it is: a delta row older than the stored one is ignored even when
 * its geometry would move the key to another partition; a newer one moves it; an equal one wins (the tie rule).
 * DuckDB reads the result through the Hive layout.
 */
class VersionAcrossMovesTest {

    @TempDir
    Path temp;

    private ParcelArchive archive;
    private String from;
    private String to;
    private Group stored;

    @BeforeEach
    void createArchive() throws IOException {
        archive = ParcelArchive.create(temp.resolve("archive"), 200);
        List<String> cells = archive.largestCells(2);
        from = cells.get(0);
        to = cells.get(1);
        // The stored row carries a version in the middle: 2026-01-01 plus a day.
        Group first = archive.initial.get(from).get(0);
        stored = versioned(first, first, 10.0, BASE_TIME.plus(1, ChronoUnit.DAYS));
        ParcelArchive.apply(archive.archive, from, WriteMode.UPSERT, List.of(DeltaRow.upsert(stored)));
    }

    @Test
    void anOlderRowThatWouldMoveTheKeyIsIgnored() throws IOException {
        Group older = versioned(stored, archive.initial.get(to).get(0), 20.0, BASE_TIME.minus(2000, ChronoUnit.DAYS));
        OperationResult result =
                ParcelArchive.apply(archive.archive, to, WriteMode.UPSERT, List.of(DeltaRow.upsert(older)));

        assertEquals(1, result.olderVersionsSkipped());
        assertEquals(
                List.of(0L, 0L, 0L, 0L),
                List.of(result.inserted(), result.updated(), result.moved(), result.deleted()));
        assertEquals(List.of(List.of(from, 10.0)), storedRow(), "the newer row stays where it was");
        assertConsistent();
    }

    @Test
    void aNewerRowMovesTheKey() throws IOException {
        Group newer = versioned(stored, archive.initial.get(to).get(0), 30.0, BASE_TIME.plus(2, ChronoUnit.DAYS));
        OperationResult result =
                ParcelArchive.apply(archive.archive, to, WriteMode.UPSERT, List.of(DeltaRow.upsert(newer)));

        assertEquals(
                List.of(0L, 1L, 1L, 0L, 0L),
                List.of(
                        result.inserted(),
                        result.updated(),
                        result.moved(),
                        result.deleted(),
                        result.olderVersionsSkipped()));
        assertEquals(List.of(List.of(to, 30.0)), storedRow());
        assertConsistent();
    }

    @Test
    void anEqualVersionWinsAsItWouldWithoutAVersionColumn() throws IOException {
        Group same = versioned(stored, archive.initial.get(to).get(0), 40.0, BASE_TIME.plus(1, ChronoUnit.DAYS));
        ParcelArchive.apply(archive.archive, to, WriteMode.UPSERT, List.of(DeltaRow.upsert(same)));

        assertEquals(List.of(List.of(to, 40.0)), storedRow(), "a tie goes to the delta");
        assertConsistent();
    }

    @Test
    void anOlderRowInTheSamePartitionIsIgnoredToo() throws IOException {
        Group older = versioned(stored, stored, 50.0, BASE_TIME);
        OperationResult result =
                ParcelArchive.apply(archive.archive, from, WriteMode.UPSERT, List.of(DeltaRow.upsert(older)));

        assertEquals(1, result.olderVersionsSkipped());
        assertEquals(List.of(List.of(from, 10.0)), storedRow());
    }

    /** (h3_cell, area_m2) of every row holding the stored key, as DuckDB reads the directory. */
    private List<List<Object>> storedRow() {
        return DuckDb.query(
                "SELECT h3_cell, area_m2 FROM read_parquet(?, hive_partitioning = true) WHERE parcel_id = ?",
                archive.root + "/*/*.parquet",
                key(stored));
    }

    private void assertConsistent() throws IOException {
        VerificationReport report = new ArchiveVerifier(archive.archive).verify();
        assertTrue(report.consistent(), report.toString());
    }

    /** The row's key with another row's geometry (so its cell), an area and a version. */
    private static Group versioned(Group keyOf, Group geometryOf, double area, Instant version) {
        Group row = new SimpleGroup(SyntheticParcels.schema());
        row.add(SyntheticParcels.KEY, key(keyOf));
        row.add("land_use", keyOf.getString("land_use", 0));
        row.add("area_m2", area);
        row.add(SyntheticParcels.VERSION, ChronoUnit.MICROS.between(Instant.EPOCH, version));
        row.add(SyntheticParcels.GEOMETRY, geometryOf.getBinary(SyntheticParcels.GEOMETRY, 0));
        return row;
    }
}
