package dev.nifigeoparquet.archive.testing;

import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * Where the protocol and fault suites keep their archives, so the same suites run on every storage: each archive is
 * named by a local path, which the local filesystem uses as its directory and an object store maps to a prefix.
 * A suite that overrides its {@code backend()} runs unchanged on another storage.
 */
public interface StorageBackend {

    /** The storage of the archive named {@code root}. */
    ArchiveStorage storage(Path root);

    /** Copies every object of the archive {@code source} to the archive {@code target}, and returns {@code target}. */
    Path copy(Path source, Path target) throws IOException;

    /**
     * Puts every file of a local directory tree (an archive built on the local filesystem) into the archive named
     * {@code target}, and returns {@code target}.
     */
    Path importTree(Path directory, Path target) throws IOException;

    /** Removes the archive {@code root}: every object in it, and its plain reader view. */
    void delete(Path root) throws IOException;

    /** Whether simultaneous exclusive creations of one name have exactly one winner on this backend. */
    boolean serialisesRaces();

    /**
     * A local directory holding exactly the data files a plain reader globbing {@code <root>/*}{@code /*.parquet}
     * would read now (for the local filesystem, the archive's own directory).
     */
    Path plainReaderView(Path root) throws IOException;

    /** Names of the objects (not sub-directories) directly in a directory of the archive. */
    default Set<String> names(Path root, String directory) throws IOException {
        Set<String> names = new TreeSet<>();
        for (StoredObject object : storage(root).list(directory)) {
            if (!object.directory()) {
                names.add(object.name());
            }
        }
        return names;
    }

    /** The local filesystem. */
    StorageBackend LOCAL = new StorageBackend() {
        @Override
        public ArchiveStorage storage(Path root) {
            return new LocalArchiveStorage(root);
        }

        @Override
        public Path copy(Path source, Path target) throws IOException {
            return TestFiles.copyTree(source, target);
        }

        @Override
        public Path importTree(Path directory, Path target) throws IOException {
            return TestFiles.copyTree(directory, target);
        }

        @Override
        public void delete(Path root) throws IOException {
            TestFiles.deleteTree(root);
        }

        @Override
        public boolean serialisesRaces() {
            return true;
        }

        @Override
        public Path plainReaderView(Path root) {
            return root;
        }

        @Override
        public String toString() {
            return "local filesystem";
        }
    };
}
