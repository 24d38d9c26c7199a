package dev.nifigeoparquet.it;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Looks at an archive from outside NiFi: DuckDB reads it as any plain reader would (Hive partitioning, no knowledge of
 * our commit records), and the engine's verifier checks the archive's own rules (geo blocks, footers, commit counts,
 * key uniqueness).
 */
final class ArchiveChecks {

    private ArchiveChecks() {}

    /** A parcel as DuckDB reads it, with the cell its file's directory names. */
    record Parcel(String cell, String landUse, double area) {}

    /** Every parcel in the archive by key, read by DuckDB; a key stored twice fails. */
    static Map<String, Parcel> parcels(Path root) throws SQLException {
        Map<String, Parcel> parcels = new TreeMap<>();
        try (Connection duckdb = DriverManager.getConnection("jdbc:duckdb:");
                PreparedStatement query = duckdb.prepareStatement(
                        "SELECT parcel_id, h3_cell, land_use, area_m2 FROM read_parquet(?, hive_partitioning = true)")) {
            query.setString(1, root.resolve("h3_cell=*").resolve("*.parquet").toString());
            try (ResultSet rows = query.executeQuery()) {
                while (rows.next()) {
                    Parcel previous = parcels.put(
                            rows.getString(1), new Parcel(rows.getString(2), rows.getString(3), rows.getDouble(4)));
                    if (previous != null) {
                        throw new AssertionError("DuckDB reads parcel " + rows.getString(1) + " twice, in "
                                + previous.cell() + " and " + rows.getString(2));
                    }
                }
            }
        }
        return parcels;
    }

    /** The engine's verification of the whole archive, reconciled against {@code expectedRows}. */
    static VerificationReport verify(Path root, long expectedRows) throws IOException {
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        return new ArchiveVerifier(archive).verify(VerifyOptions.wholeArchive().expectingRows(expectedRows));
    }

    /** Every file under the root with the SHA-256 of its content: equal snapshots mean nothing was written. */
    static Map<String, String> snapshot(Path root) throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path file : paths.filter(Files::isRegularFile).toList()) {
                files.put(root.relativize(file).toString(), sha256(Files.readAllBytes(file)));
            }
        }
        return files;
    }

    private static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every Java runtime provides SHA-256", e);
        }
    }
}
