package dev.nifigeoparquet.archive.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.FailureKind;
import dev.nifigeoparquet.archive.error.StorageTlsException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import java.io.EOFException;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import javax.net.ssl.SSLHandshakeException;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An archive on a store whose HTTPS certificate a private certificate authority signed (S3Mock's self-signed one): it
 * works with a trust manager that trusts that certificate, and fails, naming the endpoint, without.
 */
class S3TlsTest {

    private static final int RESOLUTION = 5;
    private static final Instant TIME = Instant.parse("2026-01-01T00:00:00Z");

    private S3MockServer server;
    private S3StorageSettings https;

    @BeforeEach
    void start() throws IOException {
        server = S3MockServer.get();
        https = server.settings(new S3Location(server.newBucket("tls"), "parcels"))
                .withEndpoint(server.httpsEndpoint());
    }

    @Test
    void anArchiveOnAPrivatelySignedEndpointIsCreatedWrittenAndReadWithItsTrustManager() throws IOException {
        S3StorageSettings trusting = https.withTls(server.trustManager(), null);
        String cell;
        List<Group> rows = new ArrayList<>();
        try (S3ArchiveStorage storage = S3ArchiveStorage.open(trusting)) {
            GeoParquetArchive archive = ArchiveCreator.create(
                    storage,
                    SyntheticParcels.archiveSpec(RESOLUTION, WriterSettings.defaults(), "over TLS"),
                    Clock.systemUTC());
            SyntheticParcels parcels = new SyntheticParcels(7, 1);
            Group first = parcels.next("p-0", TIME);
            cell = archive.keyer().cellOf(archive.geometryCodec().decode(first, 0), archive.sourceCrs());
            rows.add(first);
            for (int i = 1; rows.size() < 5 && i < 500; i++) {
                Group row = parcels.next("p-" + i, TIME);
                if (archive.keyer()
                        .cellOf(archive.geometryCodec().decode(row, 0), archive.sourceCrs())
                        .equals(cell)) {
                    rows.add(row);
                }
            }
            new ArchiveWriter(archive)
                    .apply(PartitionDelta.prepare(
                            archive,
                            cell,
                            WriteMode.APPEND,
                            rows.stream().map(DeltaRow::upsert).toList(),
                            null));
        }

        try (S3ArchiveStorage storage = S3ArchiveStorage.open(trusting)) {
            GeoParquetArchive reopened = GeoParquetArchive.open(storage);
            assertEquals(RESOLUTION, reopened.h3Resolution());
            PartitionCommit state = reopened.partitionState(cell);
            Set<String> read = new TreeSet<>();
            for (String name : state.fileNames()) {
                String path = ArchiveLayout.dataFile(cell, name);
                try (GeoParquetFileReader reader = GeoParquetFileReader.open(storage.openInputFile(path), path)) {
                    reader.rows().forEachRemaining(row -> read.add(row.getString(SyntheticParcels.KEY, 0)));
                }
            }
            assertEquals(
                    rows.stream()
                            .map(row -> row.getString(SyntheticParcels.KEY, 0))
                            .collect(Collectors.toCollection(TreeSet::new)),
                    read,
                    "the rows read back over TLS");
        }
    }

    @Test
    void withoutTheTrustManagerTheHandshakeFailsNamingTheEndpointAndAsksForAnOperator() throws IOException {
        try (S3ArchiveStorage storage = S3ArchiveStorage.open(https)) {
            StorageTlsException refused =
                    assertThrows(StorageTlsException.class, () -> GeoParquetArchive.exists(storage));
            assertTrue(refused.getMessage().contains(server.httpsEndpoint().toString()), refused.getMessage());
            assertInstanceOf(SSLHandshakeException.class, rootHandshake(refused), "the JDK's refusal is the cause");
            assertEquals(FailureKind.OPERATOR_ACTION, FailureKind.of(refused), "the same request fails again");
            assertTrue(FailureKind.adviceFor(refused).contains("SSL Context Service"), FailureKind.adviceFor(refused));
        }
    }

    @Test
    void aHandshakeCutShortByTheConnectionIsNotAConfigurationFailure() {
        SSLHandshakeException untrusted = new SSLHandshakeException("PKIX path building failed");
        assertTrue(S3ArchiveStorage.refusedHandshake(new IOException("request failed", untrusted)));

        SSLHandshakeException cut = new SSLHandshakeException("Remote host terminated the handshake");
        cut.initCause(new EOFException("SSL peer shut down incorrectly"));
        assertFalse(S3ArchiveStorage.refusedHandshake(new IOException("request failed", cut)));
        assertFalse(S3ArchiveStorage.refusedHandshake(new IOException("connection refused")));
    }

    private static Throwable rootHandshake(Throwable failure) {
        for (Throwable current = failure; current != null; current = current.getCause()) {
            if (current instanceof SSLHandshakeException) {
                return current;
            }
        }
        return null;
    }
}
