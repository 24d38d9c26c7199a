package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.order.StampOrder;
import dev.nifigeoparquet.archive.order.VersionOrder;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.parquet.example.data.Group;
import org.locationtech.jts.geom.Geometry;

/**
 * One partition's delta, validated against the archive before anything is written: every row is re-keyed (a
 * caller's cell is never trusted), geometries must be of the archive's declared types, keys must be present
 * where the mode needs them, and duplicate keys collapse to their last occurrence. A delta may carry a sequence, which
 * orders it among the deltas that write the same keys (docs/archive-format.md, section 6.4).
 */
public final class PartitionDelta {

    private static final int PROBLEM_LIMIT = 100;

    private final String cell;
    private final WriteMode mode;
    private final String deltaId;
    private final List<String> operationIds;
    /** The sequence of each operation, in the order of {@link #operationIds}; null for an unsequenced one. */
    private final List<Long> sequences;

    private final Map<FeatureKey, DeltaRow> byKey;
    /** The sequence of the delta each row came from, for the keys of sequenced deltas. */
    private final Map<FeatureKey, Long> sequenceOfKey;

    private final List<Group> unkeyedRows;
    private final int inputRows;
    private final int duplicateKeys;

    private PartitionDelta(
            String cell,
            WriteMode mode,
            String deltaId,
            List<String> operationIds,
            List<Long> sequences,
            Map<FeatureKey, DeltaRow> byKey,
            Map<FeatureKey, Long> sequenceOfKey,
            List<Group> unkeyedRows,
            int inputRows,
            int duplicateKeys) {
        this.cell = cell;
        this.mode = mode;
        this.deltaId = deltaId;
        this.operationIds = List.copyOf(operationIds);
        this.sequences = Collections.unmodifiableList(new ArrayList<>(sequences));
        this.byKey = byKey;
        this.sequenceOfKey = sequenceOfKey;
        this.unkeyedRows = unkeyedRows;
        this.inputRows = inputRows;
        this.duplicateKeys = duplicateKeys;
    }

    /**
     * Validates a partition's delta rows (already in the archive's schema), without a sequence.
     *
     * @param cell    the partition; null only for a Delete by key, which finds the keys' partitions in the key index
     * @param deltaId the operation id; null to derive it from the rows (SHA-256 of their canonical form)
     * @throws DeltaRejectedException naming each bad record
     */
    public static PartitionDelta prepare(
            GeoParquetArchive archive, String cell, WriteMode mode, Collection<DeltaRow> rows, String deltaId) {
        return prepare(archive, cell, mode, rows, deltaId, null);
    }

