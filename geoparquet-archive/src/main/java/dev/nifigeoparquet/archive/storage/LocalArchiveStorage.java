package dev.nifigeoparquet.archive.storage;

import org.apache.parquet.io.InputFile;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * {@link ArchiveStorage} on a local (or POSIX network) filesystem.
 *
 * <p>Exclusive creation writes a temporary file, forces it to disk, and hard-links it to the target name:
 * {@code link(2)} fails when the target exists and never replaces it, so a second writer of the same name
 * fails, and readers never see a partially written object. The directory is forced after each link so the
 * new name survives a crash.
 */
public final class LocalArchiveStorage implements ArchiveStorage {

    private final Path root;

    public LocalArchiveStorage(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    /** Resolves a relative archive path, refusing anything that would leave the root. */
    public Path resolve(String path) {
        Path resolved = root.resolve(path).normalize();
        if (!resolved.startsWith(root)) {
            throw new IllegalArgumentException("Path '" + path + "' lies outside the archive root " + root);
        }
        return resolved;
    }

    @Override
    public List<StoredObject> list(String directory) throws IOException {
        Path dir = resolve(directory);
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        List<StoredObject> objects = new ArrayList<>();
        try (Stream<Path> children = Files.list(dir)) {
            for (Path child : (Iterable<Path>) children::iterator) {
                try {
                    objects.add(toStoredObject(child));
                } catch (NoSuchFileException vanished) {
                    // Deleted between listing and stat: it is simply not there any more.
                }
            }
        }
        objects.sort(Comparator.comparing(StoredObject::path));
        return objects;
    }

    @Override
    public StoredObject stat(String path) throws IOException {
        return toStoredObject(resolve(path));
    }

    private StoredObject toStoredObject(Path file) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String relative = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
        return new StoredObject(relative, attributes.isDirectory() ? 0 : attributes.size(),
                attributes.lastModifiedTime().toInstant(), attributes.isDirectory());
    }

    /** Reads one version of the file, even when a commit publishes new content over its name meanwhile. */
    @Override
    public InputFile openInputFile(String path) throws IOException {
        Path file = resolve(path);
        if (!Files.isRegularFile(file)) {
            throw new NoSuchFileException(file.toString());
        }
        return new PinnedLocalInputFile(file);
    }

    @Override
    public byte[] readAllBytes(String path) throws IOException {
        return Files.readAllBytes(resolve(path));
    }

    @Override
    public void createExclusive(String path, byte[] content) throws IOException {
        Path target = resolve(path);
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(target.toString());
        }
        // The temporary name sits beside the target (a hard link cannot cross file systems) and never ends in
        // ".parquet"; recovery removes it after the writer lease if this process dies before the link.
        createParentDirectories(target);
        Path temp = target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                channel.write(java.nio.ByteBuffer.wrap(content));
                channel.force(true);
            }
            Files.createLink(target, temp);
            forceDirectory(target.getParent());
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    @Override
    public OutputStream createStaged(String path) throws IOException {
        Path target = resolve(path);
        createParentDirectories(target);
        FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new FilterOutputStream(Channels.newOutputStream(channel)) {
            private boolean closed;

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                out.write(bytes, offset, length);
            }

            @Override
            public void close() throws IOException {
                if (closed) {
                    return;
                }
                closed = true;
                try (channel) {
                    out.flush();
                    channel.force(true);
                }
                forceDirectory(target.getParent());
            }
        };
    }

    @Override
    public void publish(String stagedPath, String finalPath) throws IOException {
        Path staged = resolve(stagedPath);
        Path target = resolve(finalPath);
        if (!Files.exists(staged, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                return; // already published by an earlier, interrupted attempt
            }
            throw new NoSuchFileException(staged.toString(), target.toString(), "staged file missing and not published");
        }
        createParentDirectories(target);
        try {
            Files.createLink(target, staged);
        } catch (FileAlreadyExistsException e) {
            if (!publishedAlready(staged, target)) {
                throw e;
            }
        } catch (NoSuchFileException e) {
            // Another process publishing the same commit (both recovering it) linked and removed the staged name first.
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                return;
            }
            throw e;
        }
        forceDirectory(target.getParent());
        Files.deleteIfExists(staged);
    }

    /**
     * {@code rename(2)} of the staged file onto the target: the one call that replaces a name atomically. Both names
     * are under the root, on one file system.
     */
    @Override
    public void publishReplacing(String stagedPath, String finalPath) throws IOException {
        Path staged = resolve(stagedPath);
        Path target = resolve(finalPath);
        if (!Files.exists(staged, LinkOption.NOFOLLOW_LINKS)) {
            return; // published by an earlier, interrupted attempt (or a concurrent recovery)
        }
        createParentDirectories(target);
        try {
            Files.move(staged, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (NoSuchFileException concurrentlyPublished) {
            return;
        }
        forceDirectory(target.getParent());
        forceDirectory(staged.getParent());
    }

    /** The target is the staged file itself, or the staged name is gone because a concurrent publisher finished. */
    private static boolean publishedAlready(Path staged, Path target) throws IOException {
        try {
            return Files.isSameFile(target, staged);
        } catch (NoSuchFileException stagedGone) {
            return Files.exists(target, LinkOption.NOFOLLOW_LINKS);
        }
    }

    @Override
    public void delete(String path) throws IOException {
        Path file = resolve(path);
        if (Files.deleteIfExists(file)) {
            forceDirectory(file.getParent());
        }
    }

    @Override
    public String describe() {
        return root.toString();
    }

    private static void createParentDirectories(Path file) throws IOException {
        Path parent = file.getParent();
        if (!Files.isDirectory(parent)) {
            Files.createDirectories(parent);
            forceDirectory(parent.getParent());
        }
    }

    /** Makes a directory's entries durable; without it a new name may vanish after a power loss. */
    private static void forceDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
