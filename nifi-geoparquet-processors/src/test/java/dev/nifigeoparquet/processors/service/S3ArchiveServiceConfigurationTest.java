package dev.nifigeoparquet.processors.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.s3.S3Credentials;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.context.PropertyContext;
import org.apache.nifi.reporting.InitializationException;
import org.apache.nifi.util.MockConfigurationContext;
import org.apache.nifi.util.MockPropertyConfiguration;
import org.apache.nifi.util.NoOpProcessor;
import org.apache.nifi.util.TestRunner;
import org.apache.nifi.util.TestRunners;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An s3:// root and its properties: validated without contacting the store, translated into the engine's settings. */
class S3ArchiveServiceConfigurationTest {

    private TestRunner runner;
    private StandardGeoParquetArchiveService service;

    @BeforeEach
    void setUp() throws InitializationException {
        runner = TestRunners.newTestRunner(NoOpProcessor.class);
        service = new StandardGeoParquetArchiveService();
        runner.addControllerService("archive", service);
        set(StandardGeoParquetArchiveService.ARCHIVE_STORAGE, ArchiveStorageType.S3.getValue());
        set(StandardGeoParquetArchiveService.ARCHIVE_ROOT, "s3://spatial-archive/parcels");
        // Nothing listens here: validation must not need the store.
        set(S3StorageProperties.ENDPOINT_OVERRIDE, "http://127.0.0.1:9");
    }

    @Test
    void credentialsAreSensitiveAndTheDefaultChainNeedsNone() {
        for (PropertyDescriptor credential : List.of(
                S3StorageProperties.ACCESS_KEY_ID,
                S3StorageProperties.SECRET_ACCESS_KEY,
                S3StorageProperties.SESSION_TOKEN)) {
            assertTrue(credential.isSensitive(), credential.getName());
        }
        runner.assertValid(service);
        assertNull(StandardGeoParquetArchiveService.Settings.of(context()).s3().credentials(), "the default chain");
    }

    @Test
    void accessKeysNeedTheirSecretAndBecomeTheSettingsCredentials() {
        set(S3StorageProperties.ACCESS_KEY_ID, "AKIAEXAMPLE");
        runner.assertValid(service); // keys are not asked for under the default chain, and not used
        assertNull(StandardGeoParquetArchiveService.Settings.of(context()).s3().credentials());

        set(S3StorageProperties.AUTHENTICATION_STRATEGY, S3AuthenticationStrategy.ACCESS_KEYS.getValue());
        runner.assertNotValid(service);
        set(S3StorageProperties.SECRET_ACCESS_KEY, "secret");
        runner.assertValid(service);
        S3Credentials.Keys keys = StandardGeoParquetArchiveService.Settings.of(context())
                .s3()
                .credentials()
                .resolve();
        assertEquals("AKIAEXAMPLE", keys.accessKeyId());
        assertEquals("secret", keys.secretAccessKey());
        assertNull(keys.sessionToken());
        assertFalse(keys.toString().contains("secret"), "the secret never reaches a log: " + keys);
    }

    @Test
    void theCredentialsServiceStrategyNeedsItsService() {
        set(S3StorageProperties.AUTHENTICATION_STRATEGY, S3AuthenticationStrategy.CREDENTIALS_SERVICE.getValue());
        runner.assertNotValid(service);
    }

    @Test
    void aFlowFromBeforeTheAuthenticationStrategyKeepsItsKeysOrItsDefaultChain() {
        MockPropertyConfiguration withKeys = new MockPropertyConfiguration(Map.of(
                StandardGeoParquetArchiveService.ARCHIVE_ROOT.getName(), "s3://spatial-archive/parcels",
                S3StorageProperties.ACCESS_KEY_ID.getName(), "AKIAEXAMPLE",
                S3StorageProperties.SECRET_ACCESS_KEY.getName(), "secret"));
        service.migrateProperties(withKeys);
        assertEquals(
                S3AuthenticationStrategy.ACCESS_KEYS.getValue(),
                withKeys.getProperties().get(S3StorageProperties.AUTHENTICATION_STRATEGY.getName()));

        MockPropertyConfiguration withoutKeys = new MockPropertyConfiguration(
                Map.of(StandardGeoParquetArchiveService.ARCHIVE_ROOT.getName(), "s3://spatial-archive/parcels"));
        service.migrateProperties(withoutKeys);
        assertNull(
                withoutKeys.getProperties().get(S3StorageProperties.AUTHENTICATION_STRATEGY.getName()),
                "the default, the default chain, stays");
    }

