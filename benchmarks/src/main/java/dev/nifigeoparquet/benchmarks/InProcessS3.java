package dev.nifigeoparquet.benchmarks;

import com.adobe.testing.s3mock.S3MockApplication;
import dev.nifigeoparquet.archive.s3.S3ArchiveStorage;
import dev.nifigeoparquet.archive.s3.S3Credentials;
import dev.nifigeoparquet.archive.s3.S3Location;
import dev.nifigeoparquet.archive.s3.S3StorageSettings;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Adobe S3Mock, an S3-compatible HTTP server, run inside this JVM on a random loopback port with its objects under
 * a work directory. The benchmark only counts requests and bytes on it; its latencies say nothing about S3.
 */
final class InProcessS3 implements AutoCloseable {

    private final S3MockApplication application;
    private final URI endpoint;
    private final S3Client client;

    private InProcessS3(Path root) throws IOException {
        Files.createDirectories(root);
        // S3MockApplication removes the entries it consumes from the map, so it must be mutable.
        application = S3MockApplication.start(new HashMap<>(Map.of(
                S3MockApplication.PROP_HTTP_PORT,
                S3MockApplication.RANDOM_PORT,
                S3MockApplication.PROP_HTTPS_PORT,
                S3MockApplication.RANDOM_PORT,
                S3MockApplication.PROP_ROOT_DIRECTORY,
                root.toString(),
                S3MockApplication.PROP_SILENT,
                true,
                "server.address",
                "127.0.0.1",
                "spring.main.banner-mode",
                "off")));
        @SuppressWarnings("removal") // S3Mock 4 has no other way to tell the random port it bound
        int port = application.getHttpPort();
        endpoint = URI.create("http://127.0.0.1:" + port);
        // The storage's own client: path style for the endpoint, and every request counted into StorageMeter.
        client = S3ArchiveStorage.newClient(settings(new S3Location("placeholder", "")));
    }

    /** Starts the server; {@link #close} stops it. */
    static InProcessS3 start(Path root) throws IOException {
        return new InProcessS3(root);
    }

    void createBucket(String bucket) {
        client.createBucket(b -> b.bucket(bucket));
    }

    /** An archive's storage at {@code prefix} in {@code bucket}, on the server's request-counting client. */
    S3ArchiveStorage storage(String bucket, String prefix) {
        return S3ArchiveStorage.withClient(client, settings(new S3Location(bucket, prefix)));
    }

    /**
     * Copies every file under a local archive to the storage's location, one PUT each, and returns the bytes sent.
     * Call it outside any {@code StorageMeter} measurement: the uploads are setup, not part of what is measured.
     */
    long upload(Path localRoot, S3ArchiveStorage storage) throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(localRoot)) {
            files = walk.filter(Files::isRegularFile).sorted().toList();
        }
        S3Location location = storage.location();
        long bytes = 0;
        for (Path file : files) {
            String relative = localRoot.relativize(file).toString().replace('\\', '/');
            client.putObject(b -> b.bucket(location.bucket()).key(location.key(relative)), RequestBody.fromFile(file));
            bytes += Files.size(file);
        }
        return bytes;
    }

    private S3StorageSettings settings(S3Location location) {
        return S3StorageSettings.of(location)
                .withEndpoint(endpoint)
                .withRegion("us-east-1")
                .withCredentials(S3Credentials.of(new S3Credentials.Keys("benchmark", "benchmark")));
    }

    @Override
    public void close() {
        client.close();
        application.stop();
    }
}
