package dev.nifigeoparquet.services;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import org.apache.nifi.controller.ControllerService;

/**
 * One GeoParquet archive, opened (or adopted, or created) once when the service is enabled. Processors take
 * the archive's pinned settings from here and never read the descriptor or a data file's footer for them:
 * the H3 resolution, the CRS and the geometry column cannot drift between processors that share the service.
 * Everything else (the schema, the canonical footer, the key columns, the partitions' states) is the archive's own.
 *
 * <p>Every method may be called concurrently by any number of processor tasks. Writers need no lock of their own: the
 * engine serialises the writers of a partition inside the JVM, and its commit protocol across nodes and processes.
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
}
