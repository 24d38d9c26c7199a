package dev.nifigeoparquet.archive.s3;

import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.testing.StorageBackend;
import software.amazon.awssdk.core.sync.ResponseTransformer;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Runs the storage-parameterised suites on S3Mock: the archive named by a local path lives under the prefix of
 * that path's string in one bucket; a plain reader's view is downloaded into the path itself.
 */
public final class S3Backend implements StorageBackend {

    private static S3Backend instance;

    private final S3MockServer server;
    private final String bucket;

    private S3Backend(S3MockServer server) {
        this.server = server;
        this.bucket = server.newBucket("suites");
    }

    public static synchronized S3Backend get() {
        if (instance == null) {
            instance = new S3Backend(S3MockServer.get0());
        }
        return instance;
    }

    private S3Location location(Path root) {
        return new S3Location(bucket, root.toAbsolutePath().normalize().toString().replaceAll("[^A-Za-z0-9/_.=-]", "_"));
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
        for (S3Object object : client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(from.prefix() + "/")).contents()) {
            String relative = from.relative(object.key());
            client.copyObject(b -> b.sourceBucket(bucket).sourceKey(object.key()).destinationBucket(bucket).destinationKey(to.key(relative)));
        }
        return target;
    }

    @Override
    public boolean serialisesRaces() {
        return false; // S3Mock checks If-None-Match and writes in two steps; S3 itself serialises them
    }

    @Override
    public Path plainReaderView(Path root) throws IOException {
        if (Files.exists(root)) {
            try (Stream<Path> old = Files.walk(root)) {
                old.sorted(Comparator.reverseOrder()).forEach(path -> {
                    try {
                        Files.delete(path);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
            }
        }
        Files.createDirectories(root);
        S3Location location = location(root);
        S3Client client = server.client();
        for (S3Object object : client.listObjectsV2Paginator(b -> b.bucket(bucket).prefix(location.prefix() + "/")).contents()) {
            String relative = location.relative(object.key());
            String[] parts = relative.split("/");
            if (parts.length == 2 && parts[0].startsWith(ArchiveLayout.PARTITION_PREFIX) && parts[1].endsWith(".parquet")) {
                Path file = root.resolve(parts[0]).resolve(parts[1]);
                Files.createDirectories(file.getParent());
                client.getObject(b -> b.bucket(bucket).key(object.key()), ResponseTransformer.toFile(file));
            }
        }
        return root;
    }

    @Override
    public String toString() {
        return "S3Mock at " + server.endpoint();
    }
}
