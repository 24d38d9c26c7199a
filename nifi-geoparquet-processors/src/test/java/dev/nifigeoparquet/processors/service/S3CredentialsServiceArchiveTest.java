package dev.nifigeoparquet.processors.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.processors.testing.RotatingAwsCredentialsProviderService;
import dev.nifigeoparquet.processors.testing.S3Archives;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.nifi.components.ConfigVerificationResult;
import org.apache.nifi.components.ConfigVerificationResult.Outcome;
import org.apache.nifi.util.NoOpProcessor;
import org.apache.nifi.util.TestRunner;
import org.apache.nifi.util.TestRunners;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive service on S3Mock with its credentials from an AWS Credentials Provider Service: every request is signed
 * with what the service hands out at that moment, so rotated credentials are picked up without re-enabling anything,
 * and a service that gives none fails verification naming it.
 */
class S3CredentialsServiceArchiveTest {

    @TempDir
    Path dir;

    private TestRunner runner;
    private StandardGeoParquetArchiveService service;
    private RotatingAwsCredentialsProviderService credentials;

    @BeforeEach
    void setUp() throws Exception {
        runner = TestRunners.newTestRunner(NoOpProcessor.class);
        credentials = new RotatingAwsCredentialsProviderService();
        credentials.rotateTo("ASIA-FIRST");
        runner.addControllerService("aws", credentials);
        runner.enableControllerService(credentials);

        service = S3ArchiveServices.add(runner, dir, S3Archives.endpoint());
        runner.setProperty(
                service,
                S3StorageProperties.AUTHENTICATION_STRATEGY,
                S3AuthenticationStrategy.CREDENTIALS_SERVICE.getValue());
    }

    @Test
    void everyRequestIsSignedWithWhatTheServiceHandsOutThenSoRotatedCredentialsArePickedUp() throws Exception {
        runner.assertNotValid(service); // the strategy needs its service
        runner.setProperty(service, S3StorageProperties.AWS_CREDENTIALS_PROVIDER_SERVICE, "aws");
        runner.assertValid(service);

        List<ConfigVerificationResult> results = runner.verify(service, Map.of());
        for (ConfigVerificationResult result : results) {
            assertEquals(Outcome.SUCCESSFUL, result.getOutcome(), result.getVerificationStepName() + ": " + result);
        }
        String s3Step = S3ArchiveServices.step(results, StandardGeoParquetArchiveService.STEP_S3)
                .getExplanation();
        assertTrue(s3Step.contains("credentials from the AWS Credentials Provider Service"), s3Step);
        assertFalse(credentials.handedOut().isEmpty(), "verification's requests were signed with the service's keys");
        assertEquals(Set.of("ASIA-FIRST"), Set.copyOf(credentials.handedOut()));

        runner.enableControllerService(service);
        int beforeRotation = credentials.handedOut().size();
        credentials.rotateTo("ASIA-SECOND");
        List<String> cells = service.archive().partitionCells();
        assertFalse(cells.isEmpty(), "the partitions are listed");
        List<String> afterRotation = credentials
                .handedOut()
                .subList(beforeRotation, credentials.handedOut().size());
        assertFalse(afterRotation.isEmpty(), "the enabled service's requests ask the credentials service again");
        assertEquals(Set.of("ASIA-SECOND"), Set.copyOf(afterRotation), "after the rotation only the new key signs");
    }

    @Test
    void aServiceThatGivesNoCredentialsFailsVerificationNamingIt() throws Exception {
        runner.setProperty(service, S3StorageProperties.AWS_CREDENTIALS_PROVIDER_SERVICE, "aws");
        credentials.failWith(
                new IllegalStateException("Role arn:aws:iam::123456789012:role/archive cannot be assumed"));

        ConfigVerificationResult archive =
                S3ArchiveServices.step(runner.verify(service, Map.of()), StandardGeoParquetArchiveService.STEP_ARCHIVE);
        assertEquals(Outcome.FAILED, archive.getOutcome());
        String explanation = archive.getExplanation();
        assertTrue(explanation.contains("AWS Credentials Provider Service gave no credentials"), explanation);
        assertTrue(explanation.contains("cannot be assumed"), explanation);
        assertTrue(credentials.handedOut().isEmpty());
    }
}
