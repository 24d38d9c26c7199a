package dev.nifigeoparquet.archive.storage;

import dev.nifigeoparquet.archive.error.BatchCreationException;
import dev.nifigeoparquet.archive.error.StorageFullException;
import dev.nifigeoparquet.archive.error.StorageUnavailableException;
import java.io.BufferedOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
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
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.apache.parquet.io.InputFile;

/**
 * {@link ArchiveStorage} on a local (or POSIX network) filesystem.
 *
 * <p>Exclusive creation writes a temporary file, forces it to disk, and hard-links it to the target name:
 * {@code link(2)} fails when the target exists and never replaces it, so a second writer of the same name
 * fails, and readers never see a partially written object. The directory is forced after each link so the
 * new name survives a crash.
 *
 * <p>Forcing is what costs: each {@code fsync(2)} waits for the file system's journal, a few milliseconds on a
 * virtual disk. Work that makes many objects durable does it together ({@link #sync}, {@link #createExclusiveAll}):
 * every file and directory forced at once from its own thread, so the journal commits them in a few rounds
 * instead of one round each. A file opened with {@link #createStagedDeferred} starts being forced as soon as it is
 * closed, so the disk writes it out while the operation writes its next files, and {@link #sync} mostly waits for
 * forces already done.
 */
public final class LocalArchiveStorage implements ArchiveStorage {

    /** Parquet writers emit small pieces; this many bytes are gathered per system call. */
    private static final int WRITE_BUFFER_BYTES = 64 * 1024;

    /** Forcing threads: they only wait on the disk. */
    private static final ExecutorService FORCING = Executors.newVirtualThreadPerTaskExecutor();

    /** A write that fails while the file system has less room than this is taken for a full disk. */
    static final long FULL_BELOW_BYTES = 1L << 20;

    private final Path root;
    /** The room left on the file system of a path; the file store's usable space. */
    private final UsableSpace usableSpace;

    /**
     * Whether a file has been read under the root. From then on the root holds an archive, so a root that is gone or
     * empty is storage that is not reachable (an unmounted share, a removed disk), never an empty archive to write into.
     */
    private volatile boolean readOnce;

    /** Forces begun when deferred files were closed, until {@link #sync} collects them or the file is deleted. */
    private final Map<Path, Future<?>> forcesBegun = new ConcurrentHashMap<>();

    public LocalArchiveStorage(Path root) {
        this(root, path -> Files.getFileStore(path).getUsableSpace());
    }

    LocalArchiveStorage(Path root, UsableSpace usableSpace) {
        this.root = root.toAbsolutePath().normalize();
        this.usableSpace = usableSpace;
    }

    /** How much room the file system of a path has left. */
    @FunctionalInterface
    interface UsableSpace {
        long of(Path path) throws IOException;
    }

    /**
     * A write's failure as {@link StorageFullException} when the file system has (almost) no room left: the JDK reports
     * ENOSPC as a plain IOException, so the room left, not the message, tells a full disk from other failures.
     */
    IOException whenFull(IOException failure) {
        if (failure instanceof StorageFullException) {
            return failure;
        }
        try {
            long left = usableSpace.of(root);
            if (left < FULL_BELOW_BYTES) {
                return new StorageFullException(
                        "The file system of " + root + " is full (" + left + " bytes left): " + failure.getMessage(),
                        failure);
            }
        } catch (IOException cannotTell) {
            failure.addSuppressed(cannotTell);
        }
        return failure;
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
            requireReachable(null);
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
        BasicFileAttributes attributes =
                Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        String relative =
                root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
        return new StoredObject(
                relative,
                attributes.isDirectory() ? 0 : attributes.size(),
                attributes.lastModifiedTime().toInstant(),
                attributes.isDirectory());
    }

    /** Reads one version of the file, even when a commit publishes new content over its name meanwhile. */
    @Override
    public InputFile openInputFile(String path) throws IOException {
        Path file = resolve(path);
        if (!Files.isRegularFile(file)) {
            NoSuchFileException missing = new NoSuchFileException(file.toString());
            requireReachable(missing);
            throw missing;
        }
        return new PinnedLocalInputFile(file);
    }

    @Override
    public byte[] readAllBytes(String path) throws IOException {
        try {
            byte[] content = Files.readAllBytes(resolve(path));
            readOnce = true;
            return content;
        } catch (NoSuchFileException missing) {
            requireReachable(missing);
            throw missing;
        }
    }

