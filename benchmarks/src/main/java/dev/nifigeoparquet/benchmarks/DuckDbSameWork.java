package dev.nifigeoparquet.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A skilled user's DuckDB script doing the engine's partition work, as the operations guide does it with pyarrow: for
 * each partition the delta touches (the cells its rows land in, and the cells that hold its keys now, so moved and
 * deleted keys' old partitions too), the partition's files anti-joined with the delta's keys, the partition's delta
 * rows added, written with ZSTD level 3, the archive's 100,000-row groups and the canonical {@code geo} bytes to a
 * temporary file, which is forced to disk and renamed into place before the old files go and the directory is
 * forced. The cells are found before the timed part, as the engine's key index knows them.
 */
final class DuckDbSameWork {

    private DuckDbSameWork() {}

    /**
     * The same work as its own process, as a user's script runs it: {@code <archive> <delta.parquet> <cell>...}. It
     * loads DuckDB, reads the canonical {@code geo} bytes from one of the archive's data files and rewrites the cells.
     */
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        Path deltaFile = Path.of(args[1]);
        Set<String> cells = new TreeSet<>(List.of(args).subList(2, args.length));
        try (DuckDb duck = new DuckDb()) {
            duck.execute("SET enable_geoparquet_conversion = false");
            String geo = duck.geoOfADataFile(root);
            if (geo == null) {
                throw new IllegalStateException("No geo block in " + root);
            }
            apply(duck, root, deltaFile, cells, geo);
        }
    }

    /** The partitions the delta touches: its rows' cells, and the cells that hold its keys in the archive. */
    static Set<String> touchedCells(DuckDb duck, Path archive, Path deltaFile) throws SQLException {
        Set<String> cells = new TreeSet<>();
        String delta = "read_parquet(" + DuckDb.literal(deltaFile) + ")";
        for (List<Object> row : duck.query("SELECT DISTINCT h3_cell FROM " + delta + " WHERE NOT is_delete"
                + " UNION SELECT DISTINCT a.h3_cell FROM read_parquet(" + DuckDb.glob(archive)
                + ", hive_partitioning = true, hive_types = {'h3_cell': VARCHAR}) a SEMI JOIN " + delta
                + " d USING (parcel_id)")) {
            cells.add((String) row.get(0));
        }
        return cells;
    }

    /** Rewrites each of {@code cells} under {@code root} with the delta applied; returns the data bytes written. */
    static long apply(DuckDb duck, Path root, Path deltaFile, Set<String> cells, String geo)
            throws SQLException, IOException {
        RowModel rows = RowModel.current();
        String delta = "read_parquet(" + DuckDb.literal(deltaFile) + ")";
        String options = " (FORMAT parquet, COMPRESSION zstd, COMPRESSION_LEVEL 3, ROW_GROUP_SIZE 100000,"
                + " KV_METADATA {geo: " + DuckDb.literal(geo) + "})";
        long written = 0;
        for (String cell : cells) {
            Path dir = root.resolve("h3_cell=" + cell);
            List<Path> old = dataFiles(dir);
            Files.createDirectories(dir);
            Path staged = dir.resolve(".staged-" + UUID.randomUUID() + ".parquet.tmp");
            StringBuilder sql = new StringBuilder("COPY (");
            if (!old.isEmpty()) {
                List<String> files = old.stream().map(DuckDb::literal).toList();
                sql.append("SELECT ")
                        .append(rows.columnList("a."))
                        .append(" FROM read_parquet([")
                        .append(String.join(", ", files))
                        .append("]) a ANTI JOIN ")
                        .append(delta)
                        .append(" d USING (parcel_id) UNION ALL ");
            }
            sql.append("SELECT ")
                    .append(rows.columnList(""))
                    .append(" FROM ")
                    .append(delta)
                    .append(" WHERE NOT is_delete AND h3_cell = ")
                    .append(DuckDb.literal(cell))
                    .append(") TO ")
                    .append(DuckDb.literal(staged))
                    .append(options);
            if (duck.update(sql.toString()) == 0) {
                Files.delete(staged);
            } else {
                Archives.force(staged);
                written += Files.size(staged);
                Files.move(
                        staged, dir.resolve("part-" + UUID.randomUUID() + ".parquet"), StandardCopyOption.ATOMIC_MOVE);
            }
            for (Path file : old) {
                Files.delete(file);
            }
            Archives.force(dir);
        }
        return written;
    }

    private static List<Path> dataFiles(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<Path> files = new ArrayList<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.filter(f -> f.getFileName().toString().endsWith(".parquet")).forEach(files::add);
        }
        return files;
    }
}
