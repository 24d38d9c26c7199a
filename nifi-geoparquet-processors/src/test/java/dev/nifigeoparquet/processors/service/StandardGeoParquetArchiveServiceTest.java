package dev.nifigeoparquet.processors.service;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.processors.testing.TestArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.nifi.components.ConfigVerificationResult;
import org.apache.nifi.components.ConfigVerificationResult.Outcome;
import org.apache.nifi.components.ValidationResult;
import org.apache.nifi.reporting.InitializationException;
import org.apache.nifi.util.MockPropertyConfiguration;
import org.apache.nifi.util.NoOpProcessor;
import org.apache.nifi.util.TestRunner;
import org.apache.nifi.util.TestRunners;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StandardGeoParquetArchiveServiceTest {

    private static final String ID = "archive";

    @TempDir
    Path dir;

    private TestRunner runner;
    private StandardGeoParquetArchiveService service;

    @BeforeEach
    void setUp() throws InitializationException {
        runner = TestRunners.newTestRunner(NoOpProcessor.class);
        service = new StandardGeoParquetArchiveService();
        runner.addControllerService(ID, service);
    }

    @Test
    void servesThePinnedSettingsReadOnceOnEnable() throws Exception {
        Path root = dir.resolve("archive");
        GeoParquetArchive archive = TestArchives.create(root, 7);
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.setProperty(service, StandardGeoParquetArchiveService.H3_RESOLUTION, "7");
        runner.assertValid(service);
        runner.enableControllerService(service);

        assertEquals(7, service.h3Resolution());
        assertEquals(7, service.keyer().resolution());
        assertEquals("geometry", service.geometryColumn());
        assertEquals("OGC:CRS84", service.crs().authorityCode());
        assertEquals(List.of("id"), service.archive().descriptor().keyColumns());
        assertEquals(archive.canonicalFooter(), service.archive().canonicalFooter());
        assertEquals(root.toString(), service.location());
        assertTrue(runner.getControllerServiceLogger(ID).getWarnMessages().isEmpty());
    }

    @Test
    void workerThreadsSizeTheArchivesPoolAndDefaultToOnePerCore() throws Exception {
        Path root = dir.resolve("archive");
        TestArchives.create(root, 7);
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.setProperty(service, StandardGeoParquetArchiveService.H3_RESOLUTION, "7");
        runner.setProperty(service, StandardGeoParquetArchiveService.WORKER_THREADS, "0");
        runner.assertNotValid(service);

        // One more than the cores, so the setting cannot pass for the default.
        int threads = Runtime.getRuntime().availableProcessors() + 1;
        runner.setProperty(service, StandardGeoParquetArchiveService.WORKER_THREADS, String.valueOf(threads));
        runner.enableControllerService(service);
        assertEquals(threads, service.archive().workers().parallelism());
        runner.disableControllerService(service);

        runner.removeProperty(service, StandardGeoParquetArchiveService.WORKER_THREADS);
        runner.enableControllerService(service);
        assertEquals(
                Runtime.getRuntime().availableProcessors(),
                service.archive().workers().parallelism());
    }

    @Test
    void aStrategyStoredAsItsConstantNameLoadsAsTheSameChoice() {
        for (MissingArchiveStrategy strategy : MissingArchiveStrategy.values()) {
            MockPropertyConfiguration config = new MockPropertyConfiguration(
                    Map.of(StandardGeoParquetArchiveService.MISSING_ARCHIVE_STRATEGY.getName(), strategy.name()));
            service.migrateProperties(config);
            assertEquals(
                    Map.of(StandardGeoParquetArchiveService.MISSING_ARCHIVE_STRATEGY.getName(), strategy.getValue()),
                    config.getProperties());
        }
        MockPropertyConfiguration current = new MockPropertyConfiguration(Map.of(
                StandardGeoParquetArchiveService.MISSING_ARCHIVE_STRATEGY.getName(),
                MissingArchiveStrategy.ADOPT.getValue()));
        service.migrateProperties(current);
        assertEquals(Set.of(), current.toPropertyMigrationResult().getPropertiesUpdated());
    }

    @Test
    void flowsThatStillSetThePartitionStateCacheLoseTheProperties() {
        MockPropertyConfiguration config = new MockPropertyConfiguration(Map.of(
                StandardGeoParquetArchiveService.ARCHIVE_ROOT.getName(),
                "/data/archives/parcels",
                "Partition State Cache Size",
                "1000",
                "Partition State Cache Expiration",
                "30 sec"));
        service.migrateProperties(config);
        assertEquals(
                Set.of("Partition State Cache Size", "Partition State Cache Expiration"),
                config.toPropertyMigrationResult().getPropertiesRemoved());
        assertEquals(
                Map.of(StandardGeoParquetArchiveService.ARCHIVE_ROOT.getName(), "/data/archives/parcels"),
                config.getProperties());
        assertTrue(service.getPropertyDescriptors().stream()
                .noneMatch(
                        property -> StandardGeoParquetArchiveService.REMOVED_PROPERTIES.contains(property.getName())));
    }

    @Test
    void refusesAResolutionMismatchNamingBothValues() throws Exception {
        Path root = dir.resolve("archive");
        TestArchives.create(root, 7);
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.setProperty(service, StandardGeoParquetArchiveService.H3_RESOLUTION, "9");
        runner.assertNotValid(service);
        String explanation = explanations(runner.validate(service));
        assertTrue(explanation.contains("H3 Resolution 9 does not match the resolution 7"), explanation);

        ConfigVerificationResult resolution =
                step(runner.verify(service, Map.of()), StandardGeoParquetArchiveService.STEP_RESOLUTION);
        assertEquals(Outcome.FAILED, resolution.getOutcome());
        assertTrue(
                resolution.getExplanation().contains("9")
                        && resolution.getExplanation().contains("7"),
                resolution.getExplanation());
    }

    @Test
    void refusesARootOutsideTheAllowedBase() throws Exception {
        Path allowed = Files.createDirectories(dir.resolve("allowed"));
        Path root = dir.resolve("elsewhere/archive");
        TestArchives.create(root, 7);
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.setProperty(service, StandardGeoParquetArchiveService.ALLOWED_ROOTS, allowed.toString());
        runner.assertNotValid(service);
        String explanation = explanations(runner.validate(service));
        assertTrue(
                explanation.contains(root.toRealPath().toString())
                        && explanation.contains(allowed.toRealPath().toString()),
                explanation);

        // '..' cannot climb out of the base either.
        runner.setProperty(
                service,
                StandardGeoParquetArchiveService.ARCHIVE_ROOT,
                allowed.resolve("../elsewhere/archive").toString());
        runner.assertNotValid(service);

        ConfigVerificationResult rootStep =
                step(runner.verify(service, Map.of()), StandardGeoParquetArchiveService.STEP_ROOT);
        assertEquals(Outcome.FAILED, rootStep.getOutcome());

        runner.setProperty(
                service, StandardGeoParquetArchiveService.ALLOWED_ROOTS, allowed + ", " + dir.resolve("elsewhere"));
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.assertValid(service);
    }

    @Test
    void explainsAMissingArchive() {
        Path root = dir.resolve("nothing-here");
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.assertNotValid(service);
        String explanation = explanations(runner.validate(service));
        assertTrue(explanation.contains("No archive at " + root), explanation);
        assertEquals(
                Outcome.FAILED,
                step(runner.verify(service, Map.of()), StandardGeoParquetArchiveService.STEP_ARCHIVE)
                        .getOutcome());
    }

    @Test
    void createsAMissingArchiveFromATemplate() throws Exception {
        Path template = TestArchives.template(dir);
        Path root = dir.resolve("new-archive");
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.setProperty(
                service, StandardGeoParquetArchiveService.MISSING_ARCHIVE_STRATEGY, MissingArchiveStrategy.CREATE);
        runner.setProperty(service, StandardGeoParquetArchiveService.TEMPLATE_FILE, template.toString());
        runner.setProperty(service, StandardGeoParquetArchiveService.KEY_COLUMNS, "id");
        runner.assertNotValid(service); // the resolution is pinned for life, so it must be given

        runner.setProperty(service, StandardGeoParquetArchiveService.H3_RESOLUTION, "6");
        runner.assertValid(service);
        assertEquals(
                Outcome.SUCCESSFUL,
                step(runner.verify(service, Map.of()), StandardGeoParquetArchiveService.STEP_ARCHIVE)
                        .getOutcome());
        assertFalse(GeoParquetArchive.exists(new LocalArchiveStorage(root)), "verification changes nothing");

        runner.enableControllerService(service);
        assertTrue(GeoParquetArchive.exists(new LocalArchiveStorage(root)));
        assertEquals(6, GeoParquetArchive.open(new LocalArchiveStorage(root)).h3Resolution());
        assertEquals(List.of("id"), service.archive().descriptor().keyColumns());
    }

    @Test
    void adoptsAGeoPandasDatasetAndReportsWhatItDerivedAsBulletins() throws Exception {
        Path root = dir.resolve("geopandas");
        ArchiveFixtures.writeGeoPandasStyleArchive(root, 2);
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.setProperty(
                service, StandardGeoParquetArchiveService.MISSING_ARCHIVE_STRATEGY, MissingArchiveStrategy.ADOPT);
        runner.setProperty(service, StandardGeoParquetArchiveService.KEY_COLUMNS, "name");
        runner.setProperty(service, StandardGeoParquetArchiveService.H3_RESOLUTION, "2");
        runner.assertValid(service);
        runner.enableControllerService(service);

        assertEquals(2, service.h3Resolution());
        assertTrue(GeoParquetArchive.exists(new LocalArchiveStorage(root)));
        List<String> bulletins = runner.getControllerServiceLogger(ID).getWarnMessages().stream()
                .map(m -> m.getMsg())
                .toList();
        assertTrue(bulletins.stream().anyMatch(m -> m.contains("derived")), bulletins.toString());
    }

    private static String explanations(Collection<ValidationResult> results) {
        return results.stream()
                .filter(r -> !r.isValid())
                .map(ValidationResult::getExplanation)
                .toList()
                .toString();
    }

    private static ConfigVerificationResult step(List<ConfigVerificationResult> results, String name) {
        return results.stream()
                .filter(r -> r.getVerificationStepName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no step " + name + " in " + results));
    }
}
