package dev.nifigeoparquet.archive.s3;

import dev.nifigeoparquet.archive.error.ArchivedObjectException;
import dev.nifigeoparquet.archive.error.StorageAccessDeniedException;
import dev.nifigeoparquet.archive.error.StorageTlsException;
import dev.nifigeoparquet.archive.error.StorageUnavailableException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StorageMeter;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.EOFException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.net.SocketException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManager;
import org.apache.parquet.io.InputFile;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.ResponseBytes;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.exception.AbortedException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.S3ClientBuilder;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.CopyObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * {@link ArchiveStorage} on Amazon S3 or an S3-compatible object store, through the AWS SDK for Java v2.
 *
 * <p><b>Exclusive creation</b> is one {@code PUT} with {@code If-None-Match: *}: the store creates the object whole
 * or answers {@code 412 Precondition Failed} (here a {@link FileAlreadyExistsException}) when the key exists,
 * including when a concurrent writer's PUT won an instant earlier. That S3 guarantee is what makes two writers of the
 * same partition unable to both commit. A {@code 409 ConditionalRequestConflict} (a concurrent conditional write
 * still in flight) is reported the same way: this attempt did not commit, and the writer redoes it on the new state.
 *
 * <p><b>No rename</b>: a data file is uploaded at its final key before the commit. {@link #createStaged} for the
 * protocol's staging path {@code _geoparquet_archive/staging/<cell>/<name>.staged} first writes an empty
 * <em>staging record</em> at that path, then streams the data to {@code h3_cell=<cell>/<name>}. {@link #publish}
 * checks the data is there and removes the record; {@link #delete} of a staging path removes the record and the
 * data, which is how a lost or crashed attempt's files are cleaned up (recovery deletes unreferenced staging
 * records after the writer lease). Plain readers therefore see a data file from the end of its upload, before the
 * commit: see docs/archive-format.md, "Object stores". A staging path outside that pattern holds its data itself,
 * and is published by a server-side copy and a delete. Content that replaces a live file
 * ({@code <name>.replacement}) is such a path: it stays hidden until {@link #publishReplacing} copies it over the
 * live key, which S3 replaces whole.
 *
 * <p><b>Uploads</b> of up to one part are one PUT; larger ones are multipart uploads whose parts are sent as the
 * buffer fills, aborted when the upload fails.
 *
 * <p><b>Reads</b> are ranged GETs of exactly what Parquet asks for (and the file's last 64 KiB for the footer).
 * Before reading, the object's HEAD is checked: an object in a class that needs a restore is reported with
 * {@link ArchivedObjectException}, never read.
 *
 * <p><b>Costs</b>: every request is recorded in the {@link StorageMeter} measurements open on the calling thread.
 */
public final class S3ArchiveStorage implements ArchiveStorage, AutoCloseable {

    /** Above this many remembered object times, the memory of write and listing times is cleared (ages become unknown). */
    private static final int MAX_REMEMBERED_TIMES = 200_000;

    private final S3Client client;
    private final boolean ownsClient;
    private final S3StorageSettings settings;
    private final S3Location location;
    /** When objects were last written or listed, by archive path: the age of a deleted object, without a request. */
    private final Map<String, Instant> knownTimes = new ConcurrentHashMap<>();

    private S3ArchiveStorage(S3Client client, boolean ownsClient, S3StorageSettings settings) {
        this.client = Objects.requireNonNull(client, "client");
        this.ownsClient = ownsClient;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.location = settings.location();
    }

    /** Opens the storage with its own client, built from the settings; {@link #close} closes it. */
    public static S3ArchiveStorage open(S3StorageSettings settings) {
        return new S3ArchiveStorage(newClient(settings), true, settings);
    }

    /**
     * Uses a client built elsewhere (several archives sharing one connection pool). Requests are counted only if
     * the client was built with {@link #countingInterceptorConfiguration()}; the caller keeps owning the client.
     */
    public static S3ArchiveStorage withClient(S3Client client, S3StorageSettings settings) {
        return new S3ArchiveStorage(client, false, settings);
    }

    /** The client configuration that counts requests into {@link StorageMeter}. */
    public static ClientOverrideConfiguration countingInterceptorConfiguration() {
        return ClientOverrideConfiguration.builder()
                .addExecutionInterceptor(new RequestCounter())
                .build();
    }

    /** A client for these settings: the JDK's HTTP client (one dependency), request counting, path style for endpoint overrides. */
    public static S3Client newClient(S3StorageSettings settings) {
        UrlConnectionHttpClient.Builder http = UrlConnectionHttpClient.builder()
                .connectionTimeout(Duration.ofSeconds(10))
                .socketTimeout(Duration.ofSeconds(60));
        // Without them, the client keeps the JDK's defaults: its trust store, and the javax.net.ssl.keyStore if set.
        if (settings.trustManager() != null) {
            TrustManager[] trust = {settings.trustManager()};
            http.tlsTrustManagersProvider(() -> trust);
        }
        if (settings.keyManager() != null) {
            KeyManager[] keys = {settings.keyManager()};
            http.tlsKeyManagersProvider(() -> keys);
        }
        S3ClientBuilder builder = S3Client.builder()
                .httpClient(http.build())
                .overrideConfiguration(countingInterceptorConfiguration())
                .credentialsProvider(
                        settings.credentials() != null
                                ? sdkCredentials(settings.credentials())
                                : DefaultCredentialsProvider.builder().build());
        if (settings.region() != null && !settings.region().isBlank()) {
            builder.region(Region.of(settings.region().strip()));
        }
        if (settings.endpoint() != null) {
            // S3-compatible stores expect path-style requests, and many reject the trailing checksums the SDK sends to
            // AWS by default; checksums are then sent only where the API requires them.
            builder.endpointOverride(settings.endpoint())
                    .forcePathStyle(true)
                    .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                    .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED);
            if (settings.region() == null || settings.region().isBlank()) {
                builder.region(Region.US_EAST_1); // S3-compatible stores rarely care, but the signer needs one
            }
        }
        return builder.build();
    }

    /** Asks the engine's credentials before each request is signed, so credentials that rotate keep working. */
    private static AwsCredentialsProvider sdkCredentials(S3Credentials credentials) {
        return () -> {
            S3Credentials.Keys keys;
            try {
                keys = credentials.resolve();
            } catch (RuntimeException e) {
                throw new NoCredentialsException(e);
            }
            return keys.sessionToken() == null
                    ? AwsBasicCredentials.create(keys.accessKeyId(), keys.secretAccessKey())
                    : AwsSessionCredentials.create(keys.accessKeyId(), keys.secretAccessKey(), keys.sessionToken());
        };
    }

    /** The configured credentials could not be resolved: the request was never signed nor sent. */
    private static final class NoCredentialsException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NoCredentialsException(RuntimeException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** A request left unsent for want of credentials: the configuration must change, so an operator is needed. */
    private StorageAccessDeniedException noCredentials(String what, RuntimeException e) {
        return new StorageAccessDeniedException(
                "S3 request not sent, no credentials to sign it (" + what + " in " + describe() + "): "
                        + e.getMessage(),
                e);
    }

    /**
     * Whether the SDK gave up before sending because it had no credentials: ours could not be resolved, or its default
     * chain found none. No retry helps; the configuration must change.
     */
    private static boolean hadNoCredentials(SdkClientException e) {
        if (e.getMessage() != null && e.getMessage().startsWith("Unable to load credentials")) {
            return true;
        }
        for (Throwable cause = e.getCause(); cause != null && cause != cause.getCause(); cause = cause.getCause()) {
            if (cause instanceof NoCredentialsException) {
                return true;
            }
        }
        return false;
    }

    public S3Location location() {
        return location;
    }

    public S3StorageSettings settings() {
        return settings;
    }

    S3Client client() {
        return client;
    }

    // --- listing and metadata ---

    @Override
    public List<StoredObject> list(String directory) throws IOException {
        String prefix = directory.isEmpty() || directory.equals(".")
                ? location.key("")
                : location.key(stripSlashes(directory)) + "/";
        if (location.prefix().isEmpty() && (directory.isEmpty() || directory.equals("."))) {
            prefix = "";
        }
        List<StoredObject> objects = new ArrayList<>();
        String token = null;
        do {
            ListObjectsV2Request.Builder request = ListObjectsV2Request.builder()
                    .bucket(location.bucket())
                    .prefix(prefix)
                    .delimiter("/");
            if (token != null) {
                request.continuationToken(token);
            }
            ListObjectsV2Response response = call("list " + directory, () -> client.listObjectsV2(request.build()));
            for (S3Object object : response.contents()) {
                String path = location.relative(object.key());
                if (object.key().equals(prefix)) {
                    continue; // a "directory marker" object some tools create
                }
                remember(path, object.lastModified());
                objects.add(new StoredObject(path, object.size(), object.lastModified(), false));
            }
            for (CommonPrefix common : response.commonPrefixes()) {
                String path = stripSlashes(location.relative(common.prefix()));
                objects.add(new StoredObject(path, 0, Instant.EPOCH, true));
            }
            token = Boolean.TRUE.equals(response.isTruncated()) ? response.nextContinuationToken() : null;
        } while (token != null);
        objects.sort(Comparator.comparing(StoredObject::path));
        return objects;
    }

    @Override
    public StoredObject stat(String path) throws IOException {
        HeadObjectResponse head = head(path).orElseThrow(() -> new NoSuchFileException(describe() + "/" + path));
        return new StoredObject(path, head.contentLength(), head.lastModified(), false);
    }

    /** The HEAD of an object, empty when it does not exist. */
    Optional<HeadObjectResponse> head(String path) throws IOException {
        try {
            HeadObjectResponse response = call(
                    "stat " + path,
                    () -> client.headObject(b -> b.bucket(location.bucket()).key(location.key(path))));
            remember(path, response.lastModified());
            return Optional.of(response);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
    }

    /**
     * Objects under a directory (recursively) whose storage class needs a restore before they can be read, as a
     * listing shows them (one LIST request per 1000 objects). Intelligent-Tiering's archive tiers show only in an
     * object's HEAD; reads detect those.
     */
    public List<StoredObject> objectsNeedingRestore(String directory) throws IOException {
        String prefix = directory.isEmpty()
                ? (location.prefix().isEmpty() ? "" : location.key(""))
                : location.key(stripSlashes(directory)) + "/";
        List<StoredObject> cold = new ArrayList<>();
        String token = null;
        do {
            ListObjectsV2Request.Builder request =
                    ListObjectsV2Request.builder().bucket(location.bucket()).prefix(prefix);
            if (token != null) {
                request.continuationToken(token);
            }
            ListObjectsV2Response response = call("list " + directory, () -> client.listObjectsV2(request.build()));
            for (S3Object object : response.contents()) {
                if (ColdStorage.needsRestore(object.storageClassAsString())) {
                    cold.add(new StoredObject(
                            location.relative(object.key()), object.size(), object.lastModified(), false));
                }
            }
            token = Boolean.TRUE.equals(response.isTruncated()) ? response.nextContinuationToken() : null;
        } while (token != null);
        return cold;
    }

    // --- reading ---

    @Override
    public InputFile openInputFile(String path) throws IOException {
        HeadObjectResponse head = head(path).orElseThrow(() -> new NoSuchFileException(describe() + "/" + path));
        refuseIfArchived(path, head);
        return new S3InputFile(this, path, head.contentLength(), head.eTag());
    }

    private void refuseIfArchived(String path, HeadObjectResponse head) throws ArchivedObjectException {
        if (ColdStorage.needsRestore(head.storageClassAsString())
                && !ColdStorage.restoredCopyAvailable(head.restore())) {
            throw new ArchivedObjectException(
                    describe(),
                    path,
                    head.storageClassAsString(),
                    head.restore() == null
                            ? "has not been restored"
                            : "its restore is still in progress (" + head.restore() + ")");
        }
        if (ColdStorage.needsRestore(head.archiveStatus()) && !ColdStorage.restoredCopyAvailable(head.restore())) {
            throw new ArchivedObjectException(
                    describe(),
                    path,
                    "INTELLIGENT_TIERING (" + head.archiveStatusAsString() + ")",
                    "has not been restored");
        }
    }

    @Override
    public byte[] readAllBytes(String path) throws IOException {
        ResponseBytes<GetObjectResponse> bytes = call(
                "read " + path,
                () -> client.getObjectAsBytes(b -> b.bucket(location.bucket()).key(location.key(path))));
        StorageMeter.recordDownloaded(bytes.asByteArrayUnsafe().length);
        return bytes.asByteArray();
    }

    /** One ranged GET of {@code length} bytes at {@code offset}, into {@code target}; the ETag pins the version read. */
    void readRange(String path, String eTag, long offset, byte[] target, int targetOffset, int length)
            throws IOException {
        GetObjectRequest request = GetObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key(path))
                .range("bytes=" + offset + "-" + (offset + length - 1))
                .ifMatch(eTag)
                .build();
        ResponseBytes<GetObjectResponse> bytes;
        try {
            bytes = call("read " + path, () -> client.getObjectAsBytes(request));
        } catch (FileAlreadyExistsException changed) {
            // 412 on a read: the ETag no longer matches. A commit replaced the file in place (section 5.3) since it was
            // opened: reported as a vanished file, which the caller takes for a superseded one and re-reads the state
            // (and for damage when no newer commit explains it).
            NoSuchFileException replaced = new NoSuchFileException(
                    describe() + "/" + path,
                    null,
                    "replaced while it was being read (its ETag is no longer " + eTag + ")");
            replaced.initCause(changed);
            throw replaced;
        }
        byte[] data = bytes.asByteArrayUnsafe();
        StorageMeter.recordDownloaded(data.length);
        if (data.length != length) {
            throw new IOException("Ranged read of " + describe() + "/" + path + " at " + offset + " returned "
                    + data.length + " bytes instead of " + length);
        }
        System.arraycopy(data, 0, target, targetOffset, length);
    }

    // --- writing ---

    @Override
    public void createExclusive(String path, byte[] content) throws IOException {
        putIfAbsent(path, content, null);
        remember(path, Instant.now());
    }

    /** One PUT with If-None-Match: *; a 412 (or 409) means the key exists or is being created by another writer. */
    void putIfAbsent(String path, byte[] content, StorageClass storageClass) throws IOException {
        PutObjectRequest.Builder request = PutObjectRequest.builder()
                .bucket(location.bucket())
                .key(location.key(path))
                .ifNoneMatch("*");
        if (storageClass != null) {
            request.storageClass(storageClass);
        }
        call("createExclusive " + path, () -> client.putObject(request.build(), RequestBody.fromBytes(content)));
        StorageMeter.recordUploaded(content.length);
    }

    @Override
    public OutputStream createStaged(String path) throws IOException {
        Optional<String> finalPath = finalPathOfStaged(path);
        if (finalPath.isEmpty()) {
            // New content of a live file, which lives in staging until publishing copies it onto the file's key (in the
            // configured class there): deleted within moments, so STANDARD, which bills no minimum duration.
            return new S3UploadStream(this, path, null, settings.partSizeBytes());
        }
        // The staging record first: if this process dies during the upload, recovery finds the record after the
        // lease and deletes whatever of the data file landed.
        putIfAbsent(path, new byte[0], null);
        remember(path, Instant.now());
        return new S3UploadStream(this, finalPath.get(), storageClassOf(finalPath.get()), settings.partSizeBytes());
    }

    /**
     * The configured class for a partition's data file; STANDARD for the key index's files, which are read on every
     * write and superseded within days (section 12.4).
     */
    private StorageClass storageClassOf(String finalPath) {
        return finalPath.startsWith(ArchiveLayout.PARTITION_PREFIX) && settings.storageClass() != null
                ? StorageClass.fromValue(settings.storageClass())
                : null;
    }

    @Override
    public void publish(String stagedPath, String finalPath) throws IOException {
        Optional<String> uploadedAt = finalPathOfStaged(stagedPath);
        if (uploadedAt.isPresent() && uploadedAt.get().equals(finalPath)) {
            if (head(finalPath).isEmpty()) {
                throw new NoSuchFileException(
                        describe() + "/" + finalPath,
                        describe() + "/" + stagedPath,
                        "the data file was never uploaded at its final key");
            }
            deleteKey(stagedPath);
            return;
        }
        Optional<HeadObjectResponse> staged = head(stagedPath);
        if (staged.isEmpty()) {
            if (head(finalPath).isPresent()) {
                return; // already published by an earlier, interrupted attempt
            }
            throw new NoSuchFileException(
                    describe() + "/" + stagedPath,
                    describe() + "/" + finalPath,
                    "staged file missing and not published");
        }
        if (head(finalPath).isPresent()) {
            throw new FileAlreadyExistsException(describe() + "/" + finalPath);
        }
        CopyObjectRequest.Builder copy = CopyObjectRequest.builder()
                .sourceBucket(location.bucket())
                .sourceKey(location.key(stagedPath))
                .destinationBucket(location.bucket())
                .destinationKey(location.key(finalPath));
        if (storageClassOf(finalPath) != null) {
            copy.storageClass(storageClassOf(finalPath));
        }
        call("publish " + finalPath, () -> client.copyObject(copy.build()));
        remember(finalPath, Instant.now());
        deleteKey(stagedPath);
    }

    /**
     * A server-side copy of the staged object onto the final key: S3 replaces an object whole, so a reader's GET returns
     * the old content or the new. The replaced object counts as deleted (an early deletion for a cold storage class).
     */
    @Override
    public void publishReplacing(String stagedPath, String finalPath) throws IOException {
        if (head(stagedPath).isEmpty()) {
            return; // published by an earlier, interrupted attempt
        }
        CopyObjectRequest.Builder copy = CopyObjectRequest.builder()
                .sourceBucket(location.bucket())
                .sourceKey(location.key(stagedPath))
                .destinationBucket(location.bucket())
                .destinationKey(location.key(finalPath));
        if (storageClassOf(finalPath) != null) {
            copy.storageClass(storageClassOf(finalPath));
        }
        Instant replacedWritten = knownTimes.get(finalPath);
        call("publishReplacing " + finalPath, () -> client.copyObject(copy.build()));
        StorageMeter.recordDeletedObject(
                finalPath, replacedWritten == null ? null : Duration.between(replacedWritten, Instant.now()));
        remember(finalPath, Instant.now());
        deleteKey(stagedPath);
    }

    @Override
    public void delete(String path) throws IOException {
        Optional<String> finalPath = finalPathOfStaged(path);
        if (finalPath.isPresent()) {
            // Discarding a staged file: its data lives at the final key, which no commit references.
            deleteKey(finalPath.get());
        }
        deleteKey(path);
    }

    private void deleteKey(String path) throws IOException {
        Instant written = knownTimes.remove(path);
        call(
                "delete " + path,
                () -> client.deleteObject(b -> b.bucket(location.bucket()).key(location.key(path))));
        StorageMeter.recordDeletedObject(path, written == null ? null : Duration.between(written, Instant.now()));
    }

    @Override
    public String describe() {
        return location.toString();
    }

    @Override
    public Duration minimumObjectAge() {
        return settings.effectiveMinimumObjectAge();
    }

    @Override
    public void close() {
        if (ownsClient) {
            client.close();
        }
    }

    @Override
    public String toString() {
        return "S3ArchiveStorage[" + location + (settings.endpoint() == null ? "" : " at " + settings.endpoint())
                + (settings.storageClass() == null ? "" : ", " + settings.storageClass()) + "]";
    }

    // --- helpers ---

    /**
     * The final data-file path of a protocol staging path ({@code _geoparquet_archive/staging/<cell>/<name>.staged}
     * becomes {@code h3_cell=<cell>/<name>}, or the key-index directory for index shards); empty for other paths.
     */
    static Optional<String> finalPathOfStaged(String path) {
        String prefix = ArchiveLayout.STAGING_DIRECTORY + "/";
        if (!path.startsWith(prefix) || !path.endsWith(ArchiveLayout.STAGED_SUFFIX)) {
            return Optional.empty();
        }
        String rest = path.substring(prefix.length(), path.length() - ArchiveLayout.STAGED_SUFFIX.length());
        int slash = rest.indexOf('/');
        if (slash < 0) {
            return Optional.empty();
        }
        try {
            String cell = rest.substring(0, slash);
            String name = rest.substring(slash + 1);
            if (!ArchiveLayout.stagedFile(cell, name).equals(path)) {
                return Optional.empty();
            }
            return Optional.of(ArchiveLayout.dataFile(cell, name));
        } catch (IllegalArgumentException notAProtocolPath) {
            return Optional.empty();
        }
    }

    void remember(String path, Instant time) {
        if (time == null) {
            return;
        }
        if (knownTimes.size() > MAX_REMEMBERED_TIMES) {
            knownTimes.clear();
        }
        knownTimes.put(path, time);
    }

    private static String stripSlashes(String path) {
        String stripped = path;
        while (stripped.startsWith("/")) {
            stripped = stripped.substring(1);
        }
        while (stripped.endsWith("/")) {
            stripped = stripped.substring(0, stripped.length() - 1);
        }
        return stripped;
    }

    @FunctionalInterface
    interface S3Call<T> {
        T run();
    }

    /**
     * Runs one SDK call, translating S3's answers into the storage contract's exceptions, each of the kind the engine
     * classifies ({@link dev.nifigeoparquet.archive.error.FailureKind}): a missing key, a refused conditional write, an
     * object in an archive class, a refused permission, and throttling, server errors and unreachable endpoints as a
     * storage unavailable for now. Anything else is passed on as a plain failure of no known kind.
     */
    <T> T call(String what, S3Call<T> action) throws IOException {
        try {
            return action.run();
        } catch (NoSuchKeyException e) {
            throw noSuchFile(what, e);
        } catch (S3Exception e) {
            int status = e.statusCode();
            String code = errorCode(e);
            if (status == 404) {
                throw noSuchFile(what, e);
            }
            if (status == 412 || (status == 409 && "ConditionalRequestConflict".equals(code))) {
                FileAlreadyExistsException exists = new FileAlreadyExistsException(
                        describe() + ": " + what,
                        null,
                        status == 412
                                ? "the object already exists (412 Precondition Failed)"
                                : "a concurrent conditional write of the object is in progress (409 ConditionalRequestConflict)");
                exists.initCause(e);
                throw exists;
            }
            if (status == 403 && "InvalidObjectState".equals(code)) {
                String path = what.substring(what.indexOf(' ') + 1);
                ArchivedObjectException archived =
                        new ArchivedObjectException(describe(), path, "an archive class", "has not been restored");
                archived.initCause(e);
                throw archived;
            }
            if (status == 403 || status == 401) {
                throw new StorageAccessDeniedException(
                        "S3 refused " + what + " in " + describe() + " (" + status + " " + code + "): "
                                + e.getMessage(),
                        e);
            }
            if (e.isThrottlingException() || status >= 500 || status == 409 || "RequestTimeout".equals(code)) {
                throw new StorageUnavailableException(
                        "S3 could not serve " + what + " in " + describe() + " for now (" + status + " " + code + "): "
                                + e.getMessage(),
                        e);
            }
            throw new IOException("S3 request failed (" + what + " in " + describe() + "): " + e.getMessage(), e);
        } catch (NoCredentialsException e) {
            throw noCredentials(what, e);
        } catch (AbortedException e) {
            InterruptedIOException interrupted = new InterruptedIOException("S3 request interrupted (" + what + ")");
            interrupted.initCause(e);
            throw interrupted;
        } catch (SdkClientException e) {
            if (hadNoCredentials(e)) {
                throw noCredentials(what, e);
            }
            if (refusedHandshake(e)) {
                throw new StorageTlsException(
                        "TLS handshake with " + endpointName() + " failed (" + what + " in " + describe() + "): "
                                + e.getMessage(),
                        e);
            }
            // The request did not get an answer: the endpoint is unreachable, the connection was reset or timed out.
            throw new StorageUnavailableException(
                    "S3 request got no answer (" + what + " in " + describe() + "): " + e.getMessage(), e);
        }
    }

    /** The endpoint requests go to, as an operator configured it. */
    private String endpointName() {
        return settings.endpoint() != null ? settings.endpoint().toString() : "Amazon S3";
    }

    /**
     * Whether a request failed in a TLS handshake that fails again as long as the trust or key material stays the
     * same: an untrusted or misnamed certificate, a refused client certificate. A handshake cut short by a broken
     * connection is not one.
     */
    static boolean refusedHandshake(Throwable failure) {
        boolean handshake = false;
        Throwable current = failure;
        for (int depth = 0; current != null && depth < 32; depth++) {
            if (current instanceof SSLHandshakeException) {
                handshake = true;
            } else if (handshake && (current instanceof SocketException || current instanceof EOFException)) {
                return false;
            }
            current = current.getCause() == current ? null : current.getCause();
        }
        return handshake;
    }

    private NoSuchFileException noSuchFile(String what, Exception cause) {
        NoSuchFileException missing = new NoSuchFileException(describe() + ": " + what);
        missing.initCause(cause);
        return missing;
    }

    private static String errorCode(S3Exception e) {
        return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    }
}
