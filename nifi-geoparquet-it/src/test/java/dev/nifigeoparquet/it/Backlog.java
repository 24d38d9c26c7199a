package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.synthetic.NightlyBacklog;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;

/**
 * Four nights of deltas against a {@link Parcels} dataset, named by their date ({@code night-20261201.parquet}), which
 * the flows take as the delta's sequence: a night over every cell, then {@link NightlyBacklog}'s three (updates,
 * new keys, deletions, re-inserts, moves that only converge applied with their sequences). What applying them in order
 * leaves is computed here from the rows alone (a later night's row or deletion of a key wins), and compared value for
 * value with what DuckDB reads from an archive.
 */
final class Backlog {

    /** The night's date in its file name is the delta's sequence: the flows' {@code delta.sequence} parameter. */
    static final String SEQUENCE_FROM_NAME = "${filename:substringAfter('night-'):substringBefore('.')}";

    /** A night's delta file. */
    record Night(String filename, List<Group> rows) {}

    private final Parcels dataset;
    private final List<Night> nights = new ArrayList<>();

    Backlog(Parcels dataset) {
        this.dataset = dataset;
        nights.add(new Night("night-20261130.parquet", broadNight(dataset)));
        NightlyBacklog backlog = NightlyBacklog.against(dataset.byCell, Parcels::cellOf, false);
        for (int night = 0; night < 3; night++) {
            nights.add(new Night("night-" + NightlyBacklog.sequence(night) + ".parquet", backlog.night(night)));
        }
    }

    /**
     * A night over every cell: a nightly delta's edits, new parcels, moves and deletions in a few cells, and one parcel
     * resurveyed in each other cell, so that a cluster's nodes share the cells between them.
     */
    private static List<Group> broadNight(Parcels dataset) {
        Instant time = Instant.parse("2026-11-30T02:00:00Z");
        List<Group> rows = new ArrayList<>(dataset.nightlyDelta(240, time).rows());
        Set<String> written = new HashSet<>();
        rows.forEach(row -> written.add(Parcels.key(row)));
        for (List<Group> cell : dataset.byCell.values()) {
            cell.stream()
                    .filter(row -> !written.contains(Parcels.key(row)))
                    .findFirst()
                    .ifPresent(row -> rows.add(
                            Parcels.deltaRow(row, "resurveyed", Parcels.wkb(Parcels.geometry(row)), time, false)));
        }
        return rows;
    }

    /** The nights, oldest first. */
    List<Night> nights() {
        return nights;
    }

    /** The dataset's rows by key, as {@link #rows} reads an archive. */
    Map<String, List<Object>> baseline() {
        Map<String, List<Object>> rows = new TreeMap<>();
        dataset.byCell.values().forEach(cell -> cell.forEach(row -> rows.put(Parcels.key(row), values(row))));
        return rows;
    }

    /** The rows the nights leave applied in order. */
    Map<String, List<Object>> inOrder() {
        return firstApplied(nights.size());
    }

    /** The rows the first {@code count} nights leave applied in order. */
    Map<String, List<Object>> firstApplied(int count) {
        Map<String, List<Object>> rows = baseline();
        for (Night night : nights.subList(0, count)) {
            for (Group row : night.rows()) {
                if (row.getFieldRepetitionCount(NightlyDelta.DELETE_MARKER) > 0
                        && row.getBoolean(NightlyDelta.DELETE_MARKER, 0)) {
                    rows.remove(Parcels.key(row));
                } else {
                    rows.put(Parcels.key(row), values(row));
                }
            }
        }
        return rows;
    }

    /**
     * The archive holds exactly the rows the nights leave in order, value for value, each key once; the verifier finds
     * it consistent and its commit counts reconcile with that many rows.
     */
    void requireAppliedInOrder(Path root) throws Exception {
        Map<String, List<Object>> expected = inOrder();
        Map<String, List<Object>> rows = rows(root);
        assertEquals(expected.keySet(), rows.keySet(), "the keys the nights leave in order");
        assertEquals(expected, rows, "the rows the nights leave in order");
        VerificationReport report = ArchiveChecks.verify(root, expected.size());
        assertTrue(report.consistent(), report.toString());
    }

    /** A row's values as {@link #rows} reads them: land use, area, version (microseconds), WKB (hex) and cell. */
    private static List<Object> values(Group row) {
        return Arrays.asList(
                row.getFieldRepetitionCount("land_use") == 0 ? null : row.getString("land_use", 0),
                row.getDouble("area_m2", 0),
                row.getLong(SyntheticParcels.VERSION, 0),
                HexFormat.of()
                        .withUpperCase()
                        .formatHex(row.getBinary(SyntheticParcels.GEOMETRY, 0).getBytes()),
                Parcels.cellOf(row));
    }

    /** Every row of the archive by key, as DuckDB reads it through the Hive layout; a key read twice fails. */
    static Map<String, List<Object>> rows(Path root) throws SQLException {
        Map<String, List<Object>> rows = new TreeMap<>();
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
                Statement settings = duckdb.createStatement();
                PreparedStatement query = duckdb.prepareStatement("SELECT parcel_id, land_use, area_m2,"
                        + " epoch_us(updated_at), hex(geometry), h3_cell"
                        + " FROM read_parquet(?, hive_partitioning = true)")) {
            // The geometry as the bytes stored, not as DuckDB's GEOMETRY type that a geo block makes of them.
            settings.execute("SET enable_geoparquet_conversion = false");
            query.setString(1, root.resolve("h3_cell=*").resolve("*.parquet").toString());
            try (ResultSet result = query.executeQuery()) {
                while (result.next()) {
                    List<Object> values = Arrays.asList(
                            result.getString(2),
                            result.getDouble(3),
                            result.getLong(4),
                            result.getString(5),
                            result.getString(6));
                    if (rows.put(result.getString(1), values) != null) {
                        throw new AssertionError("DuckDB reads " + result.getString(1) + " twice");
                    }
                }
            }
        }
        return rows;
    }
}
