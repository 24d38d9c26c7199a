package dev.nifigeoparquet.it.aws;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.nifi.annotation.documentation.CapabilityDescription;
import org.apache.nifi.annotation.documentation.Tags;
import org.apache.nifi.annotation.lifecycle.OnEnabled;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.controller.AbstractControllerService;
import org.apache.nifi.controller.ConfigurationContext;
import org.apache.nifi.processor.util.StandardValidators;
import org.apache.nifi.processors.aws.credentials.provider.AwsCredentialsProviderService;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/** Hands out one fixed access key pair, and logs the first time it does: the suite reads that line in NiFi's log. */
@Tags({"aws", "credentials", "test"})
@CapabilityDescription("Gives one fixed access key pair through NiFi's AWS Credentials Provider Service API.")
public class FixedAwsCredentialsProviderService extends AbstractControllerService
        implements AwsCredentialsProviderService {

    /** What the service logs when it first hands its credentials out, followed by the access key. */
    public static final String HANDED_OUT = "AWS credentials handed out for access key ";

    static final PropertyDescriptor ACCESS_KEY_ID = new PropertyDescriptor.Builder()
            .name("Access Key ID")
            .required(true)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .build();

    static final PropertyDescriptor SECRET_ACCESS_KEY = new PropertyDescriptor.Builder()
            .name("Secret Access Key")
            .required(true)
            .sensitive(true)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .build();

    private volatile AwsCredentials credentials;
    private final AtomicBoolean handedOut = new AtomicBoolean();

    @Override
    protected List<PropertyDescriptor> getSupportedPropertyDescriptors() {
        return List.of(ACCESS_KEY_ID, SECRET_ACCESS_KEY);
    }

    @OnEnabled
    public void onEnabled(ConfigurationContext context) {
        credentials = AwsBasicCredentials.create(
                context.getProperty(ACCESS_KEY_ID).getValue(),
                context.getProperty(SECRET_ACCESS_KEY).getValue());
        handedOut.set(false);
    }

    @Override
    public AwsCredentialsProvider getAwsCredentialsProvider() {
        return () -> {
            AwsCredentials current = credentials;
            if (handedOut.compareAndSet(false, true)) {
                getLogger().info(HANDED_OUT + current.accessKeyId());
            }
            return current;
        };
    }
}
