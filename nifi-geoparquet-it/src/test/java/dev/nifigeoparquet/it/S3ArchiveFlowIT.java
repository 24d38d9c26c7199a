package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.s3.S3Location;
import dev.nifigeoparquet.archive.s3.S3MockServer;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code templates/incremental-upsert.json} on an archive in an S3-compatible store (S3Mock, in the test JVM), its
 * credentials from an AWS Credentials Provider Service: the bundle's relocated AWS SDK and the parent NAR's, which the
 * credentials service hands its credentials out in, meet in a real NiFi's class loaders. The archive is then
 * downloaded and read by DuckDB.
 */
@ExtendWith(NiFiExtension.class)
class S3ArchiveFlowIT {

    static final String ARCHIVE_SERVICE = "GeoParquet archive";
    static final String CREDENTIALS_SERVICE_TYPE = "dev.nifigeoparquet.it.aws.FixedAwsCredentialsProviderService";
    static final String ACCESS_KEY_ID = "it-access-key";

    @Test
    void aNightIsAppliedToAnArchiveOnS3SignedWithTheCredentialsServicesKeys(RunningNiFi nifi, @TempDir Path dir)
            throws Exception {
        S3MockServer s3 = S3MockServer.get();
        S3Client client = s3.client();
        String bucket = s3.newBucket("nifi-it");
        Parcels parcels = Parcels.writeDataset(dir.resolve("dataset"), 600, 1, 23);
        s3.upload(dir.resolve("dataset"), new S3Location(bucket, "parcels"));
        String root = "s3://" + bucket + "/parcels";

        FileIntake intake = FileIntake.under(dir);
        Path reports = dir.resolve("reports");
        FlowGroup flow =
                FlowGroup.upload(nifi.api(), NiFiRuntimeIT.flowDefinition("incremental-upsert.json"), "upsert on S3");
        Map<String, String> parameters = new HashMap<>(intake.parameters());
        parameters.put("archive.storage", "Amazon S3 or S3-Compatible Store");
        parameters.put("archive.root", root);
        parameters.put("archive.allowed.roots", "s3://" + bucket);
        parameters.put("archive.key.columns", SyntheticParcels.KEY);
        parameters.put("h3.resolution", String.valueOf(Parcels.RESOLUTION));
        parameters.put("s3.endpoint", s3.endpoint().toString());
        parameters.put("s3.region", "us-east-1");
        parameters.put("s3.storage.class", "STANDARD");
        parameters.put("s3.authentication.strategy", "AWS Credentials Provider Service");
        parameters.put("delta.geometry.field", SyntheticParcels.GEOMETRY);
        parameters.put("delta.delete.marker", NightlyDelta.DELETE_MARKER);
        parameters.put("quarantine.directory", dir.resolve("quarantine").toString());
        parameters.put("reports.directory", reports.toString());
        flow.setParameters(parameters);
        String credentials = flow.addServiceBeside(
                ARCHIVE_SERVICE,
                CREDENTIALS_SERVICE_TYPE,
                List.of(
                        "dev.nifigeoparquet.it",
                        "nifi-geoparquet-it-aws-nar",
                        NiFiExtension.required("project.version")),
                "AWS credentials",
                Map.of("Access Key ID", ACCESS_KEY_ID, "Secret Access Key", "it-secret-key"));
        flow.setServiceProperties(ARCHIVE_SERVICE, Map.of("AWS Credentials Provider Service", credentials));
        intake.prepare(flow);
        flow.enableServices();
        flow.start(IncrementalUpsertFlowIT.ALL.toArray(String[]::new));
        flow.startPorts();
        try {
            NightlyDelta.Delta delta = parcels.nightlyDelta(150, Instant.parse("2026-02-01T00:00:00Z"));
            intake.drop("s3-night.parquet", Parcels.geoParquet(dir.resolve("s3-night.parquet"), delta.rows()));
            intake.awaitFetched("s3-night.parquet");
            flow.awaitIdle(IncrementalUpsertFlowIT.DOWNSTREAM);

            List<Written> kept = Written.in(flow, IncrementalUpsertFlowIT.REPORTS, reports);
            assertTrue(kept.size() >= 2, "the night's cells were verified and reported: " + kept);
            for (Written report : kept) {
                assertEquals("true", report.attribute("geo.consistent"), report.toString());
            }
            Path downloaded = download(client, bucket, "parcels", dir.resolve("downloaded"));
            Map<String, ArchiveChecks.Parcel> after = ArchiveChecks.parcels(downloaded);
            assertEquals(parcels.rows() + delta.netRows(), after.size(), "DuckDB reads baseline + net delta rows");
            for (Group row : delta.rows()) {
                ArchiveChecks.Parcel parcel = after.get(Parcels.key(row));
                if (row.getBoolean(NightlyDelta.DELETE_MARKER, 0)) {
                    assertNull(parcel, Parcels.key(row) + " was deleted");
                } else {
                    assertNotNull(parcel, Parcels.key(row) + " is in the archive");
                    assertEquals(Parcels.cellOf(row), parcel.cell(), Parcels.key(row));
                    assertEquals(row.getString("land_use", 0), parcel.landUse(), Parcels.key(row));
                }
            }
            String log = Files.readString(nifi.appLog());
            assertTrue(
                    log.contains("AWS credentials handed out for access key " + ACCESS_KEY_ID),
                    "the archive's requests asked the credentials service");
            NiFiRuntimeIT.requireNoLinkageProblems(nifi.appLog());
        } finally {
            flow.stopAll();
        }
    }

    private static Path download(S3Client client, String bucket, String prefix, Path local) throws Exception {
        for (S3Object object : client.listObjectsV2Paginator(
                        b -> b.bucket(bucket).prefix(prefix + "/"))
                .contents()) {
            Path file = local.resolve(object.key().substring(prefix.length() + 1));
            Files.createDirectories(file.getParent());
            Files.write(
                    file,
                    client.getObjectAsBytes(b -> b.bucket(bucket).key(object.key()))
                            .asByteArray());
        }
        return local;
    }
}
