package dev.nifigeoparquet.archive;

import dev.nifigeoparquet.archive.cells.DeclaredCrs;
import dev.nifigeoparquet.archive.cells.H3Cells;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.commit.PartitionCommitter;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.error.ArchiveNotFoundException;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DescriptorParser;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.geo.GeometryEncoding;
import dev.nifigeoparquet.archive.parquet.FooterCache;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.NoSuchFileException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;

/**
 * An open archive: its storage, its pinned descriptor, and access to its partitions. The entry point the
 * operations, the NiFi services and the command-line tool share.
 */
public final class GeoParquetArchive {

    private final ArchiveStorage storage;
    private final ArchiveDescriptor descriptor;
    private final Clock clock;
    private final MessageType schema;
    private final FooterEntries canonicalFooter;
    private final GeoMetadata geo;
    private final SourceCrs sourceCrs;
    private final H3Keyer keyer;
    /** Key-index shard footers, read by every operation's lookup (see {@link dev.nifigeoparquet.archive.index.KeyIndex}). */
    private final FooterCache indexFooters = new FooterCache(256);
    /**
     * The bounded pool this archive's operations share for their independent parts; by default one thread per
     * available core ({@link #useThreads}).
     */
    private volatile Workers workers = Workers.of(Workers.defaultParallelism());

    private GeoParquetArchive(ArchiveStorage storage, ArchiveDescriptor descriptor, Clock clock) {
        this.storage = storage;
        this.descriptor = descriptor;
        this.clock = clock;
        this.schema = descriptor.exactSchema();
        this.canonicalFooter = descriptor.canonicalFooter();
        this.geo = descriptor.geo().orElse(null);
        this.sourceCrs = crsOf(schema, descriptor.geometryColumn(), canonicalFooter);
        this.keyer = new H3Keyer(descriptor.h3Resolution(), descriptor.edges());
    }

    /** The CRS the canonical footer and the schema declare for the geometry column (section 6.1). */
    private static SourceCrs crsOf(MessageType schema, String geometryColumn, FooterEntries footer) {
        return DeclaredCrs.of(schema, footer.asMap(), geometryColumn)
                .orElseThrow(() -> new IllegalStateException("The archive's geometry column '" + geometryColumn
                        + "' has neither geo metadata nor a geospatial logical type"));
    }

    /** Opens an existing archive, reading its descriptor once. */
    public static GeoParquetArchive open(ArchiveStorage storage) throws IOException {
        return open(storage, Clock.systemUTC());
    }

    public static GeoParquetArchive open(ArchiveStorage storage, Clock clock) throws IOException {
        byte[] json;
        try {
            json = storage.readAllBytes(ArchiveLayout.DESCRIPTOR);
        } catch (NoSuchFileException e) {
            throw new ArchiveNotFoundException(storage.describe());
        }
        // A descriptor of a newer format version is refused before anything else is read
        // (UnsupportedFormatVersionException):
        // neither reading nor writing is safe when what its entries mean may have changed.
        ArchiveDescriptor descriptor =
                DescriptorParser.fromJson(json, storage.describe() + "/" + ArchiveLayout.DESCRIPTOR);
        return new GeoParquetArchive(storage, descriptor, clock);
    }

    /** Whether a descriptor exists at this storage's root. */
    public static boolean exists(ArchiveStorage storage) throws IOException {
        return storage.exists(ArchiveLayout.DESCRIPTOR);
    }

    /** An archive whose descriptor is about to be written (adoption builds the key index first); for adoption only. */
    public static GeoParquetArchive beforeDescriptor(
            ArchiveStorage storage, ArchiveDescriptor descriptor, Clock clock) {
        return new GeoParquetArchive(storage, descriptor, clock);
    }

    /** Writes a descriptor exclusively; fails when the location already holds an archive. For creation and adoption. */
    public static GeoParquetArchive writeDescriptor(ArchiveStorage storage, ArchiveDescriptor descriptor, Clock clock)
            throws IOException {
        try {
            storage.createExclusive(ArchiveLayout.DESCRIPTOR, DescriptorParser.toJson(descriptor));
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(storage.describe(), null, "an archive already exists there");
        }
        return new GeoParquetArchive(storage, descriptor, clock);
    }

    public ArchiveStorage storage() {
        return storage;
    }

    public ArchiveDescriptor descriptor() {
        return descriptor;
    }

    public Clock clock() {
        return clock;
    }

    public int h3Resolution() {
        return descriptor.h3Resolution();
    }

    /** The exact schema of every data file. */
    public MessageType schema() {
        return schema;
    }

    /** The footer entries every data file carries byte for byte. */
    public FooterEntries canonicalFooter() {
        return canonicalFooter;
    }

    /** The canonical {@code geo} block, absent for native GEOMETRY archives without one. */
    public Optional<GeoMetadata> geo() {
        return Optional.ofNullable(geo);
    }

    /**
     * The top-level columns the writer computes from each row's geometry: the covering bbox structs the {@code geo}
     * block declares. A delta's values there are never read.
     */
    public Set<String> coveringColumns() {
        Set<String> columns = new TreeSet<>();
        geo().ifPresent(metadata -> metadata.columns()
                .values()
                .forEach(column -> column.coveringBbox()
                        .ifPresent(paths -> paths.values().forEach(path -> columns.add(path.get(0))))));
        return columns;
    }

