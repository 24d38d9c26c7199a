package dev.nifigeoparquet.processors.service;

import dev.nifigeoparquet.archive.s3.ColdStorage;
import dev.nifigeoparquet.archive.s3.S3Location;
import dev.nifigeoparquet.archive.s3.S3StorageSettings;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.nifi.components.AllowableValue;
import org.apache.nifi.components.PropertyDescriptor;
import org.apache.nifi.context.PropertyContext;
import org.apache.nifi.expression.ExpressionLanguageScope;
import org.apache.nifi.processor.DataUnit;
import org.apache.nifi.processor.util.StandardValidators;
import org.apache.nifi.ssl.SSLContextProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * The archive service's properties for an archive on S3 or an S3-compatible store (an Archive Root of the form
 * {@code s3://bucket/prefix}), and their translation into the engine's {@link S3StorageSettings}.
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
                    storageClass(StorageClass.STANDARD, "No minimum storage duration and no retrieval fee."),
                    storageClass(
                            StorageClass.STANDARD_IA,
                            "Cheaper storage with a retrieval fee per GB and a 30-day minimum storage duration."),
                    storageClass(
                            StorageClass.ONEZONE_IA,
                            "Like Standard-IA, kept in one availability zone only: cheaper, lost with the zone."),
                    storageClass(
                            StorageClass.INTELLIGENT_TIERING,
                            "S3 moves each object between access tiers by its use; leave the bucket's opt-in archive"
                                    + " tiers off, since their objects need a restore before they can be read."),
                    storageClass(
                            StorageClass.GLACIER_IR,
                            "Glacier Instant Retrieval: the cheapest class still read without a restore, with a"
                                    + " retrieval fee and a 90-day minimum storage duration."))
            .defaultValue(BUCKET_DEFAULT)
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    private static AllowableValue storageClass(StorageClass storageClass, String description) {
        return new AllowableValue(storageClass.toString(), storageClass.toString(), description);
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

    static final PropertyDescriptor ACCESS_KEY_ID = new PropertyDescriptor.Builder()
            .name("S3 Access Key ID")
            .description(
                    "Access key for the bucket. Leave S3 Access Key ID and S3 Secret Access Key empty to use the AWS default"
                            + " credentials chain (environment variables, the profile file, web identity, container or instance role).")
            .required(false)
            .sensitive(true)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    static final PropertyDescriptor SECRET_ACCESS_KEY = new PropertyDescriptor.Builder()
            .name("S3 Secret Access Key")
            .description("Secret key belonging to S3 Access Key ID.")
            .required(false)
            .sensitive(true)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    static final PropertyDescriptor SESSION_TOKEN = new PropertyDescriptor.Builder()
            .name("S3 Session Token")
            .description("Session token of temporary credentials, with S3 Access Key ID and S3 Secret Access Key.")
            .required(false)
            .sensitive(true)
            .expressionLanguageSupported(ExpressionLanguageScope.ENVIRONMENT)
            .addValidator(StandardValidators.NON_BLANK_VALIDATOR)
            .dependsOn(ARCHIVE_STORAGE, ArchiveStorageType.S3)
            .build();

    static final List<PropertyDescriptor> PROPERTIES = List.of(
            ENDPOINT_OVERRIDE,
            SSL_CONTEXT_SERVICE,
            REGION,
            STORAGE_CLASS,
            MINIMUM_OBJECT_AGE,
            PART_SIZE,
            ACCESS_KEY_ID,
            SECRET_ACCESS_KEY,
            SESSION_TOKEN);

    /** Problems with the S3 properties that need no request to find; empty when they are consistent. */
    static List<String> problems(PropertyContext context) {
        List<String> problems = new ArrayList<>();
        boolean access = isSet(context, ACCESS_KEY_ID);
        boolean secret = isSet(context, SECRET_ACCESS_KEY);
        if (access != secret) {
            problems.add(
                    "S3 Access Key ID and S3 Secret Access Key must be set together, or both left empty for the default credentials chain");
        }
        if (isSet(context, SESSION_TOKEN) && !access) {
            problems.add("S3 Session Token needs S3 Access Key ID and S3 Secret Access Key");
        }
        return problems;
    }

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
            settings = settings.withStorageClass(StorageClass.fromValue(storageClass));
        }
        if (context.getProperty(MINIMUM_OBJECT_AGE).isSet()) {
            settings = settings.withMinimumObjectAge(
                    Duration.ofMillis(context.getProperty(MINIMUM_OBJECT_AGE).asTimePeriod(TimeUnit.MILLISECONDS)));
        }
        Double partSize = context.getProperty(PART_SIZE).asDataSize(DataUnit.B);
        if (partSize != null) {
            settings = settings.withPartSizeBytes(partSize.intValue());
        }
        String access = value(context, ACCESS_KEY_ID);
        String secret = value(context, SECRET_ACCESS_KEY);
        if (access != null && secret != null) {
            String token = value(context, SESSION_TOKEN);
            settings = settings.withCredentials(StaticCredentialsProvider.create(
                    token == null
                            ? AwsBasicCredentials.create(access, secret)
                            : AwsSessionCredentials.create(access, secret, token)));
        }
        return settings;
    }

    /**
     * The settings with the SSL Context Service's trust and key material, when one is set. Only an enabled SSL Context
     * Service gives its material, so validation, which must not depend on it, works on the settings without it.
     */
    static S3StorageSettings withTls(PropertyContext context, S3StorageSettings settings) {
        if (!context.getProperty(SSL_CONTEXT_SERVICE).isSet()) {
            return settings;
        }
        SSLContextProvider provider =
                context.getProperty(SSL_CONTEXT_SERVICE).asControllerService(SSLContextProvider.class);
        return settings.withTls(
                provider.createTrustManager(), provider.createKeyManager().orElse(null));
    }

    /** A one-line summary for verification results. */
    static String describe(S3StorageSettings settings) {
        return settings.location() + (settings.endpoint() == null ? " on Amazon S3" : " at " + settings.endpoint())
                + (settings.region() == null ? "" : " in " + settings.region())
                + ", data files "
                + (settings.storageClass() == null ? "in the bucket's default class" : "in " + settings.storageClass())
                + ", compaction minimum object age " + settings.effectiveMinimumObjectAge()
                + (settings.minimumObjectAge() == null && settings.storageClass() != null
                        ? " (the class's minimum storage duration "
                                + ColdStorage.minimumStorageDuration(settings.storageClass()) + ")"
                        : "")
                + ", credentials "
                + (settings.credentials() == null ? "from the default chain" : "from the service's properties")
                + ", TLS trusting "
                + (settings.trustManager() == null
                        ? "the JVM's default trust store"
                        : "the SSL Context Service's trust store"
                                + (settings.keyManager() == null ? "" : ", presenting its client certificate"));
    }

    private static boolean isSet(PropertyContext context, PropertyDescriptor property) {
        return value(context, property) != null;
    }

    private static String value(PropertyContext context, PropertyDescriptor property) {
        String value =
                context.getProperty(property).evaluateAttributeExpressions().getValue();
        return value == null || value.isBlank() ? null : value.strip();
    }
}
