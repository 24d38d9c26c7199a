package dev.nifigeoparquet.processors.testing;

import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage;
import dev.nifigeoparquet.archive.testing.FaultInjectingStorage.Fault;
import dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService;

/**
 * The archive service on a {@link FaultInjectingStorage}: the storage call numbered {@code failAt} (counted from the
 * first call the service makes when enabled) fails with {@code fault}; 0 only counts.
 */
public final class FaultyArchiveService extends StandardGeoParquetArchiveService {

    private final long failAt;
    private final Fault fault;
    private volatile FaultInjectingStorage storage;

    public FaultyArchiveService(long failAt, Fault fault) {
        this.failAt = failAt;
        this.fault = fault;
    }

    public static FaultyArchiveService counting() {
        return new FaultyArchiveService(0, Fault.EXCEPTION);
    }

    @Override
    protected ArchiveStorage decorateStorage(ArchiveStorage configured) {
        storage = new FaultInjectingStorage(configured, failAt, fault);
        return storage;
    }

    /** The storage of the last enabling. */
    public FaultInjectingStorage storage() {
        return storage;
    }
}
