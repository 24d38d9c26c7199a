package dev.nifigeoparquet.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** An in-memory DuckDB database (JDBC, in this process), the independent baseline and referee. */
final class DuckDb implements AutoCloseable {

    private final Connection connection;

    DuckDb() throws SQLException {
        this.connection = DriverManager.getConnection("jdbc:duckdb:");
    }

    void execute(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    /** Runs a statement that changes or writes rows ({@code COPY … TO} included); returns how many it did. */
    long update(String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            return statement.executeLargeUpdate(sql);
        }
    }

    List<List<Object>> query(String sql) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            List<List<Object>> rows = new ArrayList<>();
            while (result.next()) {
                List<Object> row = new ArrayList<>(columns);
                for (int c = 1; c <= columns; c++) {
                    Object value = result.getObject(c);
                    row.add(value instanceof Blob blob ? blob.getBytes(1, Math.toIntExact(blob.length())) : value);
                }
                rows.add(row);
            }
            return rows;
        }
    }

    long count(String sql) throws SQLException {
        return ((Number) query(sql).get(0).get(0)).longValue();
    }

    String version() throws SQLException {
        return (String) query("SELECT version()").get(0).get(0);
    }

    /** Rows of every data file of a Hive-partitioned directory, as a plain reader sees them. */
    long countRows(Path root) throws SQLException {
        return count("SELECT count(*) FROM read_parquet(" + glob(root) + ", hive_partitioning = true)");
    }

    /**
     * What an archive holds, as a plain reader sees it: its row count and the sum of every row's hash, its cell
     * included. Copies holding the same rows give the same digest whatever files hold them; a row lost, duplicated,
     * changed or in another partition changes it.
     */
    record Digest(long rows, String hashSum) {}

    Digest digest(Path root) throws SQLException {
        List<Object> row = query(
                        "SELECT count(*), sum(hash(" + RowModel.current().columnList("") + ", h3_cell)"
                                + "::HUGEINT)::VARCHAR FROM read_parquet(" + glob(root)
                                + ", hive_partitioning = true, hive_types = {'h3_cell': VARCHAR})")
                .get(0);
        return new Digest(((Number) row.get(0)).longValue(), (String) row.get(1));
    }

    /** The {@code <root>/*}{@code /*.parquet} glob as a SQL string literal. */
    static String glob(Path root) {
        return literal(root.toAbsolutePath() + "/*/*.parquet");
    }

    static String literal(Path path) {
        return literal(path.toAbsolutePath().toString());
    }

    static String literal(String text) {
        return "'" + text.replace("'", "''") + "'";
    }

    /** The raw value of one footer key of a file, or null. */
    byte[] footerValue(Path file, String key) throws SQLException {
        for (List<Object> row : query("SELECT decode(key), value FROM parquet_kv_metadata(" + literal(file) + ")")) {
            if (key.equals(row.get(0))) {
                return (byte[]) row.get(1);
            }
        }
        return null;
    }

    /** The {@code geo} entry of one data file ({@code h3_cell=<cell>/*.parquet}) under {@code root}, or null. */
    String geoOfADataFile(Path root) throws IOException, SQLException {
        Path sample;
        try (Stream<Path> files = Files.walk(root)) {
            sample = files.filter(f -> f.getFileName().toString().endsWith(".parquet"))
                    .filter(f -> f.getParent().getFileName().toString().startsWith("h3_cell="))
                    .findFirst()
                    .orElseThrow(() -> new IOException("No data file under " + root));
        }
        byte[] geo = footerValue(sample, "geo");
        return geo == null ? null : new String(geo, StandardCharsets.UTF_8);
    }

    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
