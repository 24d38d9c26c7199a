package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import org.locationtech.jts.geom.Geometry;

/**
 * Groups a whole delta (rows already in the archive's schema) by the partition each row belongs to, so that each
 * partition is opened once. The cell is the one {@link GeoParquetArchive#keyer()} computes, exactly as
 * {@link PartitionDelta#prepare} recomputes it, so a routed group is never refused for a cell mismatch.
 *
 * <p>A row marked for deletion goes to the cell of its geometry, as RouteByH3Cell routes it (the partition's delta
 * deletes the key wherever the key index finds it); one without a geometry that can be keyed goes to one group of
 * deletions by key ({@link Routed#deletions()}), which {@link PartitionDelta#prepare} with a null cell applies.
 * When a key occurs more than once in the delta, its last occurrence wins, as within one
 * partition's delta; the earlier ones are dropped here so that a key that moved within the delta reaches one
 * partition only.
 */
public final class DeltaRouter {

    private static final int PROBLEM_LIMIT = 100;

    private final GeoParquetArchive archive;
    private final WriteMode mode;

    public DeltaRouter(GeoParquetArchive archive, WriteMode mode) {
        this.archive = archive;
        this.mode = mode;
    }

    /**
     * A delta routed to its partitions.
     *
     * @param byCell        rows to write, by cell in ascending order, each list in delta order
     * @param deletions     deletions without a geometry to key by: they delete their key wherever it lives
     * @param duplicateKeys rows dropped because a later row of the delta with the same key goes elsewhere (rows of a key
     *                      bound for one place all go there; that partition's delta keeps the last)
     * @param unkeyable     rows set aside because they cannot be keyed ({@link #routeKeyable}); empty from {@link #route}
     */
    public record Routed(
            SortedMap<String, List<DeltaRow>> byCell,
            List<DeltaRow> deletions,
            int duplicateKeys,
            List<Unkeyable> unkeyable) {

        public Routed {
            byCell = Collections.unmodifiableSortedMap(new TreeMap<>(byCell));
            deletions = List.copyOf(deletions);
            unkeyable = List.copyOf(unkeyable);
        }

        /** Rows that will be applied: written rows plus deletions. */
        public long rows() {
            return byCell.values().stream().mapToLong(List::size).sum() + deletions.size();
        }
    }

    /**
     * A row that cannot be keyed, set aside by {@link #routeKeyable}.
     *
     * @param index   the row's position in the delta, from 0
     * @param row     the row as it came
     * @param key     the row's feature key as text, or null (no key, or a null one)
     * @param reason  why, as a short code: a {@link KeyingException.Reason} name, {@value #INVALID_GEOMETRY} for a
     *                value that is not a geometry, or {@value #NULL_KEY}
     * @param message the reason in full, starting with the code
     */
    public record Unkeyable(long index, DeltaRow row, String key, String reason, String message) {

        /** How a refusal names the row: {@code record 3 (key p-7): EMPTY_GEOMETRY: ...}. */
        public String problem() {
            return "record " + index + (key == null ? "" : " (key " + key + ")") + ": " + message;
        }
    }

    /** The reason of a row whose feature key is null. */
    public static final String NULL_KEY = "NULL_KEY";
    /** The reason of a row whose geometry value cannot be decoded. */
    public static final String INVALID_GEOMETRY = "INVALID_GEOMETRY";

    /**
     * Routes every row; nothing is written.
     *
     * @throws DeltaRejectedException naming each row that cannot be keyed (null, empty or unreadable geometry,
     *                                coordinates out of range, a null key)
     */
    public Routed route(Iterable<DeltaRow> rows) {
        Routed routed = route(rows, true);
        if (!routed.unkeyable().isEmpty()) {
            List<String> problems = routed.unkeyable().stream()
                    .limit(PROBLEM_LIMIT)
                    .map(Unkeyable::problem)
                    .toList();
            throw new DeltaRejectedException("Delta rejected before routing, nothing was written", problems);
        }
        return routed;
    }

