package dev.nifigeoparquet.processors.testing;

import dev.nifigeoparquet.archive.s3.S3Location;
import dev.nifigeoparquet.archive.s3.S3MockServer;
import java.io.IOException;
import java.nio.file.Path;
import javax.net.ssl.X509TrustManager;

/** Archives on S3Mock for processor tests: a local archive copied object for object into a bucket of its own. */
public final class S3Archives {

    /** Credentials S3Mock accepts (it checks none). */
    public static final String ACCESS_KEY_ID = "test-access-key";

    public static final String SECRET_ACCESS_KEY = "test-secret-key";
    public static final String REGION = "us-east-1";

    private S3Archives() {}

    /** Copies every file under {@code localRoot} into a new bucket under {@code prefix}; returns the s3:// root. */
    public static String upload(Path localRoot, String prefix) throws IOException {
        S3MockServer server = S3MockServer.get();
        String bucket = server.newBucket("processors");
        server.upload(localRoot, new S3Location(bucket, prefix));
        return "s3://" + bucket + "/" + prefix;
    }

    /** S3Mock's HTTPS endpoint, whose self-signed certificate only {@link #trustManager()} trusts. */
    public static String httpsEndpoint() throws IOException {
        return S3MockServer.get().httpsEndpoint().toString();
    }

    /** Trusts exactly the certificate of {@link #httpsEndpoint()}, as a trust store with a private CA does. */
    public static X509TrustManager trustManager() throws IOException {
        return S3MockServer.get().trustManager();
    }

    /** The S3Mock endpoint, for the archive service's S3 Endpoint Override URL. */
    public static String endpoint() throws IOException {
        return S3MockServer.get().endpoint().toString();
    }
}