    /**
     * Validates a partition's delta rows (already in the archive's schema).
     *
     * @param cell     the partition; null only for a Delete by key, which finds the keys' partitions in the key index
     * @param deltaId  the operation id; null to derive it from the rows (SHA-256 of their canonical form)
     * @param sequence the delta's sequence (section 6.4); null for none. Append, Upsert and Delete take one
     * @throws DeltaRejectedException naming each bad record
     */
    public static PartitionDelta prepare(
            GeoParquetArchive archive,
            String cell,
            WriteMode mode,
            Collection<DeltaRow> rows,
            String deltaId,
            Long sequence) {
        if (deltaId != null && deltaId.contains(",")) {
            throw new DeltaRejectedException(
                    "Delta for partition " + cell,
                    "operation id '" + deltaId + "' contains ',', which joins the ids of a commit's operations");
        }
        if (sequence != null && mode == WriteMode.REPLACE) {
            throw new DeltaRejectedException(
                    "Delta for partition " + cell,
                    "Replace takes no sequence: it makes the partition exactly its rows, whatever was written before");
        }
        if (sequence != null && sequence < 0) {
            throw new DeltaRejectedException(
                    "Delta for partition " + cell, "a delta sequence is never negative, was " + sequence);
        }
        if (cell != null) {
            archive.requireCell(cell);
        } else if (mode != WriteMode.DELETE && mode != WriteMode.APPEND) {
            // Append goes on to name each row marked for deletion, the reason such a delta has no cell.
            throw needsCell(mode);
        }
        boolean keyed = archive.descriptor().hasKey();
        if (mode.needsKey() && !keyed) {
            throw new DeltaRejectedException(
                    "Partition " + cell, mode + " needs a feature key, and this archive has none (it is append-only)");
        }
        FeatureKey.Extractor keys = keyed ? archive.keyExtractor() : null;
        // In an archive ordered by a version column, a sequenced deletion is ordered by its version first: one without
        // a version would be older than every stored row (section 6.4), so it is refused rather than silently ignored.
        VersionOrder versions = sequence != null && keyed
                ? StampOrder.of(archive.descriptor(), archive.schema()).versions()
                : null;
        GeometryCodec codec = archive.geometryCodec();
        Set<String> allowedTypes = allowedGeometryTypes(archive);
        // Hashing every row is a sizeable share of preparing it, and wasted when the caller names the delta.
        DeltaId derivedId = deltaId == null
                ? DeltaId.start(
                        mode, cell, archive.schema(), archive.descriptor().deletionColumns())
                : null;

        List<String> problems = new ArrayList<>();
        Map<FeatureKey, DeltaRow> byKey = new LinkedHashMap<>();
        List<Group> unkeyed = new ArrayList<>();
        int duplicates = 0;
        long index = 0;
        for (DeltaRow row : rows) {
            long recordIndex = index++;
            if (derivedId != null) {
                // In Delete mode every row is a deletion, encoded by its deletion columns whatever its marker.
                derivedId.add(mode == WriteMode.DELETE && !row.delete() ? DeltaRow.deletion(row.row()) : row);
            }
            if (problems.size() >= PROBLEM_LIMIT) {
                continue;
            }
            FeatureKey key = keys == null ? null : keys.keyOf(row.row());
            String label = "record " + recordIndex + (key == null ? "" : " (key " + key + ")");
            if (keyed && key == null) {
                problems.add(label + ": key " + keys.columns() + " is null");
                continue;
            }
            if (row.delete() && mode == WriteMode.APPEND) {
                problems.add(label + ": marked for deletion, which Append cannot do");
                continue;
            }
            if (versions != null && (row.delete() || mode == WriteMode.DELETE) && versions.valueOf(row.row()) == null) {
                problems.add(label + ": a deletion in a delta with a sequence needs a value in the version column '"
                        + versions.column() + "' (the version it deletes at), as the archive orders writes by it");
                continue;
            }
            if (!row.delete() && mode != WriteMode.DELETE) {
                String problem = checkGeometry(archive, codec, row.row(), recordIndex, cell, allowedTypes);
                if (problem != null) {
                    problems.add(label + ": " + problem);
                    continue;
                }
            }
            if (key == null) {
                unkeyed.add(row.row());
            } else if (byKey.remove(key) != null) {
                duplicates++;
                byKey.put(key, mode == WriteMode.DELETE ? DeltaRow.deletion(row.row()) : row);
            } else {
                byKey.put(key, mode == WriteMode.DELETE ? DeltaRow.deletion(row.row()) : row);
            }
        }
        if (!problems.isEmpty()) {
            throw new DeltaRejectedException(
                    (cell == null ? "Deletions by key" : "Delta for partition " + cell)
                            + " rejected, nothing was written",
                    problems);
        }
        if (cell == null && mode != WriteMode.DELETE) {
            throw needsCell(mode);
        }
        String id = deltaId != null ? deltaId : derivedId.hex();
        Map<FeatureKey, Long> sequenceOfKey = new HashMap<>();
        if (sequence != null) {
            byKey.keySet().forEach(key -> sequenceOfKey.put(key, sequence));
        }
        List<Long> sequences = new ArrayList<>();
        sequences.add(sequence);
        return new PartitionDelta(
                cell, mode, id, List.of(id), sequences, byKey, sequenceOfKey, unkeyed, (int) index, duplicates);
    }

    private static DeltaRejectedException needsCell(WriteMode mode) {
        return new DeltaRejectedException(
                "Delta",
                mode + " needs the partition's cell; only Delete can find its keys' partitions through the key index");
    }

    /** One partition's delta rows to {@link #prepare}, with the same meaning as its arguments. */
    public record Request(String cell, WriteMode mode, Collection<DeltaRow> rows, String deltaId, Long sequence) {

        /** A delta without a sequence. */
        public Request(String cell, WriteMode mode, Collection<DeltaRow> rows, String deltaId) {
            this(cell, mode, rows, deltaId, null);
        }
    }

    /**
     * Prepares several deltas side by side on the archive's worker threads ({@link GeoParquetArchive#workers()}):
     * re-keying every row is the larger part of preparing a delta, and the partitions' deltas are independent.
     *
     * @return for each request in its order, the delta or the reason it was rejected
     * @throws InterruptedIOException when interrupted while waiting for the workers
     */
    public static List<Workers.Outcome<PartitionDelta>> prepareAll(GeoParquetArchive archive, List<Request> requests)
            throws InterruptedIOException {
        return archive.workers()
                .map(
                        requests,
                        request -> prepare(
                                archive,
                                request.cell(),
                                request.mode(),
                                request.rows(),
                                request.deltaId(),
                                request.sequence()));
    }

