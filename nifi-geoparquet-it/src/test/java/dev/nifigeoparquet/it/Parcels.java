package dev.nifigeoparquet.it;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;

/**
 * Synthetic parcels (the engine's {@link SyntheticParcels}) laid out as a plain Hive-partitioned GeoParquet dataset,
 * {@code <root>/h3_cell=<cell>/part-<n>.parquet}, the way GeoPandas or DuckDB would write it, and deltas against it
 * in the formats the flows take in: GeoParquet files and JSON with WKT geometries.
 */
final class Parcels {

    static final int RESOLUTION = 5;
    static final Instant BASE_TIME = Instant.parse("2026-01-01T00:00:00Z");

    final Path root;
    /** The dataset's rows by cell, as written. */
    final Map<String, List<Group>> byCell;

    private Parcels(Path root, Map<String, List<Group>> byCell) {
        this.root = root;
        this.byCell = byCell;
    }

    /** Writes {@code count} parcels around one town, each cell's rows split over {@code filesPerCell} files. */
    static Parcels writeDataset(Path root, int count, int filesPerCell, long seed) throws IOException {
        SyntheticParcels parcels = new SyntheticParcels(seed, 1);
        Map<String, List<Group>> byCell = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            Group row = parcels.next("p-" + i, BASE_TIME);
            byCell.computeIfAbsent(cellOf(row), cell -> new ArrayList<>()).add(row);
        }
        for (Map.Entry<String, List<Group>> cell : byCell.entrySet()) {
            List<Group> rows = cell.getValue();
            int files = Math.min(filesPerCell, rows.size());
            for (int file = 0; file < files; file++) {
                List<Group> part = rows.subList(rows.size() * file / files, rows.size() * (file + 1) / files);
                ArchiveFixtures.writeFile(
                        root.resolve("h3_cell=" + cell.getKey()).resolve("part-" + file + ".parquet"),
                        SyntheticParcels.schema(),
                        SyntheticParcels.footer(),
                        part);
            }
        }
        return new Parcels(root, byCell);
    }

    long rows() {
        return byCell.values().stream().mapToLong(List::size).sum();
    }

    /** The cells with the most parcels first. */
    List<String> cellsBySize() {
        return byCell.entrySet().stream()
                .sorted((a, b) ->
                        Integer.compare(b.getValue().size(), a.getValue().size()))
                .map(Map.Entry::getKey)
                .toList();
    }

    /** A nightly delta of {@code size} rows: edits, new parcels, parcels moved into another cell, deletions. */
    NightlyDelta.Delta nightlyDelta(int size, Instant updatedAt) {
        return new NightlyDelta(7).generate(byCell, size, Parcels::cellOf, updatedAt);
    }

    /** Writes delta rows of {@link NightlyDelta#schema()} as a GeoParquet file, as an export from GeoPandas would. */
    static byte[] geoParquet(Path file, List<Group> rows) throws IOException {
        ArchiveFixtures.writeFile(file, NightlyDelta.schema(), SyntheticParcels.footer(), rows);
        return Files.readAllBytes(file);
    }

    /** A delta row of {@link NightlyDelta#schema()}: {@code from}'s key and area, with the values given. */
    static Group deltaRow(Group from, String landUse, byte[] geometry, Instant updatedAt, boolean deleted) {
        MessageType schema = NightlyDelta.schema();
        Group row = new SimpleGroup(schema);
        row.add(SyntheticParcels.KEY, key(from));
        row.add("land_use", landUse);
        row.add("area_m2", from.getDouble("area_m2", 0));
        row.add(SyntheticParcels.VERSION, ChronoUnit.MICROS.between(Instant.EPOCH, updatedAt));
        row.add(SyntheticParcels.GEOMETRY, Binary.fromConstantByteArray(geometry));
        row.add(NightlyDelta.DELETE_MARKER, deleted);
        return row;
    }

    /**
     * Parcels as a JSON array, geometry as WKT in a field named {@code wkt}, the version as ISO text: what an export
     * from a web service looks like. {@code ids} gives each row its key.
     */
    static byte[] json(List<Group> rows, List<String> ids) {
        ArrayNode array = NiFiApi.JSON.createArrayNode();
        for (int i = 0; i < rows.size(); i++) {
            Group row = rows.get(i);
            array.addObject()
                    .put(SyntheticParcels.KEY, ids.get(i))
                    .put("land_use", row.getString("land_use", 0))
                    .put("area_m2", row.getDouble("area_m2", 0))
                    .put(
                            SyntheticParcels.VERSION,
                            Instant.EPOCH
                                    .plus(row.getLong(SyntheticParcels.VERSION, 0), ChronoUnit.MICROS)
                                    .toString())
                    .put("wkt", geometry(row).toText());
        }
        return array.toString().getBytes(StandardCharsets.UTF_8);
    }

    static String key(Group row) {
        return row.getString(SyntheticParcels.KEY, 0);
    }

    static Geometry geometry(Group row) {
        try {
            return new WKBReader()
                    .read(row.getBinary(SyntheticParcels.GEOMETRY, 0).getBytes());
        } catch (ParseException e) {
            throw new IllegalStateException("A synthetic parcel's geometry is valid WKB", e);
        }
    }

    static byte[] wkb(Geometry geometry) {
        return Wkb.write(geometry);
    }

    /** The cell the engine keys a row to: its centroid's H3 cell at {@link #RESOLUTION}. */
    static String cellOf(Group row) {
        return new H3Keyer(RESOLUTION).cellOf(geometry(row), SourceCrs.CRS84);
    }
}
