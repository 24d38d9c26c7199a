package dev.nifigeoparquet.processors.service;

import dev.nifigeoparquet.archive.s3.ColdStorage;
import dev.nifigeoparquet.archive.s3.S3Credentials;
import dev.nifigeoparquet.archive.s3.S3Location;
import dev.nifigeoparquet.archive.s3.S3StorageSettings;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.nifi.components.AllowableValue;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.context.PropertyContext;
import org.apache.nifi.expression.ExpressionLanguageScope;
import org.apache.nifi.processor.DataUnit;
import org.apache.nifi.processor.util.StandardValidators;
import org.apache.nifi.processors.aws.credentials.provider.AwsCredentialsProviderService;
import org.apache.nifi.ssl.SSLContextProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * The archive service's properties for an archive on S3 or an S3-compatible store (an Archive Root of the form
 * {@code s3://bucket/prefix}), and their translation into the engine's {@link S3StorageSettings}.
 *
 * <p>The AWS SDK types named here are those of the NAR's parent, {@code nifi-aws-service-api-nar}, which the AWS
 * Credentials Provider Service hands out; the engine's own AWS SDK is bundled relocated, and this class passes it
 * credentials only as {@link S3Credentials}.
 */
final class S3StorageProperties {

    static final String BUCKET_DEFAULT = "Bucket Default";

    private S3StorageProperties() {}

    // Defined here, beside the properties that depend on it, rather than in the service: the service's static
    // descriptors read this class's, so one defined there and read here would be null while this class initialises.
    static final PropertyDescriptor ARCHIVE_STORAGE = new PropertyDescriptor.Builder()
            .name("Archive Storage")
            .description(
                    "Where the archive lives. An s3://bucket/prefix Archive Root needs the S3 choice, which shows the S3"
                            + " properties; a directory needs the local one.")
            .required(true)
            .allowableValues(ArchiveStorageType.class)
            .defaultValue(ArchiveStorageType.LOCAL)
            .build();

    static final PropertyDescriptor ENDPOINT_OVERRIDE = new PropertyDescriptor.Builder()
            .name("S3 Endpoint Override URL")
            .description(
                    "For an s3:// Archive Root on an S3-compatible store (MinIO, Ceph RGW, Cloudflare R2...): the store's endpoint,"
                            + " for example https://minio.example.org:9000. Requests then use path-style addressing. The store must honour"
                            + " conditional PUTs (If-None-Match: *), which the commit protocol relies on. Leave empty for Amazon S3.")
            .required(false)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.URL_VALIDATOR)
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    static final PropertyDescriptor SSL_CONTEXT_SERVICE = new PropertyDescriptor.Builder()
            .name("SSL Context Service")
            .description(
                    "Specifies an optional SSL Context Service that, if provided, is used to connect to the S3 endpoint over HTTPS:"
                            + " the endpoint's certificate is checked against its trust store instead of the JVM's default one, and its key"
                            + " store's certificate, if any, is presented to a store that asks for a client certificate (mutual TLS). Needed"
                            + " for an S3-compatible store whose certificate a private certificate authority signed, as on-premises MinIO"
                            + " or Ceph often have. Leave empty for Amazon S3.")
            .required(false)
            .identifiesControllerService(SSLContextProvider.class)
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    static final PropertyDescriptor REGION = new PropertyDescriptor.Builder()
            .name("S3 Region")
            .description(
                    "The bucket's region, for example eu-central-1. Leave empty to take it from the AWS environment (AWS_REGION,"
                            + " the profile file).")
            .required(false)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    static final PropertyDescriptor STORAGE_CLASS = new PropertyDescriptor.Builder()
            .name("S3 Storage Class")
            .description(
                    "Storage class of new data files. Commit entries, the descriptor, staged replacements and the key index's files"
                            + " are always STANDARD. With a class that has a"
                            + " minimum storage duration (Standard-IA and One Zone-IA 30 days, Glacier Instant Retrieval 90 days), compaction"
                            + " leaves files younger than that duration alone unless S3 Minimum Object Age says otherwise. GLACIER and"
                            + " DEEP_ARCHIVE are refused: data files must stay readable without a restore.")
            .required(true)
            .allowableValues(
                    new AllowableValue(
                            BUCKET_DEFAULT, BUCKET_DEFAULT, "No class is asked for: the bucket's default (STANDARD)."),
                    storageClass("STANDARD", "No minimum storage duration and no retrieval fee."),
                    storageClass(
                            "STANDARD_IA",
                            "Cheaper storage with a retrieval fee per GB and a 30-day minimum storage duration."),
                    storageClass(
                            "ONEZONE_IA",
                            "Like Standard-IA, kept in one availability zone only: cheaper, lost with the zone."),
                    storageClass(
                            "INTELLIGENT_TIERING",
                            "S3 moves each object between access tiers by its use; leave the bucket's opt-in archive"
                                    + " tiers off, since their objects need a restore before they can be read."),
                    storageClass(
                            "GLACIER_IR",
                            "Glacier Instant Retrieval: the cheapest class still read without a restore, with a"
                                    + " retrieval fee and a 90-day minimum storage duration."))
            .defaultValue(BUCKET_DEFAULT)
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    private static AllowableValue storageClass(String storageClass, String description) {
        return new AllowableValue(storageClass, storageClass, description);
    }

    static final PropertyDescriptor MINIMUM_OBJECT_AGE = new PropertyDescriptor.Builder()
            .name("S3 Minimum Object Age")
            .description(
                    "Compaction never deletes data files committed more recently than this, so a cold storage class is not charged"
                            + " for early deletion. Leave empty for the storage class's minimum storage duration; set 0 sec to allow early"
                            + " deletion. Upserts and deletes still supersede files whose rows change; their cost reports list every deleted"
                            + " object with its age.")
            .required(false)
            .addValidator(StandardValidators.TIME_PERIOD_VALIDATOR)
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    static final PropertyDescriptor PART_SIZE = new PropertyDescriptor.Builder()
            .name("S3 Multipart Part Size")
            .description(
                    "Data files up to this size are uploaded in one PUT; larger ones in a multipart upload of parts of this size"
                            + " (at least 5 MB). Each open writer buffers one part in memory. A failed upload is aborted.")
            .required(true)
            .defaultValue("8 MB")
            .addValidator(StandardValidators.createDataSizeBoundsValidator(
                    S3StorageSettings.MIN_PART_SIZE, 512L * 1024 * 1024))
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    static final PropertyDescriptor AUTHENTICATION_STRATEGY = new PropertyDescriptor.Builder()
            .name("S3 Authentication Strategy")
            .description("Where the credentials that sign requests to the bucket come from.")
            .required(true)
            .allowableValues(S3AuthenticationStrategy.class)
            .defaultValue(S3AuthenticationStrategy.DEFAULT_CHAIN)
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    static final PropertyDescriptor AWS_CREDENTIALS_PROVIDER_SERVICE = new PropertyDescriptor.Builder()
            .name("AWS Credentials Provider Service")
            .description(
                    "The AWS Credentials Provider Service whose credentials sign requests to the bucket, the one NiFi's own"
                            + " AWS processors use. It is asked before each request, so credentials it rotates (an assumed"
                            + " role's, a web identity's) keep working.")
            .required(true)
            .identifiesControllerService(AwsCredentialsProviderService.class)
            .dependsOn(AUTHENTICATION_STRATEGY, S3AuthenticationStrategy.CREDENTIALS_SERVICE)
            .build();

    static final PropertyDescriptor ACCESS_KEY_ID = new PropertyDescriptor.Builder()
            .name("S3 Access Key ID")
            .description("Access key for the bucket.")
            .required(true)
            .sensitive(true)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(AUTHENTICATION_STRATEGY, S3AuthenticationStrategy.ACCESS_KEYS)
            .build();

    static final PropertyDescriptor SECRET_ACCESS_KEY = new PropertyDescriptor.Builder()
            .name("S3 Secret Access Key")
            .description("Secret key belonging to S3 Access Key ID.")
            .required(true)
            .sensitive(true)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(AUTHENTICATION_STRATEGY, S3AuthenticationStrategy.ACCESS_KEYS)
            .build();

    static final PropertyDescriptor SESSION_TOKEN = new PropertyDescriptor.Builder()
            .name("S3 Session Token")
            .description("Session token of temporary credentials, with S3 Access Key ID and S3 Secret Access Key.")
            .required(false)
            .sensitive(true)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(AUTHENTICATION_STRATEGY, S3AuthenticationStrategy.ACCESS_KEYS)
            .build();

    static final List<PropertyDescriptor> PROPERTIES = List.of(
            ENDPOINT_OVERRIDE,
            SSL_CONTEXT_SERVICE,
            REGION,
            STORAGE_CLASS,
            MINIMUM_OBJECT_AGE,
            PART_SIZE,
            AUTHENTICATION_STRATEGY,
            AWS_CREDENTIALS_PROVIDER_SERVICE,
            ACCESS_KEY_ID,
            SECRET_ACCESS_KEY,
            SESSION_TOKEN);

    /** The engine's settings for an s3:// root. */
    static S3StorageSettings settings(PropertyContext context, String root) {
        S3StorageSettings settings = S3StorageSettings.of(S3Location.parse(root));
        String endpoint = value(context, ENDPOINT_OVERRIDE);
        if (endpoint != null) {
            settings = settings.withEndpoint(URI.create(endpoint));
        }
        settings = settings.withRegion(value(context, REGION));
        String storageClass = context.getProperty(STORAGE_CLASS).getValue();
        if (storageClass != null && !BUCKET_DEFAULT.equals(storageClass)) {
            settings = settings.withStorageClass(storageClass);
        }
        if (context.getProperty(MINIMUM_OBJECT_AGE).isSet()) {
            settings = settings.withMinimumObjectAge(
                    Duration.ofMillis(context.getProperty(MINIMUM_OBJECT_AGE).asTimePeriod(TimeUnit.MILLISECONDS)));
        }
        Double partSize = context.getProperty(PART_SIZE).asDataSize(DataUnit.B);
        if (partSize != null) {
            settings = settings.withPartSizeBytes(partSize.intValue());
        }
        if (strategy(context) == S3AuthenticationStrategy.ACCESS_KEYS) {
            String access = value(context, ACCESS_KEY_ID);
            String secret = value(context, SECRET_ACCESS_KEY);
            if (access != null && secret != null) {
                settings = settings.withCredentials(
                        S3Credentials.of(new S3Credentials.Keys(access, secret, value(context, SESSION_TOKEN))));
            }
        }
        return settings;
    }

    /**
     * The settings with what the referenced services give: the AWS Credentials Provider Service's credentials and the
     * SSL Context Service's trust and key material. Only an enabled service gives them, so validation, which must not
     * depend on them, works on the settings without them.
     */
    static S3StorageSettings withServices(PropertyContext context, S3StorageSettings settings) {
        if (strategy(context) == S3AuthenticationStrategy.CREDENTIALS_SERVICE
                && context.getProperty(AWS_CREDENTIALS_PROVIDER_SERVICE).isSet()) {
            AwsCredentialsProvider provider = context.getProperty(AWS_CREDENTIALS_PROVIDER_SERVICE)
                    .asControllerService(AwsCredentialsProviderService.class)
                    .getAwsCredentialsProvider();
            settings = settings.withCredentials(() -> {
                try {
                    return keys(provider.resolveCredentials());
                } catch (RuntimeException e) {
                    throw new IllegalStateException(
                            "The AWS Credentials Provider Service gave no credentials: " + e.getMessage(), e);
                }
            });
        }
        if (!context.getProperty(SSL_CONTEXT_SERVICE).isSet()) {
            return settings;
        }
        SSLContextProvider provider =
                context.getProperty(SSL_CONTEXT_SERVICE).asControllerService(SSLContextProvider.class);
        return settings.withTls(
                provider.createTrustManager(), provider.createKeyManager().orElse(null));
    }

    private static S3Credentials.Keys keys(AwsCredentials credentials) {
        return new S3Credentials.Keys(
                credentials.accessKeyId(),
                credentials.secretAccessKey(),
                credentials instanceof AwsSessionCredentials session ? session.sessionToken() : null);
    }

    static S3AuthenticationStrategy strategy(PropertyContext context) {
        return context.getProperty(AUTHENTICATION_STRATEGY).asAllowableValue(S3AuthenticationStrategy.class);
    }

    /** A one-line summary for verification results. */
    static String describe(S3StorageSettings settings, S3AuthenticationStrategy strategy) {
        return settings.location() + (settings.endpoint() == null ? " on Amazon S3" : " at " + settings.endpoint())
                + (settings.region() == null ? "" : " in " + settings.region())
                + ", data files "
                + (settings.storageClass() == null ? "in the bucket's default class" : "in " + settings.storageClass())
                + ", compaction minimum object age " + settings.effectiveMinimumObjectAge()
                + (settings.minimumObjectAge() == null && settings.storageClass() != null
                        ? " (the class's minimum storage duration "
                                + ColdStorage.minimumStorageDuration(settings.storageClass()) + ")"
                        : "")
                + ", credentials from "
                + switch (strategy) {
                    case CREDENTIALS_SERVICE -> "the AWS Credentials Provider Service";
                    case ACCESS_KEYS -> "the S3 Access Key ID and Secret Access Key properties";
                    case DEFAULT_CHAIN -> "the AWS SDK's default chain";
                }
                + ", TLS trusting "
                + (settings.trustManager() == null
                        ? "the JVM's default trust store"
                        : "the SSL Context Service's trust store"
                                + (settings.keyManager() == null ? "" : ", presenting its client certificate"));
    }

    private static String value(PropertyContext context, PropertyDescriptor property) {
        String value =
                context.getProperty(property).evaluateAttributeExpressions().getValue();
        return value == null || value.isBlank() ? null : value.strip();
    }
}