    /**
     * Several deltas of one partition and mode as one, so the partition is rewritten once: rows in delta order, every
     * delta's id kept so each is recognised as a replay on its own. Of two rows of one key, the later delta's wins,
     * unless both deltas carry a sequence: then the row greater in {@code order} wins (a tie goes to the later), as
     * applying the deltas one by one would leave it.
     */
    public static PartitionDelta combine(List<PartitionDelta> deltas, StampOrder order) {
        if (deltas.isEmpty()) {
            throw new IllegalArgumentException("Nothing to combine");
        }
        PartitionDelta first = deltas.get(0);
        if (deltas.size() == 1) {
            return first;
        }
        Map<FeatureKey, DeltaRow> byKey = new LinkedHashMap<>();
        Map<FeatureKey, Long> sequenceOfKey = new HashMap<>();
        List<Group> unkeyed = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        List<Long> sequences = new ArrayList<>();
        int inputRows = 0;
        int duplicates = 0;
        for (PartitionDelta delta : deltas) {
            if (!Objects.equals(delta.cell, first.cell) || delta.mode != first.mode) {
                throw new IllegalArgumentException("Only deltas of one partition and mode combine: " + first.cell + "/"
                        + first.mode + " and " + delta.cell + "/" + delta.mode);
            }
            for (Map.Entry<FeatureKey, DeltaRow> row : delta.byKey.entrySet()) {
                FeatureKey key = row.getKey();
                DeltaRow earlier = byKey.get(key);
                if (earlier != null) {
                    duplicates++;
                    Long earlierSequence = sequenceOfKey.get(key);
                    Long sequence = delta.sequenceOfKey.get(key);
                    if (earlierSequence != null
                            && sequence != null
                            && order.compareWrites(
                                            earlier.row(),
                                            earlierSequence,
                                            row.getValue().row(),
                                            sequence)
                                    > 0) {
                        continue; // the earlier delta's row is the newer write
                    }
                    byKey.remove(key);
                }
                byKey.put(key, row.getValue());
                sequenceOfKey.remove(key);
                Long sequence = delta.sequenceOfKey.get(key);
                if (sequence != null) {
                    sequenceOfKey.put(key, sequence);
                }
            }
            unkeyed.addAll(delta.unkeyedRows);
            ids.addAll(delta.operationIds);
            sequences.addAll(delta.sequences);
            inputRows += delta.inputRows;
            duplicates += delta.duplicateKeys;
        }
        return new PartitionDelta(
                first.cell,
                first.mode,
                String.join(",", ids),
                ids,
                sequences,
                byKey,
                sequenceOfKey,
                unkeyed,
                inputRows,
                duplicates);
    }

    /** Null when the row's geometry is keyable into this partition and of an allowed type; otherwise why not. */
    private static String checkGeometry(
            GeoParquetArchive archive,
            GeometryCodec codec,
            Group row,
            long index,
            String cell,
            Set<String> allowedTypes) {
        Geometry geometry;
        String computed;
        try {
            geometry = codec.decode(row, index);
            computed = archive.keyer().cellOf(geometry, archive.sourceCrs());
        } catch (KeyingException | IllegalArgumentException e) {
            return e.getMessage();
        }
        if (!computed.equals(cell)) {
            return "its geometry's centroid lies in cell " + computed + ", not in partition " + cell;
        }
        if (!allowedTypes.isEmpty()) {
            String type = geoParquetTypeName(geometry);
            if (!allowedTypes.contains(type)) {
                return "geometry type " + type + " is not among the archive's geometry_types " + allowedTypes;
            }
        }
        return null;
    }

    private static Set<String> allowedGeometryTypes(GeoParquetArchive archive) {
        return archive.geo()
                .map(GeoMetadata::primary)
                .map(column -> Set.copyOf(column.geometryTypes()))
                .orElse(Set.of());
    }

    /** GeoParquet's name for a geometry's type: "Polygon", "MultiPolygon Z", ... */
    static String geoParquetTypeName(Geometry geometry) {
        String type = geometry.getGeometryType();
        if ("LinearRing".equals(type)) {
            type = "LineString";
        }
        var coordinate = geometry.getCoordinate();
        return coordinate != null && !Double.isNaN(coordinate.getZ()) ? type + " Z" : type;
    }

    public String cell() {
        return cell;
    }

    public WriteMode mode() {
        return mode;
    }

    /** The operation id: replays of the same id are no-ops. For a combined delta, its deltas' ids joined by commas. */
    public String deltaId() {
        return deltaId;
    }

    /** The ids of the deltas this one applies (one, unless combined). */
    public List<String> operationIds() {
        return operationIds;
    }

    /** The sequence of each of {@link #operationIds}, null for an unsequenced delta. */
    public List<Long> sequences() {
        return sequences;
    }

    /** The sequence of the delta whose row of {@code key} this one applies; null when that delta has none. */
    public Long sequenceOf(FeatureKey key) {
        return sequenceOfKey.get(key);
    }

    /** Keyed rows, the last occurrence of each key, in the order of those occurrences. */
    public Map<FeatureKey, DeltaRow> rowsByKey() {
        return byKey;
    }

    /** Rows of an archive without a feature key (append and replace only). */
    public List<Group> unkeyedRows() {
        return unkeyedRows;
    }

    public int inputRows() {
        return inputRows;
    }

    /** Rows dropped because a later row of the same delta had the same key. */
    public int duplicateKeys() {
        return duplicateKeys;
    }
}
