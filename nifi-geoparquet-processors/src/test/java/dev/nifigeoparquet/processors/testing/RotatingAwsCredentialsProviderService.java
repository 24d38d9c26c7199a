package dev.nifigeoparquet.processors.testing;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.nifi.controller.AbstractControllerService;
import org.apache.nifi.processors.aws.credentials.provider.AwsCredentialsProviderService;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * An AWS Credentials Provider Service whose credentials the test sets and rotates, and which records the access key
 * of every credential it hands out: what NiFi's own service does for an assumed role, observable.
 */
public final class RotatingAwsCredentialsProviderService extends AbstractControllerService
        implements AwsCredentialsProviderService {

    private final AtomicReference<AwsCredentials> current = new AtomicReference<>();
    private final AtomicReference<RuntimeException> failure = new AtomicReference<>();
    private final List<String> handedOut = new CopyOnWriteArrayList<>();

    /** Temporary credentials with this access key, as an assumed role gives. */
    public void rotateTo(String accessKeyId) {
        current.set(AwsSessionCredentials.create(accessKeyId, "secret-of-" + accessKeyId, "token-of-" + accessKeyId));
        failure.set(null);
    }

    /** From now on, fails as a provider whose role cannot be assumed does. */
    public void failWith(RuntimeException e) {
        failure.set(e);
    }

    /** The access key of every credential handed out, in order. */
    public List<String> handedOut() {
        return List.copyOf(handedOut);
    }

    @Override
    public AwsCredentialsProvider getAwsCredentialsProvider() {
        return () -> {
            RuntimeException e = failure.get();
            if (e != null) {
                throw e;
            }
            AwsCredentials credentials = current.get();
            handedOut.add(credentials.accessKeyId());
            return credentials;
        };
    }
}
