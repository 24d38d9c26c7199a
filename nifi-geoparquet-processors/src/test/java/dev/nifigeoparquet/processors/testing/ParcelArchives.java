package dev.nifigeoparquet.processors.testing;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.SchemaConformer;
import dev.nifigeoparquet.archive.ops.SchemaHandling;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;

/** A generated parcel archive (SyntheticParcels) for the processor chain tests, and ways to look at it from outside. */
public final class ParcelArchives {

    public static final int RESOLUTION = 5;
    public static final Instant BASE_TIME = Instant.parse("2026-01-01T00:00:00Z");

    public final Path root;
    public final GeoParquetArchive archive;
    /** The rows written at creation, by cell. */
    public final Map<String, List<Group>> initial;

    private ParcelArchives(Path root, GeoParquetArchive archive, Map<String, List<Group>> initial) {
        this.root = root;
        this.archive = archive;
        this.initial = initial;
    }

    /**
     * Creates an archive of {@code count} parcels keyed by parcel_id, versioned by updated_at; each cell gets two
     * commits (the first half of its rows, then the rest), so a partition of more than one row holds two files.
     */
    public static ParcelArchives create(Path root, int count) throws IOException {
        return create(root, count, UnaryOperator.identity());
    }

    /** The same archive, its spec changed first by {@code adjust} (for example to type the geometry column natively). */
    public static ParcelArchives create(Path root, int count, UnaryOperator<ArchiveSpec> adjust) throws IOException {
        ArchiveSpec spec =
                adjust.apply(SyntheticParcels.archiveSpec(RESOLUTION, WriterSettings.defaults(), "synthetic parcels"));
        GeoParquetArchive archive = ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
        SyntheticParcels parcels = new SyntheticParcels(42, 6);
        Map<String, List<Group>> byCell = new TreeMap<>();
        for (int i = 0; i < count; i++) {
            Group row = parcels.next("p-" + i, BASE_TIME);
            String cell = archive.keyer().cellOf(archive.geometryCodec().decode(row, i), archive.sourceCrs());
            byCell.computeIfAbsent(cell, c -> new ArrayList<>()).add(row);
        }
        ArchiveWriter writer = new ArchiveWriter(archive);
        // The generator's rows in the archive's own schema (the spec may have typed a column differently).
        SchemaConformer conformer = SchemaConformer.of(
                archive.schema(), SyntheticParcels.schema(), SchemaHandling.STRICT, null, "synthetic parcels");
        for (Map.Entry<String, List<Group>> cell : byCell.entrySet()) {
            List<Group> rows = cell.getValue();
            int half = Math.max(1, rows.size() / 2);
            for (List<Group> part :
                    rows.size() > 1 ? List.of(rows.subList(0, half), rows.subList(half, rows.size())) : List.of(rows)) {
                writer.apply(PartitionDelta.prepare(
                        archive,
                        cell.getKey(),
                        WriteMode.APPEND,
                        part.stream().map(row -> conformer.conform(row, 0)).toList(),
                        null));
            }
        }
        return new ParcelArchives(root, archive, byCell);
    }

    /** The cells with the most rows first. */
    public List<String> cellsBySize() {
        return initial.entrySet().stream()
                .sorted((a, b) ->
                        Integer.compare(b.getValue().size(), a.getValue().size()))
                .map(Map.Entry::getKey)
                .toList();
    }

    /** Rows of the whole archive as DuckDB reads it through the Hive layout. */
    public long duckDbCount() {
        return DuckDb.datasetRows(root);
    }

    /** parcel_id -> area_m2 of the whole archive as DuckDB reads it; fails on a duplicate key. */
    public Map<String, Double> duckDbAreas() {
        return DuckDb.datasetValues(root, SyntheticParcels.KEY, "area_m2");
    }

    /** Every regular file under {@code dir}: relative path -> SHA-256 of its content. */
    public static Map<String, String> hashes(Path dir) throws IOException {
        Map<String, String> hashes = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                hashes.put(
                        dir.relativize(file).toString(),
                        HexFormat.of().formatHex(sha256().digest(Files.readAllBytes(file))));
            }
        }
        return hashes;
    }

    /** Every path (files and directories) under {@code dir}, relative. */
    public static List<String> paths(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            return paths.map(path -> dir.relativize(path).toString()).sorted().toList();
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
