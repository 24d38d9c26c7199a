package dev.nifigeoparquet.services;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.keying.H3Keyer;
import dev.nifigeoparquet.archive.keying.SourceCrs;
import org.apache.nifi.controller.ControllerService;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.Lock;

/**
 * One GeoParquet archive, opened (or adopted, or created) once when the service is enabled. Processors take
 * the archive's pinned settings from here and never read the descriptor or a data file's footer for them:
 * the H3 resolution, the canonical {@code geo} bytes, the CRS and geometry column cannot drift between
 * processors that share the service.
 *
 * <p>Every method may be called concurrently by any number of processor tasks.
 */
public interface GeoParquetArchiveService extends ControllerService {

    /** The open archive: the entry point of every engine operation. */
    GeoParquetArchive archive();

    /** Where the archive lives (for a local archive, its absolute root directory). */
    String location();

    /** The archive's pinned H3 resolution. */
    int h3Resolution();

    /** The one keyer of the archive, at its pinned resolution (thread-safe). */
    H3Keyer keyer();

    /** The CRS the archive stores geometries in; deltas are converted to it before they are written. */
    SourceCrs crs();

    /** The column partition keys are derived from, which holds each feature's geometry. */
    String geometryColumn();

    /** The feature key columns; empty for an append-only archive. */
    List<String> keyColumns();

    /**
     * The canonical {@code geo} footer value, exactly as every data file carries it (UTF-8); a copy on each call.
     * Empty for native Parquet GEOMETRY archives without a {@code geo} block.
     */
    Optional<byte[]> canonicalGeoBytes();

    /** What was found on enabling that an operator should know about (for example a non-PROJJSON CRS). */
    List<String> warnings();

    /**
     * The latest committed state of one partition, served from a small, short-lived cache (see the service's
     * cache properties). For planning and reporting only: a writer must read the state under the partition's
     * lock, which the engine's committer does itself.
     */
    PartitionCommit partitionState(String cell) throws IOException;

    /**
     * The lock that serialises writers of one partition of this archive inside this NiFi node. It is the very
     * lock the engine's committer takes around every commit (per archive location and cell, shared by the whole
     * JVM), so holding it across a read-modify-commit sequence keeps concurrent tasks from losing commit races.
     * It is reentrant, so a holder may call engine operations that take it again. Across nodes or processes the
     * archive's exclusive commit is what guarantees correctness; this lock only avoids wasted work.
     *
     * @throws IllegalArgumentException when {@code cell} is not a canonical cell of the pinned resolution
     */
    Lock partitionLock(String cell);
}
