package dev.nifigeoparquet.processors.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.processors.testing.ParcelArchives;
import dev.nifigeoparquet.processors.testing.S3Archives;
import dev.nifigeoparquet.processors.testing.TrustingSslContextProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.nifi.components.ConfigVerificationResult;
import org.apache.nifi.components.ConfigVerificationResult.Outcome;
import org.apache.nifi.util.NoOpProcessor;
import org.apache.nifi.util.TestRunner;
import org.apache.nifi.util.TestRunners;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive service on an S3-compatible store whose HTTPS certificate a private certificate authority signed
 * (S3Mock's self-signed one): it works through an SSL Context Service that trusts it, and verification explains
 * what is wrong without one.
 */
class S3TlsArchiveServiceTest {

    @TempDir
    Path dir;

    private TestRunner runner;
    private StandardGeoParquetArchiveService service;

    @BeforeEach
    void setUp() throws Exception {
        runner = TestRunners.newTestRunner(NoOpProcessor.class);
        service = S3ArchiveServices.add(runner, dir, S3Archives.httpsEndpoint());
        runner.setProperty(
                service, S3StorageProperties.AUTHENTICATION_STRATEGY, S3AuthenticationStrategy.ACCESS_KEYS.getValue());
        runner.setProperty(service, S3StorageProperties.ACCESS_KEY_ID, S3Archives.ACCESS_KEY_ID);
        runner.setProperty(service, S3StorageProperties.SECRET_ACCESS_KEY, S3Archives.SECRET_ACCESS_KEY);
    }

    @Test
    void withAnSslContextServiceTrustingTheStoreTheServiceVerifiesAndOpensTheArchive() throws Exception {
        TrustingSslContextProvider tls = new TrustingSslContextProvider();
        runner.addControllerService("tls", tls);
        runner.enableControllerService(tls);
        runner.setProperty(service, S3StorageProperties.SSL_CONTEXT_SERVICE, "tls");
        runner.assertValid(service);

        List<ConfigVerificationResult> results = runner.verify(service, Map.of());
        assertFalse(results.isEmpty());
        for (ConfigVerificationResult result : results) {
            assertEquals(Outcome.SUCCESSFUL, result.getOutcome(), result.getVerificationStepName() + ": " + result);
        }
        String s3Step = S3ArchiveServices.step(results, StandardGeoParquetArchiveService.STEP_S3)
                .getExplanation();
        assertTrue(s3Step.contains("SSL Context Service's trust store"), s3Step);

        runner.enableControllerService(service);
        assertEquals(ParcelArchives.RESOLUTION, service.h3Resolution());
        assertFalse(service.archive().partitionCells().isEmpty(), "the partitions are listed over TLS");
    }

    @Test
    void withoutAnSslContextServiceVerificationNamesTheEndpointAndTheProperty() throws Exception {
        runner.assertValid(service); // validation does not contact the store

        ConfigVerificationResult archive =
                S3ArchiveServices.step(runner.verify(service, Map.of()), StandardGeoParquetArchiveService.STEP_ARCHIVE);
        assertEquals(Outcome.FAILED, archive.getOutcome());
        String explanation = archive.getExplanation();
        assertTrue(explanation.contains(S3Archives.httpsEndpoint()), explanation);
        assertTrue(explanation.contains("set SSL Context Service"), explanation);
    }

    @Test
    void theSslContextServiceIsAnS3Property() {
        assertTrue(S3StorageProperties.PROPERTIES.contains(S3StorageProperties.SSL_CONTEXT_SERVICE));
        assertTrue(S3StorageProperties.SSL_CONTEXT_SERVICE.getControllerServiceDefinition() != null);
        assertFalse(S3StorageProperties.SSL_CONTEXT_SERVICE.isRequired());
    }
}
