package dev.nifigeoparquet.processors;

/**
 * The FlowFile attributes the bundle's processors write and read, each named once, as NiFi's {@code CoreAttributes}
 * names the framework's. Flows and operators depend on these names: they never change. Constants rather than an enum,
 * so that {@code @WritesAttribute} and {@code @ReadsAttribute} can name them.
 *
 * <p>The storage cost attributes are {@link StorageCostAttributes}, written under each processor's prefix below.
 */
public final class GeoParquetAttributes {

    // ---- what a cell FlowFile carries from RouteByH3Cell, and what every processor reports a failure with

    /** The H3 cell of every record of the FlowFile: the partition it belongs to. */
    public static final String H3_CELL = "h3.cell";
    /** The H3 resolution the cell was computed at. */
    public static final String H3_RESOLUTION = "h3.resolution";
    /** The number of records in the FlowFile. */
    public static final String RECORD_COUNT = "record.count";
    /** The delta's id, which the archive remembers so that a redelivered delta is applied once. */
    public static final String DELTA_ID = "delta.id";
    /** Why a FlowFile went to failure or retry. */
    public static final String ERROR_MESSAGE = "error.message";

    // ---- UpsertGeoParquetPartition

    /** The operation id recorded in the partition's commit log: the write mode and the delta id. */
    public static final String OPERATION_ID = "geoparquet.operation.id";
    /** Whether the delta had been committed already, so that nothing changed. */
    public static final String REPLAY = "geoparquet.replay";

    public static final String ROWS_BEFORE = "geoparquet.rows.before";
    public static final String ROWS_AFTER = "geoparquet.rows.after";
    public static final String ROWS_NET = "geoparquet.rows.net";
    public static final String ROWS_INSERTED = "geoparquet.rows.inserted";
    public static final String ROWS_UPDATED = "geoparquet.rows.updated";
    public static final String ROWS_DELETED = "geoparquet.rows.deleted";
    public static final String ROWS_MOVED = "geoparquet.rows.moved";
    public static final String ROWS_SKIPPED = "geoparquet.rows.skipped";
    /** The commit entries holding the delta's changes, as comma-separated {@code <cell>@<version>}. */
    public static final String COMMITS = "geoparquet.commits";
    /** The cells whose state the delta changed, comma-separated. */
    public static final String PARTITIONS_TOUCHED = "geoparquet.partitions.touched";

    public static final String FILES_WRITTEN = "geoparquet.files.written";
    public static final String BYTES_WRITTEN = "geoparquet.bytes.written";
    public static final String FILES_REMOVED = "geoparquet.files.removed";
    public static final String BYTES_REMOVED = "geoparquet.bytes.removed";
    public static final String BATCH_DELTAS = "geoparquet.batch.deltas";
    /** Prefix of the upsert's storage cost attributes. */
    public static final String UPSERT_STORAGE = "geoparquet.storage.";

    // ---- CompactGeoParquetPartition

    public static final String COMPACTED = "compaction.compacted";
    public static final String COMPACTION_FILES_BEFORE = "compaction.files.before";
    public static final String COMPACTION_FILES_AFTER = "compaction.files.after";
    public static final String COMPACTION_BYTES_READ = "compaction.bytes.read";
    public static final String COMPACTION_BYTES_WRITTEN = "compaction.bytes.written";
    public static final String COMPACTION_SKIP_REASON = "compaction.skip.reason";
    /** Prefix of the compaction's storage cost attributes. */
    public static final String COMPACTION_STORAGE = "compaction.storage.";

    // ---- VerifyGeoMetadata

    public static final String GEO_CONSISTENT = "geo.consistent";
    public static final String GEO_CRS = "geo.crs";
    public static final String GEO_PROBLEMS = "geo.problems";
    public static final String ARCHIVE_ROW_COUNT = "archive.row.count";
    public static final String ARCHIVE_ROW_COUNT_EXPECTED = "archive.row.count.expected";
    public static final String PARTITIONS_CHECKED = "partitions.checked";
    public static final String FILES_CHECKED = "files.checked";
    /** Prefix of the verification's storage cost attributes: what reading the partitions cost. */
    public static final String VERIFICATION_STORAGE = "verification.storage.";

    private GeoParquetAttributes() {}
}