    /** The CRS stored geometries are in, resolved for keying. */
    public SourceCrs sourceCrs() {
        return sourceCrs;
    }

    /** The one keyer of this archive, at its pinned resolution (thread-safe). */
    public H3Keyer keyer() {
        return keyer;
    }

    /** Parsed footers of key-index files, kept for the life of this instance: those files never change. */
    public FooterCache indexFooters() {
        return indexFooters;
    }

    /** The workers this archive's operations share for the partitions of a run; threads end when idle. */
    public Workers workers() {
        return workers;
    }

    /**
     * Sets how many threads this archive's operations use for the independent parts of a run: rewriting and staging
     * the partitions a run changes, and scanning their keys (compaction does not use them yet). Defaults to
     * {@link Workers#defaultParallelism()}, one per available core; 1 does everything on the caller's thread. Operations
     * started earlier keep the pool they started with. Concurrent operations (two NiFi tasks) share one pool, so the
     * threads stay bounded whatever the number of tasks.
     *
     * @return this archive
     */
    public GeoParquetArchive useThreads(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("An archive needs at least 1 thread, was " + threads);
        }
        if (threads != workers.parallelism()) {
            workers = Workers.of(threads);
        }
        return this;
    }

    /** A new codec for the geometry column (codecs hold a WKB reader, so each thread needs its own). */
    public GeometryCodec geometryCodec() {
        String column = descriptor.geometryColumn();
        return geo != null
                ? GeometryCodec.forColumn(schema, column, geo.column(column))
                : GeometryCodec.forColumn(schema, column, GeometryEncoding.WKB);
    }

    /** A new codec for the geometry column of rows read with {@code readSchema} (the archive's, or a projection of it). */
    public GeometryCodec geometryCodec(GroupType readSchema) {
        String column = descriptor.geometryColumn();
        return geo != null
                ? GeometryCodec.forColumn(readSchema, column, geo.column(column))
                : GeometryCodec.forColumn(readSchema, column, GeometryEncoding.WKB);
    }

    /** Reads feature keys of rows in the archive's schema. */
    public FeatureKey.Extractor keyExtractor() {
        return FeatureKey.extractor(schema, descriptor.keyColumns());
    }

    /**
     * Refuses a Parquet delta that declares another CRS for the archive's geometry column (in its {@code geo} metadata
     * or its {@code GEOMETRY}/{@code GEOGRAPHY} logical type, {@link DeclaredCrs}): its coordinates would be keyed
     * and stored as if they were in the archive's CRS. A delta that declares nothing passes.
     *
     * @param schema    the delta's Parquet schema
     * @param keyValues the delta's footer key-value metadata
     * @param source    the delta's name, for the message
     * @throws DeltaRejectedException naming the delta and both CRSs
     */
    public void requireDeltaCrs(GroupType schema, Map<String, String> keyValues, String source) {
        String column = descriptor.geometryColumn();
        DeclaredCrs.mismatch(schema, keyValues, column, sourceCrs).ifPresent(problem -> {
            throw new DeltaRejectedException(
                    "Delta " + source + " rejected, nothing was written",
                    problem
                            + "; the archive stores " + sourceCrs
                            + ": reproject the delta into the archive's CRS before it is applied");
        });
    }

    /** Validates an untrusted cell name against the pinned resolution before any path is built from it. */
    public String requireCell(String cell) {
        return H3Cells.requireCanonical(cell, descriptor.h3Resolution());
    }

    /** The latest committed state of one partition (empty when never committed). */
    public PartitionCommit partitionState(String cell) throws IOException {
        return new PartitionLog(storage, requireCell(cell)).latest();
    }

    /**
     * Finishes the publishing of each partition's latest commit, as the partition's next writer would (format sections
     * 5.5 and 9): what a writer that stopped between its commit and the end of its publishing left undone. Returns
     * the partitions where anything was left.
     */
    public Set<String> finishPublishing(Collection<String> cells) throws IOException {
        cells.forEach(this::requireCell);
        return committer().finishPublishing(cells);
    }

    /** A committer for this archive's partitions, under the archive's protocol settings. */
    public PartitionCommitter committer() {
        return new PartitionCommitter(storage, descriptor.protocol(), clock);
    }

    /**
     * The cells that have a commit log, i.e. every partition the archive tracks. One listing of the log
     * directory: no partition directory is opened. The key index's shards keep their logs there too; they are
     * not partitions and are left out.
     */
    public List<String> partitionCells() throws IOException {
        List<String> cells = new ArrayList<>();
        for (StoredObject entry : storage.list(ArchiveLayout.LOG_DIRECTORY)) {
            if (entry.directory() && !ArchiveLayout.isIndexShard(entry.name())) {
                cells.add(entry.name());
            }
        }
        return cells;
    }

    @Override
    public String toString() {
        return "GeoParquetArchive[" + storage.describe() + ", h3 resolution " + descriptor.h3Resolution() + "]";
    }
}