    @Test
    void aColdStorageClassSetsCompactionsMinimumObjectAgeUnlessOverridden() {
        set(S3StorageProperties.STORAGE_CLASS, "GLACIER_IR");
        set(S3StorageProperties.REGION, "eu-central-1");
        var settings = StandardGeoParquetArchiveService.Settings.of(context()).s3();
        assertEquals("s3://spatial-archive/parcels", settings.location().toString());
        assertEquals("eu-central-1", settings.region());
        assertEquals(Duration.ofDays(90), settings.effectiveMinimumObjectAge());

        set(S3StorageProperties.MINIMUM_OBJECT_AGE, "0 sec");
        assertEquals(
                Duration.ZERO,
                StandardGeoParquetArchiveService.Settings.of(context()).s3().effectiveMinimumObjectAge());
    }

    @Test
    void aMalformedS3RootIsInvalid() {
        set(StandardGeoParquetArchiveService.ARCHIVE_ROOT, "s3://Not_A_Bucket/x");
        runner.assertNotValid(service);
    }

    @Test
    void anS3RootOutsideTheAllowedS3BasesIsInvalid() {
        set(StandardGeoParquetArchiveService.ALLOWED_ROOTS, "s3://spatial-archive/roads/");
        runner.assertNotValid(service);
        set(StandardGeoParquetArchiveService.ALLOWED_ROOTS, "s3://spatial-archive/");
        runner.assertValid(service);
    }

    @Test
    void theS3PropertiesApplyOnlyToAnArchiveOnS3AndTheStorageMustMatchTheRoot(@TempDir Path dir) throws Exception {
        runner.assertValid(service);
        for (PropertyDescriptor property : S3StorageProperties.PROPERTIES) {
            // Each S3 property is shown for an archive on S3: directly, or through S3 Authentication Strategy.
            PropertyDescriptor shownBy = property;
            while (shownBy.getDependencies().size() == 1
                    && shownBy.getDependencies()
                            .iterator()
                            .next()
                            .getPropertyName()
                            .equals(S3StorageProperties.AUTHENTICATION_STRATEGY.getName())) {
                shownBy = S3StorageProperties.AUTHENTICATION_STRATEGY;
            }
            assertEquals(
                    List.of(StandardGeoParquetArchiveService.ARCHIVE_STORAGE.getName()),
                    shownBy.getDependencies().stream()
                            .map(dependency -> dependency.getPropertyName())
                            .toList(),
                    property.getName());
            assertEquals(
                    Set.of(ArchiveStorageType.S3.getValue()),
                    shownBy.getDependencies().iterator().next().getDependentValues(),
                    property.getName());
        }

        set(StandardGeoParquetArchiveService.ARCHIVE_STORAGE, ArchiveStorageType.LOCAL.getValue());
        runner.assertNotValid(service); // an s3:// root kept as a local directory
        Path local = dir.resolve("archive");
        ParcelArchives.create(local, 20);
        set(StandardGeoParquetArchiveService.ARCHIVE_ROOT, local.toString());
        runner.assertValid(service);
        set(StandardGeoParquetArchiveService.ARCHIVE_STORAGE, ArchiveStorageType.S3.getValue());
        runner.assertNotValid(service); // a directory is no bucket
    }

    @Test
    void aFlowFromBeforeArchiveStorageWithAnS3RootIsMigratedToS3() {
        MockPropertyConfiguration s3 = new MockPropertyConfiguration(
                Map.of(StandardGeoParquetArchiveService.ARCHIVE_ROOT.getName(), "s3://spatial-archive/parcels"));
        service.migrateProperties(s3);
        assertEquals(
                ArchiveStorageType.S3.getValue(),
                s3.getProperties().get(StandardGeoParquetArchiveService.ARCHIVE_STORAGE.getName()));
        MockPropertyConfiguration local = new MockPropertyConfiguration(
                Map.of(StandardGeoParquetArchiveService.ARCHIVE_ROOT.getName(), "/data/geoparquet/parcels"));
        service.migrateProperties(local);
        assertNull(local.getProperties().get(StandardGeoParquetArchiveService.ARCHIVE_STORAGE.getName()));
    }

    private final Map<PropertyDescriptor, String> properties = new HashMap<>();

    private void set(PropertyDescriptor property, String value) {
        runner.setProperty(service, property, value);
        properties.put(property, value);
    }

    private PropertyContext context() {
        return new MockConfigurationContext(
                service, properties, runner.getProcessContext().getControllerServiceLookup(), Map.of());
    }
}
