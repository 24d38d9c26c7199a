package dev.nifigeoparquet.archive.s3;

import com.adobe.testing.s3mock.S3MockApplication;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Adobe S3Mock, a real S3-compatible HTTP server, started once inside the test JVM on a random loopback port and
 * stopped when the JVM exits. Every test gets its own bucket, so tests never see each other's objects.
 */
public final class S3MockServer {

    private static S3MockServer instance;

    private final S3MockApplication application;
    private final URI endpoint;
    private final S3Client client;
    private final AtomicInteger buckets = new AtomicInteger();

    private S3MockServer() throws IOException {
        Path root = Files.createTempDirectory("s3mock");
        // S3MockApplication removes entries from the map it is given, so it must be mutable.
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
        client = S3ArchiveStorage.newClient(settings(new S3Location("placeholder", "")));
        Runtime.getRuntime().addShutdownHook(new Thread(application::stop));
    }

    public static synchronized S3MockServer get() throws IOException {
        if (instance == null) {
            instance = new S3MockServer();
        }
        return instance;
    }

    /** The running server, for helpers that cannot throw. */
    static S3MockServer get0() {
        try {
            return get();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public URI endpoint() {
        return endpoint;
    }

    /** A client with request counting, for tests that look at objects directly. */
    public S3Client client() {
        return client;
    }

    /** Settings for a location on this server, with static test credentials. */
    public S3StorageSettings settings(S3Location location) {
        return S3StorageSettings.of(location)
                .withEndpoint(endpoint)
                .withRegion("us-east-1")
                .withCredentials(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create("test-access-key", "test-secret-key")));
    }

    /** A new, empty bucket. */
    public String newBucket(String hint) {
        String name = (hint.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-") + "-" + buckets.incrementAndGet());
        name = name.length() > 50 ? name.substring(name.length() - 50) : name;
        name = name.replaceAll("^[^a-z0-9]+", "b");
        String bucket = name;
        client.createBucket(b -> b.bucket(bucket));
        return bucket;
    }

    /** A storage over a fresh bucket, with the archive under {@code prefix}. */
    public S3ArchiveStorage newStorage(String hint, String prefix) {
        return S3ArchiveStorage.withClient(client, settings(new S3Location(newBucket(hint), prefix)));
    }

    /** A storage at a given location on this server, sharing the server's client. */
    public S3ArchiveStorage storage(S3StorageSettings settings) {
        return S3ArchiveStorage.withClient(client, settings);
    }
}
