package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.StorageBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;

/** A synthetic parcel archive for operation tests, with helpers that compute expectations independently. */
final class ParcelArchive {

    static final int RESOLUTION = 5;
    static final Instant BASE_TIME = Instant.parse("2026-01-01T00:00:00Z");

    final Path root;
    final GeoParquetArchive archive;
    final SyntheticParcels parcels = new SyntheticParcels(42, 12);
    /** The rows appended at creation, by partition. */
    Map<String, List<Group>> initial = Map.of();

    private ParcelArchive(Path root, GeoParquetArchive archive) {
        this.root = root;
        this.archive = archive;
    }

    /** Creates the archive and appends {@code count} parcels, partition by partition. */
    static ParcelArchive create(Path root, int count) throws IOException {
        return create(root, count, WriterSettings.defaults());
    }

    static ParcelArchive create(Path root, int count, WriterSettings writer) throws IOException {
        return create(StorageBackend.LOCAL, root, count, writer);
    }

    /** The same archive on another storage; {@code root} names it (see {@link StorageBackend}). */
    static ParcelArchive create(StorageBackend backend, Path root, int count, WriterSettings writer)
            throws IOException {
        ArchiveSpec spec = SyntheticParcels.archiveSpec(RESOLUTION, writer, "synthetic parcels");
        GeoParquetArchive archive = ArchiveCreator.create(backend.storage(root), spec, Clock.systemUTC());
        ParcelArchive parcels = new ParcelArchive(root, archive);
        List<Group> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(parcels.parcels.next("p-" + i, BASE_TIME));
        }
        parcels.initial = parcels.byCell(rows);
        for (Map.Entry<String, List<Group>> cell : parcels.initial.entrySet()) {
            parcels.apply(cell.getKey(), WriteMode.APPEND, cell.getValue());
        }
        return parcels;
    }

    /** The {@code count} partitions created with the most rows, largest first. */
    List<String> largestCells(int count) {
        return initial.entrySet().stream()
                .sorted((a, b) -> b.getValue().size() - a.getValue().size())
                .limit(count)
                .map(Map.Entry::getKey)
                .toList();
    }

    /** The partition created with the most rows. */
    String largestCell() {
        return initial.entrySet().stream()
                .max(Comparator.comparingInt(e -> e.getValue().size()))
                .orElseThrow()
                .getKey();
    }

    /** A copy of a row with a new area and version, the geometry unchanged (so the same cell). */
    static Group edited(Group row, double area, Instant updatedAt) {
        Group copy = new SimpleGroup(SyntheticParcels.schema());
        copy.add(SyntheticParcels.KEY, row.getString(SyntheticParcels.KEY, 0));
        copy.add("land_use", row.getString("land_use", 0));
        copy.add("area_m2", area);
        copy.add(SyntheticParcels.VERSION, ChronoUnit.MICROS.between(Instant.EPOCH, updatedAt));
        copy.add(SyntheticParcels.GEOMETRY, row.getBinary(SyntheticParcels.GEOMETRY, 0));
        return copy;
    }

    /** A new key with the geometry of an existing row (so it lands in that row's cell). */
    static Group withNewKey(Group row, String id) {
        Group copy = edited(row, row.getDouble("area_m2", 0), BASE_TIME);
        Group renamed = new SimpleGroup(SyntheticParcels.schema());
        renamed.add(SyntheticParcels.KEY, id);
        renamed.add("land_use", copy.getString("land_use", 0));
        renamed.add("area_m2", copy.getDouble("area_m2", 0));
        renamed.add(SyntheticParcels.VERSION, copy.getLong(SyntheticParcels.VERSION, 0));
        renamed.add(SyntheticParcels.GEOMETRY, copy.getBinary(SyntheticParcels.GEOMETRY, 0));
        return renamed;
    }

    /** The row with the geometry of another row, so it keys to that row's cell: a key that moves. */
    static Group movedTo(Group row, Group geometrySource) {
        Group moved = new SimpleGroup(SyntheticParcels.schema());
        moved.add(SyntheticParcels.KEY, key(row));
        moved.add("land_use", row.getString("land_use", 0));
        moved.add("area_m2", 77.0);
        moved.add(SyntheticParcels.VERSION, ChronoUnit.MICROS.between(Instant.EPOCH, BASE_TIME.plusSeconds(30)));
        moved.add(SyntheticParcels.GEOMETRY, geometrySource.getBinary(SyntheticParcels.GEOMETRY, 0));
        return moved;
    }

    static FeatureKey keyOf(Group row) {
        return new FeatureKey(List.of(key(row)));
    }

    static String key(Group row) {
        return row.getString(SyntheticParcels.KEY, 0);
    }

    Map<String, List<Group>> byCell(List<Group> rows) {
        GeometryCodec codec = archive.geometryCodec();
        Map<String, List<Group>> byCell = new TreeMap<>();
        for (Group row : rows) {
            String cell = archive.keyer().cellOf(codec.decode(row, 0), archive.sourceCrs());
            byCell.computeIfAbsent(cell, c -> new ArrayList<>()).add(row);
        }
        return byCell;
    }

    OperationResult apply(String cell, WriteMode mode, List<Group> rows) throws IOException {
        return apply(archive, cell, mode, rows.stream().map(DeltaRow::upsert).toList());
    }

    static OperationResult apply(GeoParquetArchive archive, String cell, WriteMode mode, List<DeltaRow> rows)
            throws IOException {
        return new ArchiveWriter(archive).apply(PartitionDelta.prepare(archive, cell, mode, rows, null));
    }

    /** parcel_id -> area_m2 of the whole archive, as DuckDB reads it through the Hive layout. */
    Map<String, Double> readAreas() {
        return DuckDb.datasetValues(root, SyntheticParcels.KEY, "area_m2");
    }

    /** parcel_id -> h3_cell as DuckDB derives it from the directory names. */
    Map<String, String> readCells() {
        Map<String, String> cells = new TreeMap<>();
        for (List<Object> row : DuckDb.query(
                "SELECT parcel_id, h3_cell FROM read_parquet(?, hive_partitioning = true)", root + "/*/*.parquet")) {
            cells.put((String) row.get(0), (String) row.get(1));
        }
        return cells;
    }

    /** Every data file of the archive: path -> SHA-256 and modification time, to prove files were not touched. */
    static Map<String, String> fingerprints(Path root) throws IOException {
        Map<String, String> prints = new TreeMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().endsWith(".parquet"))::iterator) {
                byte[] hash = MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file));
                prints.put(
                        root.relativize(file).toString(),
                        HexFormat.of().formatHex(hash) + "@"
                                + Files.getLastModifiedTime(file).toMillis());
            }
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        return prints;
    }

    static Map<String, String> outside(Map<String, String> prints, String cell) {
        return outside(prints, List.of(cell));
    }

    /** The fingerprints of files outside these partitions. */
    static Map<String, String> outside(Map<String, String> prints, Collection<String> cells) {
        Map<String, String> rest = new TreeMap<>(prints);
        rest.keySet().removeIf(path -> cells.stream().anyMatch(cell -> path.startsWith("h3_cell=" + cell + "/")));
        return rest;
    }

    /** The fingerprints of one partition's files. */
    static Map<String, String> inside(Map<String, String> prints, String cell) {
        Map<String, String> kept = new TreeMap<>(prints);
        kept.keySet().removeIf(path -> !path.startsWith("h3_cell=" + cell + "/"));
        return kept;
    }

    /** Rows of one partition as the engine holds them (via DuckDB over the partition directory). */
    List<String> keysOf(String cell) {
        List<String> keys = new ArrayList<>();
        for (List<Object> row : DuckDb.query(
                "SELECT parcel_id FROM read_parquet(?, hive_partitioning = false) ORDER BY parcel_id",
                root + "/h3_cell=" + cell + "/*.parquet")) {
            keys.add((String) row.get(0));
        }
        return keys;
    }
}
