package dev.nifigeoparquet.archive.testing;

import java.nio.file.Path;
import java.sql.Blob;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * DuckDB (in-memory, through JDBC) as an independent Parquet reader for tests: it shares no code with
 * parquet-java, so what it reads back from our files is what other tools will see.
 */
public final class DuckDb {

    private DuckDb() {}

    /** Rows in one Parquet file (read alone, without Hive partition columns). */
    public static long countRows(Path file) {
        List<List<Object>> rows =
                query("SELECT count(*) FROM read_parquet(?, hive_partitioning = false)", file.toString());
        return ((Number) rows.get(0).get(0)).longValue();
    }

    /** Rows of a Hive-partitioned dataset (an archive's live files) at {@code root}, read through its layout. */
    public static long datasetRows(Path root) {
        return ((Number) query("SELECT count(*) FROM read_parquet(?, hive_partitioning = true)", root + "/*/*.parquet")
                        .get(0)
                        .get(0))
                .longValue();
    }

    /**
     * {@code key -> value} of two columns over a Hive-partitioned dataset at {@code root}, numbers as doubles; fails on a
     * key read twice, which an archive never holds.
     */
    public static Map<String, Double> datasetValues(Path root, String keyColumn, String valueColumn) {
        Map<String, Double> values = new TreeMap<>();
        for (List<Object> row : query(
                "SELECT " + keyColumn + ", " + valueColumn + " FROM read_parquet(?, hive_partitioning = true)",
                root + "/*/*.parquet")) {
            if (values.put((String) row.get(0), ((Number) row.get(1)).doubleValue()) != null) {
                throw new AssertionError("duplicate key " + row.get(0));
            }
        }
        return values;
    }

    /** Rows of the Parquet file {@code from} that {@code in} does not hold, each copy of a row counted (EXCEPT ALL). */
    public static long rowsNotIn(Path from, Path in) {
        return ((Number) query(
                                "SELECT count(*) FROM (SELECT * FROM read_parquet(?) EXCEPT ALL SELECT * FROM read_parquet(?))",
                                from.toString(),
                                in.toString())
                        .get(0)
                        .get(0))
                .longValue();
    }

    /** The footer key-value entries of one file as raw bytes, in the order DuckDB lists them. */
    public static Map<String, byte[]> footerEntries(Path file) {
        Map<String, byte[]> entries = new LinkedHashMap<>();
        for (List<Object> row : query("SELECT decode(key), value FROM parquet_kv_metadata(?)", file.toString())) {
            entries.put((String) row.get(0), (byte[]) row.get(1));
        }
        return entries;
    }

    /** BLOBs become byte arrays so callers compare plain values. */
    private static Object plain(Object value) throws SQLException {
        return value instanceof Blob blob ? blob.getBytes(1, Math.toIntExact(blob.length())) : value;
    }

    /**
     * Runs a query with positional parameters on a fresh in-memory database and returns every row.
     * BLOB values come back as {@code byte[]}. Set-up statements (such as {@code SET ...}) may precede the query, separated by {@code ;}.
     */
    public static List<List<Object>> query(String sql, Object... parameters) {
        try (Connection connection = DriverManager.getConnection("jdbc:duckdb:")) {
            // Limit 0 drops trailing empty strings: a final ';' leaves no empty statement to run.
            String[] statements = sql.split(";", 0);
            for (int i = 0; i < statements.length - 1; i++) {
                try (var statement = connection.createStatement()) {
                    statement.execute(statements[i]);
                }
            }
            try (PreparedStatement statement = connection.prepareStatement(statements[statements.length - 1])) {
                for (int i = 0; i < parameters.length; i++) {
                    statement.setObject(i + 1, parameters[i]);
                }
                try (ResultSet result = statement.executeQuery()) {
                    int columns = result.getMetaData().getColumnCount();
                    List<List<Object>> rows = new ArrayList<>();
                    while (result.next()) {
                        List<Object> row = new ArrayList<>(columns);
                        for (int c = 1; c <= columns; c++) {
                            row.add(plain(result.getObject(c)));
                        }
                        rows.add(row);
                    }
                    return rows;
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("DuckDB query failed: " + sql + ": " + e.getMessage(), e);
        }
    }
}
