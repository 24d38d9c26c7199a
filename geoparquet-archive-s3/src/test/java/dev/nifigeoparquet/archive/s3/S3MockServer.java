package dev.nifigeoparquet.archive.s3;

import com.adobe.testing.s3mock.S3MockApplication;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Adobe S3Mock, a real S3-compatible HTTP server, started once inside the test JVM on a random loopback port and
 * stopped when the JVM exits. Every test gets its own bucket, so tests never see each other's objects.
 *
 * <p>It also serves HTTPS on a second random port, with a self-signed certificate for {@code localhost}: a store whose
 * certificate no public certificate authority signed, as on-premises stores often have.
 */
public final class S3MockServer {

    private static S3MockServer instance;

    private final S3MockApplication application;
    private final URI endpoint;
    private final URI httpsEndpoint;
    private X509TrustManager trustingServer;
    private final S3Client client;
    private final AtomicInteger buckets = new AtomicInteger();

    // The in-JVM application's port accessors are deprecated for removal in favour of S3Mock's container, which
    // needs Docker; they are the only way to learn the random ports.
    @SuppressWarnings("removal")
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
        endpoint = URI.create("http://127.0.0.1:" + application.getHttpPort());
        // The certificate names localhost only: hostname verification refuses 127.0.0.1.
        httpsEndpoint = URI.create("https://localhost:" + application.getPort());
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

    /** The HTTPS endpoint, whose certificate the JVM's default trust store does not trust. */
    public URI httpsEndpoint() {
        return httpsEndpoint;
    }

    /**
     * A trust manager that trusts exactly the certificate the HTTPS endpoint presents, as an operator's trust store
     * holding their private certificate authority does.
     */
    public synchronized X509TrustManager trustManager() throws IOException {
        if (trustingServer == null) {
            try {
                KeyStore store = KeyStore.getInstance("PKCS12");
                store.load(null, null);
                store.setCertificateEntry("s3mock", serverCertificate());
                TrustManagerFactory factory =
                        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
                factory.init(store);
                trustingServer = Arrays.stream(factory.getTrustManagers())
                        .filter(X509TrustManager.class::isInstance)
                        .map(X509TrustManager.class::cast)
                        .findFirst()
                        .orElseThrow();
            } catch (GeneralSecurityException e) {
                throw new IOException("Cannot build a trust store for " + httpsEndpoint, e);
            }
        }
        return trustingServer;
    }

    /** The certificate the HTTPS endpoint presents, read from a handshake that trusts anything. */
    private X509Certificate serverCertificate() throws IOException, GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, new TrustManager[] {new AcceptingTrustManager()}, null);
        try (SSLSocket socket =
                (SSLSocket) context.getSocketFactory().createSocket(httpsEndpoint.getHost(), httpsEndpoint.getPort())) {
            socket.startHandshake();
            Certificate[] chain = socket.getSession().getPeerCertificates();
            return (X509Certificate) chain[0];
        }
    }

    /** Accepts every certificate: used only to read the one S3Mock presents. */
    private static final class AcceptingTrustManager implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {}

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
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
                .withCredentials(S3Credentials.of(new S3Credentials.Keys("test-access-key", "test-secret-key")));
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

    /** Copies every file under {@code localRoot} to the same relative key under {@code to}, one PUT each. */
    public void upload(Path localRoot, S3Location to) throws IOException {
        try (Stream<Path> files = Files.walk(localRoot)) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                String relative = localRoot.relativize(file).toString().replace(File.separatorChar, '/');
                client.putObject(b -> b.bucket(to.bucket()).key(to.key(relative)), RequestBody.fromFile(file));
            }
        }
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