    /**
     * Routes the rows that can be keyed and sets the others aside with their reason ({@link Routed#unkeyable()}), as
     * RouteByH3Cell sends such records to its failure relationship; nothing is written.
     */
    public Routed routeKeyable(Iterable<DeltaRow> rows) {
        return route(rows, false);
    }

    private Routed route(Iterable<DeltaRow> rows, boolean stopCollectingAtLimit) {
        boolean keyed = archive.descriptor().hasKey();
        FeatureKey.Extractor keys = keyed ? archive.keyExtractor() : null;
        GeometryCodec codec = archive.geometryCodec();
        List<Unkeyable> unkeyable = new ArrayList<>();
        // Every routed row in delta order, and the cell of each key's last occurrence (null for a deletion by key).
        List<Placed> placedRows = new ArrayList<>();
        Map<FeatureKey, String> lastCell = new HashMap<>();
        long index = 0;
        for (DeltaRow given : rows) {
            long rowIndex = index++;
            DeltaRow row = mode == WriteMode.DELETE && !given.delete() ? DeltaRow.deletion(given.row()) : given;
            FeatureKey key = keys == null ? null : keys.keyOf(row.row());
            if (keyed && key == null) {
                if (!stopCollectingAtLimit || unkeyable.size() < PROBLEM_LIMIT) {
                    unkeyable.add(new Unkeyable(
                            rowIndex, given, null, NULL_KEY, NULL_KEY + ": key " + keys.columns() + " is null"));
                }
                continue;
            }
            String cell;
            try {
                cell = cellOf(codec, row, rowIndex);
            } catch (KeyingException | IllegalArgumentException e) {
                if (row.delete()) {
                    // No geometry to key by: the key index places the deletion.
                    cell = null;
                } else {
                    if (!stopCollectingAtLimit || unkeyable.size() < PROBLEM_LIMIT) {
                        String reason = e instanceof KeyingException keying
                                ? keying.reason().name()
                                : INVALID_GEOMETRY;
                        String message = e instanceof KeyingException ? e.getMessage() : reason + ": " + e.getMessage();
                        unkeyable.add(
                                new Unkeyable(rowIndex, given, key == null ? null : key.toString(), reason, message));
                    }
                    continue;
                }
            }
            placedRows.add(new Placed(row, cell, key));
            if (key != null) {
                lastCell.put(key, cell);
            }
        }
        // A key's rows go where its last row goes. Its earlier rows in that same place stay, in delta order, as
        // RouteByH3Cell leaves them in a cell's FlowFile: the partition's delta then drops them for the later row, and
        // both paths hash the same rows (section 5.8). Earlier rows bound elsewhere are dropped here.
        SortedMap<String, List<DeltaRow>> byCell = new TreeMap<>();
        List<DeltaRow> deletions = new ArrayList<>();
        int duplicates = 0;
        for (Placed placed : placedRows) {
            if (placed.key() != null && !Objects.equals(lastCell.get(placed.key()), placed.cell())) {
                duplicates++;
            } else if (placed.cell() == null) {
                deletions.add(placed.row());
            } else {
                byCell.computeIfAbsent(placed.cell(), c -> new ArrayList<>()).add(placed.row());
            }
        }
        return new Routed(byCell, deletions, duplicates, unkeyable);
    }

    /**
     * The cell of the row's geometry. A deletion is routed by it too when it has one, as RouteByH3Cell routes it, so
     * that the command line and the processors give the partition the same delta and the same operation id
     * (docs/archive-format.md, section 5.8).
     *
     * @throws KeyingException          when the geometry cannot be keyed (null, empty, out of range)
     * @throws IllegalArgumentException when the value is not a geometry
     */
    private String cellOf(GeometryCodec codec, DeltaRow row, long rowIndex) {
        Geometry geometry = codec.decode(row.row(), rowIndex);
        return archive.keyer().cellOf(geometry, archive.sourceCrs());
    }

    private record Placed(DeltaRow row, String cell, FeatureKey key) {}
}
