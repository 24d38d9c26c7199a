package dev.nifigeoparquet.processors.service;

import dev.nifigeoparquet.processors.testing.ParcelArchives;
import dev.nifigeoparquet.processors.testing.S3Archives;
import java.nio.file.Path;
import java.util.List;
import org.apache.nifi.components.ConfigVerificationResult;
import org.apache.nifi.util.TestRunner;

/** An archive service on a parcel archive in a new S3Mock bucket, for the tests of its S3 connection settings. */
final class S3ArchiveServices {

    private S3ArchiveServices() {}

    /**
     * Uploads a 20-parcel archive made under {@code dir} and adds a service for it to the runner, reaching S3Mock at
     * {@code endpoint}; its credentials and TLS are left to the test.
     */
    static StandardGeoParquetArchiveService add(TestRunner runner, Path dir, String endpoint) throws Exception {
        Path local = dir.resolve("archive");
        ParcelArchives.create(local, 20);
        String root = S3Archives.upload(local, "parcels");
        StandardGeoParquetArchiveService service = new StandardGeoParquetArchiveService();
        runner.addControllerService("archive", service);
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_STORAGE, ArchiveStorageType.S3);
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root);
        runner.setProperty(service, S3StorageProperties.ENDPOINT_OVERRIDE, endpoint);
        runner.setProperty(service, S3StorageProperties.REGION, S3Archives.REGION);
        return service;
    }

    /** The verification step of that name. */
    static ConfigVerificationResult step(List<ConfigVerificationResult> results, String name) {
        return results.stream()
                .filter(result -> result.getVerificationStepName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no step " + name + " in " + results));
    }
}
