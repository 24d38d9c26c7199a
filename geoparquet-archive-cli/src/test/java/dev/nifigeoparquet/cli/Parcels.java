package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.WKBReader;

/** Synthetic parcel files for the command tests, and what DuckDB reads back from an archive. */
final class Parcels {

    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    static final Instant T1 = Instant.parse("2026-01-02T00:00:00Z");

    private Parcels() {}

    static Path write(Path file, MessageType schema, List<Group> rows) throws IOException {
        Files.createDirectories(file.getParent());
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                schema,
                SyntheticParcels.footer(),
                WriterSettings.defaults())) {
            for (Group row : rows) {
                writer.write(row);
            }
            writer.finish();
        }
        return file;
    }

    /** A template with the parcel schema and canonical footer, holding one parcel. */
    static Path template(Path dir) throws IOException {
        return write(
                dir.resolve("template.parquet"),
                SyntheticParcels.schema(),
                List.of(new SyntheticParcels(1, 1).next("template", T0)));
    }

    /**
     * Creates a parcels archive keyed by parcel id from the template in {@code dir}, with the further {@code init}
     * options given, and requires exit 0.
     */
    static void initKeyed(Path archive, Path dir, Object... options) throws IOException {
        List<Object> args = new ArrayList<>(
                List.of("init", "--archive", archive, "--template", template(dir), "--key", SyntheticParcels.KEY));
        args.addAll(List.of(options));
        Cli.run(args.toArray()).expect(0);
    }

    /** Parcels p-from .. p-(to-1) around a few towns. */
    static List<Group> generate(long seed, int from, int to) {
        SyntheticParcels parcels = new SyntheticParcels(seed, 6);
        return IntStream.range(from, to)
                .mapToObj(i -> parcels.next("p-" + i, T0))
                .toList();
    }

    /** A row of the delta schema (with the delete marker). */
    static Group deltaRow(Group parcel, double area, boolean deleted) {
        Group row = new SimpleGroup(NightlyDelta.schema());
        row.add(SyntheticParcels.KEY, parcel.getString(SyntheticParcels.KEY, 0));
        row.add("land_use", parcel.getString("land_use", 0));
        row.add("area_m2", area);
        row.add(SyntheticParcels.VERSION, ChronoUnit.MICROS.between(Instant.EPOCH, T1));
        row.add(SyntheticParcels.GEOMETRY, parcel.getBinary(SyntheticParcels.GEOMETRY, 0));
        row.add(NightlyDelta.DELETE_MARKER, deleted);
        return row;
    }

    static String key(Group row) {
        return row.getString(SyntheticParcels.KEY, 0);
    }

    /** The parcel's geometry as a GeoJSON Polygon. */
    static String geoJsonGeometry(Group row) throws Exception {
        Geometry geometry =
                new WKBReader().read(row.getBinary(SyntheticParcels.GEOMETRY, 0).getBytes());
        StringBuilder ring = new StringBuilder();
        for (Coordinate c : geometry.getCoordinates()) {
            ring.append(ring.isEmpty() ? "" : ",")
                    .append('[')
                    .append(c.x)
                    .append(',')
                    .append(c.y)
                    .append(']');
        }
        return "{\"type\":\"Polygon\",\"coordinates\":[[" + ring + "]]}";
    }

    /** parcel_id -> area_m2 as DuckDB reads the archive through its Hive layout; fails on a duplicate key. */
    static Map<String, Double> areas(Path archive) {
        return DuckDb.datasetValues(archive, SyntheticParcels.KEY, "area_m2");
    }

    static long count(Path archive) {
        return DuckDb.datasetRows(archive);
    }
}
