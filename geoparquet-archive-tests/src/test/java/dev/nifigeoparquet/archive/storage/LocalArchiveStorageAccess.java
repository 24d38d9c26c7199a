package dev.nifigeoparquet.archive.storage;

import java.io.IOException;
import java.nio.file.Path;

/** Reaches the local storage's package-private seams from tests of other packages. */
public final class LocalArchiveStorageAccess {

    private LocalArchiveStorageAccess() {}

    /** A storage whose file system always reports {@code usable} bytes left. */
    public static LocalArchiveStorage withUsableSpace(Path root, long usable) {
        return new LocalArchiveStorage(root, path -> usable);
    }

    /** What the storage makes of a failed write. */
    public static IOException whenFull(LocalArchiveStorage storage, IOException failure) {
        return storage.whenFull(failure);
    }
}
