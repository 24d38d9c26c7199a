package dev.nifigeoparquet.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.TestFiles;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBWriter;

/**
 * {@code apply --unkeyable-rows}: a delta with rows that cannot be keyed (an empty polygon, NaN coordinates, POINT EMPTY
 * as Parquet writes it, a point off the globe) lets its good rows through and puts the others in a side file with their
 * reason, as RouteByH3Cell's failure relationship does. Without the option such a delta is still refused whole.
 */
class UnkeyableRowsCommandTest {

    private static final GeometryFactory FACTORY = new GeometryFactory();

    @TempDir
    Path temp;

    Path archive;
    List<Group> baseline;

    @BeforeEach
    void createArchive() throws Exception {
        archive = temp.resolve("parcels");
        Parcels.initKeyed(archive, temp, "--h3-resolution", 5);
        baseline = Parcels.generate(11, 0, 200);
        Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "append",
                        "--delta",
                        Parcels.write(temp.resolve("baseline.parquet"), SyntheticParcels.schema(), baseline),
                        "-q")
                .expect(0);
    }

    /** Three edits of existing parcels, two new parcels, and four rows no cell can be computed for. */
    private Path nightWithBadRows() throws Exception {
        List<Group> rows = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            rows.add(Parcels.deltaRow(baseline.get(i), 5000 + i, false));
        }
        for (Group parcel : Parcels.generate(12, 500, 502)) {
            rows.add(Parcels.deltaRow(parcel, 7000, false));
        }
        rows.add(withGeometry(
                Parcels.deltaRow(baseline.get(10), 1, false), new WKBWriter().write(FACTORY.createPolygon())));
        rows.add(withGeometry(
                Parcels.deltaRow(baseline.get(11), 2, false),
                new WKBWriter().write(FACTORY.createPolygon(new Coordinate[] {
                    new Coordinate(4.8, 45.7),
                    new Coordinate(Double.NaN, 45.8),
                    new Coordinate(4.9, 45.8),
                    new Coordinate(4.8, 45.7)
                }))));
        rows.add(withGeometry(Parcels.deltaRow(baseline.get(12), 3, false), pointEmptyAsParquetWritesIt()));
        rows.add(withGeometry(
                Parcels.deltaRow(baseline.get(13), 4, false),
                new WKBWriter().write(FACTORY.createPoint(new Coordinate(4.8, 95)))));
        return Parcels.write(temp.resolve("night.parquet"), NightlyDelta.schema(), rows);
    }

    @Test
    void goodRowsAreAppliedAndTheOthersSetAsideWithTheirReason() throws Exception {
        Path delta = nightWithBadRows();
        Path rejects = temp.resolve("rejects").resolve("night-unkeyable.parquet");
        Cli.Result result = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        delta,
                        "--delete-field",
                        NightlyDelta.DELETE_MARKER,
                        "--unkeyable-rows",
                        rejects)
                .expect(0);
        assertTrue(
                result.out().contains("inserted:           2") && result.out().contains("updated:            3"),
                result.out());
        assertTrue(result.out().contains("unkeyable:          4 rows, in " + rejects), result.out());
        assertTrue(
                result.err()
                        .contains("warning: 4 of 9 delta rows cannot be keyed and were not applied (EMPTY_GEOMETRY: 2, "
                                + "LATITUDE_OUT_OF_RANGE: 1, NON_FINITE_COORDINATE: 1)"),
                result.err());

        Map<String, Double> expected = new TreeMap<>();
        baseline.forEach(row -> expected.put(Parcels.key(row), row.getDouble("area_m2", 0)));
        for (int i = 0; i < 3; i++) {
            expected.put(Parcels.key(baseline.get(i)), 5000.0 + i);
        }
        Parcels.generate(12, 500, 502).forEach(row -> expected.put(Parcels.key(row), 7000.0));
        assertEquals(
                expected,
                Parcels.areas(archive),
                "the good rows applied, the unkeyable ones left the archive as it was");
        Cli.run("verify", "--archive", archive, "-q").expect(0);

        List<List<Object>> set = DuckDb.query(
                "SELECT parcel_id, h3_keying_error, delta_file, delta_row, area_m2 FROM read_parquet(?) "
                        + "ORDER BY delta_row",
                rejects.toString());
        assertEquals(4, set.size(), set.toString());
        assertEquals(
                List.of(
                        Parcels.key(baseline.get(10)),
                        Parcels.key(baseline.get(11)),
                        Parcels.key(baseline.get(12)),
                        Parcels.key(baseline.get(13))),
                set.stream().map(row -> row.get(0)).toList());
        assertTrue(((String) set.get(0).get(1)).startsWith("EMPTY_GEOMETRY: "), set.toString());
        assertTrue(((String) set.get(1).get(1)).startsWith("NON_FINITE_COORDINATE: "), set.toString());
        assertTrue(((String) set.get(2).get(1)).startsWith("EMPTY_GEOMETRY: "), set.toString());
        assertTrue(((String) set.get(3).get(1)).startsWith("LATITUDE_OUT_OF_RANGE: "), set.toString());
        assertEquals(delta.toString(), set.get(0).get(2));
        assertEquals(
                List.of(5L, 6L, 7L, 8L),
                set.stream().map(row -> ((Number) row.get(3)).longValue()).toList());
        assertEquals(1.0, ((Number) set.get(0).get(4)).doubleValue(), "the row as it came");
        assertTrue(DuckDb.footerEntries(rejects).containsKey("geo"), "GeoParquet readers see the geometry column");

        // Applying the same night again replays the good rows and writes the same side file.
        Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        delta,
                        "--delete-field",
                        NightlyDelta.DELETE_MARKER,
                        "--unkeyable-rows",
                        rejects,
                        "-q")
                .expect(0);
        assertEquals(expected, Parcels.areas(archive));
        assertEquals(
                4L,
                ((Number) DuckDb.query("SELECT count(*) FROM read_parquet(?)", rejects.toString())
                                .get(0)
                                .get(0))
                        .longValue());
    }

    @Test
    void withoutTheOptionOneBadRowStillRefusesTheWholeDelta() throws Exception {
        String before = TestFiles.treeDigest(archive);
        String reason = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        nightWithBadRows(),
                        "--delete-field",
                        NightlyDelta.DELETE_MARKER,
                        "-q")
                .expect(2)
                .reason();
        assertTrue(reason.contains("record 5 (key " + Parcels.key(baseline.get(10)) + "): EMPTY_GEOMETRY"), reason);
        assertTrue(reason.contains("record 6") && reason.contains("NON_FINITE_COORDINATE"), reason);
        assertEquals(before, TestFiles.treeDigest(archive), "nothing was written");
    }

    @Test
    void theSideFileMayNotReplaceADeltaNorLandInTheArchive() throws Exception {
        String before = TestFiles.treeDigest(archive);
        Path delta = nightWithBadRows();
        String overDelta = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        delta,
                        "--delete-field",
                        NightlyDelta.DELETE_MARKER,
                        "--unkeyable-rows",
                        delta,
                        "-q")
                .expect(2)
                .reason();
        assertTrue(overDelta.contains("is one of the deltas"), overDelta);
        String inArchive = Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        delta,
                        "--delete-field",
                        NightlyDelta.DELETE_MARKER,
                        "--unkeyable-rows",
                        archive.resolve("rejects.parquet"),
                        "-q")
                .expect(2)
                .reason();
        assertTrue(inArchive.contains("is inside the archive"), inArchive);
        assertEquals(before, TestFiles.treeDigest(archive), "nothing was written");
    }

    @Test
    void aDeltaWhoseRowsAllKeyLeavesAnEmptySideFile() throws Exception {
        Path rejects = temp.resolve("none.parquet");
        Path delta = Parcels.write(
                temp.resolve("clean.parquet"),
                NightlyDelta.schema(),
                List.of(Parcels.deltaRow(baseline.get(0), 1234, false)));
        Cli.run(
                        "apply",
                        "--archive",
                        archive,
                        "--mode",
                        "upsert",
                        "--delta",
                        delta,
                        "--delete-field",
                        NightlyDelta.DELETE_MARKER,
                        "--unkeyable-rows",
                        rejects,
                        "-q")
                .expect(0);
        assertEquals(
                0L,
                ((Number) DuckDb.query("SELECT count(*) FROM read_parquet(?)", rejects.toString())
                                .get(0)
                                .get(0))
                        .longValue());
    }

    private static Group withGeometry(Group row, byte[] wkb) {
        Group copy = new SimpleGroup(row.getType());
        for (int field = 0; field < row.getType().getFieldCount(); field++) {
            if (row.getType().getFieldName(field).equals(SyntheticParcels.GEOMETRY)) {
                copy.add(field, Binary.fromConstantByteArray(wkb));
            } else if (row.getFieldRepetitionCount(field) > 0) {
                switch (row.getType().getType(field).asPrimitiveType().getPrimitiveTypeName()) {
                    case BINARY -> copy.add(field, row.getBinary(field, 0));
                    case DOUBLE -> copy.add(field, row.getDouble(field, 0));
                    case INT64 -> copy.add(field, row.getLong(field, 0));
                    case BOOLEAN -> copy.add(field, row.getBoolean(field, 0));
                    default -> throw new IllegalStateException();
                }
            }
        }
        return copy;
    }

    /** POINT EMPTY in WKB, by the Parquet geospatial convention: a point whose coordinates are NaN. */
    private static byte[] pointEmptyAsParquetWritesIt() {
        return ByteBuffer.allocate(21)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put((byte) 1)
                .putInt(1)
                .putDouble(Double.NaN)
                .putDouble(Double.NaN)
                .array();
    }
}
