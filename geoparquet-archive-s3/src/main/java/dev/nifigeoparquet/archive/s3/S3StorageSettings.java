package dev.nifigeoparquet.archive.s3;

import dev.nifigeoparquet.archive.error.RejectedInputException;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.X509KeyManager;
import javax.net.ssl.X509TrustManager;

/**
 * How to reach an archive on S3 or an S3-compatible store, in the engine's own terms: no AWS SDK type appears here,
 * so a caller whose runtime carries another AWS SDK (a NiFi bundle beneath the AWS credentials service API) can
 * configure the storage without sharing the engine's.
 *
 * @param location          the archive root, {@code s3://bucket/prefix}
 * @param endpoint          endpoint override for S3-compatible stores (MinIO, Ceph RGW, R2...), or null for AWS S3;
 *                          an override also switches to path-style requests, which those stores expect
 * @param region            the bucket's region, or null for the SDK's region provider chain (environment, profile)
 * @param storageClass      storage class of new data files by S3's name ({@code STANDARD_IA}); null for the
 *                          bucket's default (STANDARD). Commit entries,
 *                          the descriptor and staging records are always written as STANDARD: they are small,
 *                          read on every write and pruned within days
 * @param credentials       where credentials come from; the AWS SDK's default chain (environment, profile, web
 *                          identity, container or instance role) when null
 * @param partSizeBytes     data files are uploaded in one PUT up to this size, in multipart uploads of parts of this
 *                          size beyond it; at least 5 MiB (S3's minimum part size). Each open writer buffers one part
 * @param minimumObjectAge  how old a data file must be before compaction may delete it; null for the minimum storage
 *                          duration of {@code storageClass} (no early-deletion charges), zero to allow them
 * @param trustManager      decides which certificates of an HTTPS endpoint are trusted, for a store whose certificate
 *                          a private certificate authority signed; null for the JVM's default trust store
 * @param keyManager        the client certificate presented to an endpoint that asks for one (mutual TLS); null for
 *                          the JVM's default key store ({@code javax.net.ssl.keyStore}), usually none
 */
public record S3StorageSettings(
        S3Location location,
        URI endpoint,
        String region,
        String storageClass,
        S3Credentials credentials,
        int partSizeBytes,
        Duration minimumObjectAge,
        X509TrustManager trustManager,
        X509KeyManager keyManager) {

    /** S3's smallest part size for every part of a multipart upload but the last. */
    public static final int MIN_PART_SIZE = 5 * 1024 * 1024;
    /** Defaults to 8 MiB: a typical 128 MiB data file takes 16 parts, and a writer buffers 8 MiB. */
    public static final int DEFAULT_PART_SIZE = 8 * 1024 * 1024;

    public S3StorageSettings {
        Objects.requireNonNull(location, "location");
        if (partSizeBytes < MIN_PART_SIZE) {
            throw new IllegalArgumentException(
                    "Part size " + partSizeBytes + " bytes is below S3's minimum part size " + MIN_PART_SIZE);
        }
        if (storageClass != null && !ColdStorage.isKnownClass(storageClass)) {
            throw new RejectedInputException(
                    "Unknown S3 storage class '" + storageClass + "'; S3's names are " + ColdStorage.knownClasses());
        }
        if (storageClass != null && ColdStorage.needsRestore(storageClass)) {
            throw new RejectedInputException("Storage class " + storageClass
                    + " cannot hold an archive's data files: its objects cannot be read without a restore");
        }
        if (minimumObjectAge != null && minimumObjectAge.isNegative()) {
            throw new IllegalArgumentException("Minimum object age must not be negative, was " + minimumObjectAge);
        }
    }

    /** AWS S3 at this location, with the default region and credential chains and the default part size. */
    public static S3StorageSettings of(S3Location location) {
        return new S3StorageSettings(location, null, null, null, null, DEFAULT_PART_SIZE, null, null, null);
    }

    public S3StorageSettings withEndpoint(URI value) {
        return new S3StorageSettings(
                location,
                value,
                region,
                storageClass,
                credentials,
                partSizeBytes,
                minimumObjectAge,
                trustManager,
                keyManager);
    }

    public S3StorageSettings withRegion(String value) {
        return new S3StorageSettings(
                location,
                endpoint,
                value,
                storageClass,
                credentials,
                partSizeBytes,
                minimumObjectAge,
                trustManager,
                keyManager);
    }

    public S3StorageSettings withStorageClass(String value) {
        return new S3StorageSettings(
                location,
                endpoint,
                region,
                value,
                credentials,
                partSizeBytes,
                minimumObjectAge,
                trustManager,
                keyManager);
    }

    public S3StorageSettings withCredentials(S3Credentials value) {
        return new S3StorageSettings(
                location,
                endpoint,
                region,
                storageClass,
                value,
                partSizeBytes,
                minimumObjectAge,
                trustManager,
                keyManager);
    }

    public S3StorageSettings withPartSizeBytes(int value) {
        return new S3StorageSettings(
                location,
                endpoint,
                region,
                storageClass,
                credentials,
                value,
                minimumObjectAge,
                trustManager,
                keyManager);
    }

    public S3StorageSettings withMinimumObjectAge(Duration value) {
        return new S3StorageSettings(
                location, endpoint, region, storageClass, credentials, partSizeBytes, value, trustManager, keyManager);
    }

    public S3StorageSettings withLocation(S3Location value) {
        return new S3StorageSettings(
                value,
                endpoint,
                region,
                storageClass,
                credentials,
                partSizeBytes,
                minimumObjectAge,
                trustManager,
                keyManager);
    }

    /** The endpoint's TLS material: whom to trust, and the client certificate to present if any (may be null). */
    public S3StorageSettings withTls(X509TrustManager trust, X509KeyManager key) {
        return new S3StorageSettings(
                location, endpoint, region, storageClass, credentials, partSizeBytes, minimumObjectAge, trust, key);
    }

    /** The effective minimum age: the configured one, or the storage class's minimum storage duration. */
    public Duration effectiveMinimumObjectAge() {
        return minimumObjectAge != null ? minimumObjectAge : ColdStorage.minimumStorageDuration(storageClass);
    }
}