    /**
     * Fails with {@link StorageUnavailableException} when a path is missing because the whole root is: once a file was
     * read here, a root that is gone or empty is not reachable, and writing into it would start a second archive.
     */
    private void requireReachable(IOException missing) throws StorageUnavailableException {
        if (!readOnce) {
            return;
        }
        boolean reachable;
        try (Stream<Path> entries = Files.list(root)) {
            reachable = entries.findAny().isPresent();
        } catch (IOException gone) {
            reachable = false;
        }
        if (!reachable) {
            throw new StorageUnavailableException(
                    "The archive root " + root + " is gone or empty: the storage under it is not reachable (an"
                            + " unmounted share or a removed disk?); nothing is read or written until it is back",
                    missing);
        }
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
        Path temp = temporaryBeside(target);
        try {
            try (FileChannel channel =
                    FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.wrap(content));
                channel.force(true);
            } catch (IOException failure) {
                throw whenFull(failure);
            }
            Files.createLink(target, temp);
            forceDirectory(target.getParent());
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    @Override
    public OutputStream createStaged(String path) throws IOException {
        return staged(path, true);
    }

    /** Like {@link #createStaged}, but closing only writes the file out: {@link #sync} makes it durable. */
    @Override
    public OutputStream createStagedDeferred(String path) throws IOException {
        return staged(path, false);
    }

    /**
     * A buffered stream into a new file: Parquet writers emit many small pieces (page headers, the footer's fields),
     * and each would otherwise be a system call of its own.
     */
    private OutputStream staged(String path, boolean durableOnClose) throws IOException {
        Path target = resolve(path);
        createParentDirectories(target);
        FileChannel channel = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        return new StagedFileStream(target, channel, durableOnClose);
    }

    /** A staged file's stream: durable, or with its force begun, once closed; its channel released when abandoned. */
    private final class StagedFileStream extends FilterOutputStream implements AbandonableStream {
        private final Path target;
        private final FileChannel channel;
        private final boolean durableOnClose;
        private boolean closed;

        StagedFileStream(Path target, FileChannel channel, boolean durableOnClose) {
            super(new BufferedOutputStream(Channels.newOutputStream(channel), WRITE_BUFFER_BYTES));
            this.target = target;
            this.channel = channel;
            this.durableOnClose = durableOnClose;
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            try {
                out.write(bytes, offset, length);
            } catch (IOException failure) {
                throw whenFull(failure);
            }
        }

        @Override
        public void close() throws IOException {
            if (closed) {
                return;
            }
            closed = true;
            try (channel) {
                out.flush();
                if (durableOnClose) {
                    channel.force(true);
                }
            } catch (IOException failure) {
                throw whenFull(failure);
            }
            if (durableOnClose) {
                forceDirectory(target.getParent());
            } else {
                forcesBegun.put(target, FORCING.submit(() -> {
                    try {
                        force(target, false);
                    } catch (NoSuchFileException gone) {
                        // Deleted or renamed away meanwhile: a sync forces its directory, as for any such path.
                    }
                    return null;
                }));
            }
        }

        /** Releases the channel without writing out what is buffered: the file is deleted by whoever staged it. */
        @Override
        public void abandon() throws IOException {
            if (!closed) {
                closed = true;
                channel.close();
            }
        }
    }

    /**
     * Forces every object and every directory naming one, all at once: an object that no longer exists (deleted, or
     * renamed away) only has its directory forced. An object whose force began when it was closed is waited for; a
     * failure of that force fails the sync, since forcing again may not report it a second time.
     */
    @Override
    public void sync(Collection<String> paths) throws IOException {
        Set<Path> files = new LinkedHashSet<>();
        Set<Path> directories = new LinkedHashSet<>();
        List<Future<?>> forces = new ArrayList<>();
        for (String path : paths) {
            Path file = resolve(path);
            Future<?> begun = forcesBegun.remove(file);
            if (begun != null) {
                forces.add(begun);
            } else if (Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
                files.add(file);
            }
            if (Files.isDirectory(file.getParent())) {
                directories.add(file.getParent());
            }
        }
        if (forces.isEmpty()) {
            forceAll(files, directories);
            return;
        }
        forces.addAll(startForcing(files, directories));
        awaitForces(forces);
    }

    /**
     * Every temporary file created, written and forced at once, each from its own thread, then linked to its name in
     * order (the first existing name stops it), then the directories forced at once: a transaction's commit entries
     * cost about two rounds of the journal instead of two per entry. Creating a file waits on the file system's journal
     * too (0.3 to 0.8 ms each right after a transaction's data files were forced, against 0.1 ms otherwise), so the
     * files are created side by side rather than one after another.
     */
    @Override
    public void createExclusiveAll(List<String> paths, List<byte[]> contents) throws IOException {
        if (paths.size() != contents.size()) {
            throw new IllegalArgumentException(paths.size() + " paths but " + contents.size() + " contents");
        }
        List<Path> targets = new ArrayList<>();
        for (String path : paths) {
            targets.add(resolve(path));
        }
        // No name is linked yet: whatever fails here, none of the objects was created. A target that already exists is
        // found by its link below, which then reports how many before it were created.
        Path[] temps = new Path[targets.size()];
        int created = 0;
        try {
            List<Future<?>> written = new ArrayList<>();
            for (int i = 0; i < targets.size(); i++) {
                int index = i;
                written.add(FORCING.submit(() -> {
                    Path target = targets.get(index);
                    createParentDirectories(target);
                    temps[index] = temporaryBeside(target);
                    try (FileChannel channel =
                            FileChannel.open(temps[index], StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                        channel.write(ByteBuffer.wrap(contents.get(index)));
                        channel.force(true);
                    }
                    return null;
                }));
            }
            try {
                awaitForces(written);
            } catch (IOException failure) {
                throw new BatchCreationException(0, whenFull(failure));
            }
            Set<Path> directories = new LinkedHashSet<>();
            for (; created < targets.size(); created++) {
                try {
                    Files.createLink(targets.get(created), temps[created]);
                } catch (IOException failure) {
                    throw new BatchCreationException(created, failure);
                }
                directories.add(targets.get(created).getParent());
            }
            try {
                forceAll(Set.of(), directories);
            } catch (IOException failure) {
                throw new BatchCreationException(created, failure);
            }
        } finally {
            for (Path temp : temps) {
                if (temp != null) {
                    Files.deleteIfExists(temp);
                }
            }
        }
    }

    @Override
    public void publish(String stagedPath, String finalPath) throws IOException {
        Path staged = resolve(stagedPath);
        Path target = resolve(finalPath);
        if (!Files.exists(staged, LinkOption.NOFOLLOW_LINKS)) {
            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                return; // already published by an earlier, interrupted attempt
            }
            throw new NoSuchFileException(
                    staged.toString(), target.toString(), "staged file missing and not published");
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
        // The new name must be durable before the staged one goes: otherwise a power loss could keep the removal and
        // lose the link, and the committed file would be gone.
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

    /** Removes the name; {@link #sync} of the path makes the removal durable. */
    @Override
    public void delete(String path) throws IOException {
        Path file = resolve(path);
        forcesBegun.remove(file);
        Files.deleteIfExists(file);
    }

    @Override
    public String describe() {
        return root.toString();
    }

    private void createParentDirectories(Path file) throws IOException {
        Path parent = file.getParent();
        if (!Files.isDirectory(parent)) {
            requireReachable(null);
            Files.createDirectories(parent);
            forceDirectory(parent.getParent());
        }
    }

    /**
     * The temporary name beside a target (a hard link cannot cross file systems); it never ends in ".parquet", and
     * recovery removes it after the writer lease if this process dies before the link.
     */
    private static Path temporaryBeside(Path target) {
        return target.resolveSibling("." + target.getFileName() + "." + UUID.randomUUID() + ".tmp");
    }

    /**
     * Forces files and directories, each from its own (virtual) thread so the journal takes them together; one alone
     * is forced on the caller's thread. The first failure is thrown once all have ended.
     */
    private static void forceAll(Collection<Path> files, Collection<Path> directories) throws IOException {
        if (files.size() + directories.size() == 1) {
            Path only = files.isEmpty()
                    ? directories.iterator().next()
                    : files.iterator().next();
            force(only, files.isEmpty());
            return;
        }
        awaitForces(startForcing(files, directories));
    }

    /** Forces every file and directory, each from its own thread. */
    private static List<Future<?>> startForcing(Collection<Path> files, Collection<Path> directories) {
        List<Future<?>> forced = new ArrayList<>();
        files.forEach(file -> forced.add(FORCING.submit(() -> {
            force(file, false);
            return null;
        })));
        directories.forEach(directory -> forced.add(FORCING.submit(() -> {
            force(directory, true);
            return null;
        })));
        return forced;
    }

    /** Waits for every force; the first failure is thrown once all are done. */
    private static void awaitForces(List<Future<?>> forced) throws IOException {
        IOException first = null;
        for (Future<?> future : forced) {
            try {
                future.get();
            } catch (ExecutionException e) {
                IOException failure = e.getCause() instanceof IOException io ? io : new IOException(e.getCause());
                first = first == null ? failure : first;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("Interrupted while forcing files to disk");
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private static void force(Path path, boolean directory) throws IOException {
        if (directory) {
            forceDirectory(path);
        } else {
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
        }
    }

    /** Makes a directory's entries durable; without it a new name may vanish after a power loss. */
    private static void forceDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
