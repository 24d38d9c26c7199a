package dev.nifigeoparquet.archive.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.uber.h3core.H3Core;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.Problem;
import dev.nifigeoparquet.archive.verify.ProblemKind;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Polygon;

/**
 * An archive created before features crossing the antimeridian were unwrapped (its descriptor names the earlier
 * rule) may hold such a feature in the cell of its stored coordinates' planar centroid. Format section 6.1 says what
 * happens to it: verification reports it only when asked to check placement, and the next upsert of its key moves it.
 */
class EarlierKeyingRuleTest {

    @TempDir
    Path temp;

    @Test
    void aRowKeyedByTheEarlierRuleIsReportedByThePlacementCheckAndMovedByItsNextUpsert() throws Exception {
        Path root = temp.resolve("earlier");
        ParcelArchive parcels = ParcelArchive.create(root, 60);
        GeoParquetArchive created = parcels.archive;
        Polygon dateline = new GeometryFactory().createPolygon(new Coordinate[] {
            new Coordinate(179.999, 10),
            new Coordinate(-179.999, 10),
            new Coordinate(-179.999, 10.001),
            new Coordinate(179.999, 10.001),
            new Coordinate(179.999, 10)
        });
        H3Core h3 = H3Core.newInstance();
        String earlierCell =
                h3.latLngToCellAddress(10.0005, 0, ParcelArchive.RESOLUTION); // the planar centroid as stored
        String cell = created.keyer().cellOf(dateline, created.sourceCrs());
        assertEquals(h3.latLngToCellAddress(10.0005, 180, ParcelArchive.RESOLUTION), cell);
        assertNotEquals(earlierCell, cell);

        // What an earlier version left: the row in the earlier cell, committed, the key index naming that cell, and the
        // descriptor naming the earlier rule.
        Group row = parcel("dateline", 1.0, dateline);
        String name = ArchiveLayout.newDataFileName();
        Path file = root.resolve(ArchiveLayout.dataFile(earlierCell, name));
        ArchiveFixtures.writeFile(file, created.schema(), created.canonicalFooter(), List.of(row));
        new PartitionLog(created.storage(), earlierCell)
                .commit(PartitionCommit.empty(earlierCell)
                        .next(
                                "earlier",
                                OperationType.APPEND,
                                Instant.now(),
                                List.of(new DataFileEntry(name, 1, Files.size(file), Instant.now())),
                                List.of(name),
                                List.of(),
                                256));
        new KeyIndex(created).record(Map.of(ParcelArchive.keyOf(row), earlierCell), Map.of());
        Path descriptor = root.resolve(ArchiveLayout.DESCRIPTOR);
        Files.writeString(
                descriptor,
                Files.readString(descriptor)
                        .replace(ArchiveDescriptor.KEYING_RULE, ArchiveDescriptor.EARLIER_KEYING_RULE));
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        assertTrue(archive.descriptor().keyedByEarlierRule());

        assertTrue(new ArchiveVerifier(archive).verify().consistent(), "without the placement check nothing is keyed");
        VerificationReport placed = new ArchiveVerifier(archive)
                .verify(VerifyOptions.wholeArchive().checkingPlacement(VerifyOptions.Placement.ALL));
        assertEquals(1, placed.problems().size(), placed.problems().toString());
        Problem misplaced = placed.problems().get(0);
        assertEquals(ProblemKind.MISPLACED_ROW, misplaced.kind());
        assertEquals(ArchiveLayout.dataFile(earlierCell, name), misplaced.file());
        assertTrue(
                misplaced.message().startsWith("row 0 (key dateline): its geometry's centroid lies in cell " + cell),
                misplaced.message());

        // The next upsert of the key: keyed by the current rule, found in its old cell through the key index, moved.
        ParcelArchive.apply(
                archive, cell, WriteMode.UPSERT, List.of(DeltaRow.upsert(parcel("dateline", 2.0, dateline))));
        ParcelArchive reread = parcels;
        Map<String, String> cells = reread.readCells();
        assertEquals(cell, cells.get("dateline"), "DuckDB finds the feature in the cell of its unwrapped centroid");
        assertEquals(61, cells.size(), "and only there: " + reread.readAreas().get("dateline"));
        assertEquals(2.0, reread.readAreas().get("dateline"));
        VerificationReport after = new ArchiveVerifier(archive)
                .verify(VerifyOptions.wholeArchive().expectingRows(61).checkingPlacement(VerifyOptions.Placement.ALL));
        assertTrue(after.consistent(), after.problems().toString());
    }

    private static Group parcel(String id, double area, Polygon geometry) {
        Group row = new SimpleGroup(SyntheticParcels.schema());
        row.add(SyntheticParcels.KEY, id);
        row.add("land_use", "residential");
        row.add("area_m2", area);
        row.add(
                SyntheticParcels.VERSION,
                ChronoUnit.MICROS.between(Instant.EPOCH, ParcelArchive.BASE_TIME.plusSeconds((long) area)));
        row.add(SyntheticParcels.GEOMETRY, Binary.fromConstantByteArray(Wkb.write(geometry)));
        return row;
    }
}
