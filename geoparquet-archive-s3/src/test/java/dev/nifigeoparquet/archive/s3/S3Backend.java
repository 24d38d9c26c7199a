package dev.nifigeoparquet.archive.s3;

import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.testing.StorageBackend;
import dev.nifigeoparquet.archive.testing.TestFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Runs the storage-parameterised suites on S3Mock: the archive named by a local path lives under the prefix of
 * that path's string in a bucket of its own; a plain reader's view is downloaded into the path itself.
 *
 * <p>A bucket per archive, because S3Mock rewrites a bucket's whole key list on every write: in one shared bucket a
 * suite that copies hundreds of archives slows down with every copy.
 */
public final class S3Backend implements StorageBackend {

    private static S3Backend instance;

    /** Copies and downloads of many small objects, sent a few at a time: each is a round trip to S3Mock. */
    private static final int PARALLEL_REQUESTS = 4;

    private final S3MockServer server;
    private final Map<String, String> buckets = new ConcurrentHashMap<>();
    private final ExecutorService requests = Executors.newFixedThreadPool(
            PARALLEL_REQUESTS, Thread.ofPlatform().daemon().factory());

    private S3Backend(S3MockServer server) {
        this.server = server;
    }

    public static synchronized S3Backend get() {
        if (instance == null) {
            instance = new S3Backend(S3MockServer.get0());
        }
        return instance;
    }

    private static String prefixOf(Path root) {
        return root.toAbsolutePath().normalize().toString().replaceAll("[^A-Za-z0-9/_.=-]", "_");
    }

    private S3Location location(Path root) {
        String prefix = prefixOf(root);
        return new S3Location(buckets.computeIfAbsent(prefix, p -> server.newBucket("archive")), prefix);
    }

    @Override
    public ArchiveStorage storage(Path root) {
        return server.storage(server.settings(location(root)));
    }

    @Override
    public Path copy(Path source, Path target) {
        S3Client client = server.client();
        S3Location from = location(source);
        S3Location to = location(target);
        List<Runnable> copies = new ArrayList<>();
        for (S3Object object : client.listObjectsV2Paginator(
                        b -> b.bucket(from.bucket()).prefix(from.prefix() + "/"))
                .contents()) {
            String relative = from.relative(object.key());
            copies.add(() -> client.copyObject(b -> b.sourceBucket(from.bucket())
                    .sourceKey(object.key())
                    .destinationBucket(to.bucket())
                    .destinationKey(to.key(relative))));
        }
        inParallel(copies);
        return target;
    }

    @Override
    public Path importTree(Path directory, Path target) throws IOException {
        server.upload(directory, location(target));
        return target;
    }

    @Override
    public void delete(Path root) throws IOException {
        S3Client client = server.client();
        S3Location location = location(root);
        List<ObjectIdentifier> keys = new ArrayList<>();
        for (S3Object object : client.listObjectsV2Paginator(
                        b -> b.bucket(location.bucket()).prefix(location.prefix() + "/"))
                .contents()) {
            keys.add(ObjectIdentifier.builder().key(object.key()).build());
        }
        for (int from = 0; from < keys.size(); from += 1000) {
            List<ObjectIdentifier> batch = keys.subList(from, Math.min(keys.size(), from + 1000));
            client.deleteObjects(b -> b.bucket(location.bucket()).delete(d -> d.objects(batch)));
        }
        client.deleteBucket(b -> b.bucket(location.bucket()));
        buckets.remove(prefixOf(root));
        TestFiles.deleteTree(root);
    }

    @Override
    public boolean serialisesRaces() {
        return false; // S3Mock checks If-None-Match and writes in two steps; S3 itself serialises them
    }

    @Override
    public Path plainReaderView(Path root) throws IOException {
        TestFiles.deleteTree(root);
        Files.createDirectories(root);
        S3Location location = location(root);
        S3Client client = server.client();
        List<Runnable> downloads = new ArrayList<>();
        for (S3Object object : client.listObjectsV2Paginator(
                        b -> b.bucket(location.bucket()).prefix(location.prefix() + "/"))
                .contents()) {
            String relative = location.relative(object.key());
            String[] parts = relative.split("/", -1);
            if (parts.length == 2
                    && parts[0].startsWith(ArchiveLayout.PARTITION_PREFIX)
                    && parts[1].endsWith(".parquet")) {
                Path file = root.resolve(parts[0]).resolve(parts[1]);
                Files.createDirectories(file.getParent());
                downloads.add(() -> client.getObject(
                        b -> b.bucket(location.bucket()).key(object.key()), ResponseTransformer.toFile(file)));
            }
        }
        inParallel(downloads);
        return root;
    }

    private void inParallel(List<Runnable> work) {
        List<Future<?>> running = work.stream().<Future<?>>map(requests::submit).toList();
        try {
            for (Future<?> request : running) {
                request.get();
            }
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RuntimeException runtime ? runtime : new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "S3Mock at " + server.endpoint();
    }
}
