package dev.nifigeoparquet.archive.synthetic;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;

/**
 * A synthetic nightly delta against a {@link SyntheticParcels} archive, concentrated in a few cells as real
 * deltas are (a municipality re-surveys a district): edits of existing parcels, new parcels, parcels whose corrected
 * geometry moves them into another cell, and deletions marked by {@link #DELETE_MARKER}. Deterministic for a seed
 * and a baseline. The counts of each kind are known, so the expected row count after the update is too.
 */
public final class NightlyDelta {

    /** The boolean column whose true value marks a deletion. */
    public static final String DELETE_MARKER = "deleted";

    private static final String LAND_USE = "land_use";
    private static final String AREA = "area_m2";

    private final Random random;
    private final SyntheticParcels parcels;

    public NightlyDelta(long seed) {
        this.random = new Random(seed);
        this.parcels = new SyntheticParcels(seed, 1);
    }

    /**
     * A generated delta.
     *
     * @param rows     the delta rows, in {@link #schema()}
     * @param hotCells the cells the delta was concentrated in
     * @param updates  rows that edit an existing parcel in place
     * @param inserts  rows with keys the archive does not hold
     * @param moves    rows that give an existing parcel a geometry in another cell
     * @param deletes  rows that delete an existing parcel
     */
    public record Delta(List<Group> rows, List<String> hotCells, int updates, int inserts, int moves, int deletes) {

        public Delta {
            rows = List.copyOf(rows);
            hotCells = List.copyOf(hotCells);
        }

        /** The change of the archive's row count this delta makes when upserted: new keys minus deleted ones. */
        public long netRows() {
            return (long) inserts - deletes;
        }
    }

    /** The parcel schema plus the optional boolean delete marker. */
    public static MessageType schema() {
        List<Type> fields = new ArrayList<>(SyntheticParcels.schema().getFields());
        fields.add(Types.optional(PrimitiveTypeName.BOOLEAN).named(DELETE_MARKER));
        return new MessageType(SyntheticParcels.schema().getName(), fields);
    }

    /**
     * Generates a delta of {@code size} rows: about 55% edits, 25% new parcels, 10% moves and 10% deletions, all
     * in a few cells chosen at random among those populated enough to hold them (moves go from the first of those cells to the second).
     *
     * @param baseline  the archive's rows by cell
     * @param cellOf    the archive's keying of a row
     * @param updatedAt the version timestamp of the delta's rows
     */
    public Delta generate(
            Map<String, List<Group>> baseline, int size, Function<Group, String> cellOf, Instant updatedAt) {
        if (size < 1) {
            throw new IllegalArgumentException("A delta needs at least one row, was asked for " + size);
        }
        // A few cells chosen at random among those populated enough to hold their share of the delta's edits.
        int hotCount = Math.max(1, Math.min(baseline.size(), 2 + size / 500));
        int perCell = (int) Math.ceil(size * 0.75 / hotCount * 1.5);
        List<String> candidates = new ArrayList<>(baseline.keySet().stream()
                .filter(cell -> baseline.get(cell).size() >= perCell)
                .sorted()
                .toList());
        if (candidates.size() < hotCount) {
            candidates = new ArrayList<>(baseline.keySet());
            candidates.sort(
                    Comparator.comparingInt((String cell) -> baseline.get(cell).size())
                            .reversed()
                            .thenComparing(cell -> cell));
            candidates = new ArrayList<>(candidates.subList(0, hotCount));
        }
        Collections.shuffle(candidates, random);
        List<String> hot = new ArrayList<>(candidates.subList(0, hotCount));
        hot.sort(null);

        List<Group> existing = new ArrayList<>();
        hot.forEach(cell -> existing.addAll(baseline.get(cell)));
        Collections.shuffle(existing, random);

        int moves = hot.size() > 1 ? size / 10 : 0;
        int deletes = size / 10;
        int inserts = size / 4;
        int updates = size - moves - deletes - inserts;
        int needExisting = updates + moves + deletes;
        if (needExisting > existing.size()) {
            throw new IllegalArgumentException(
                    "A delta of " + size + " rows needs " + needExisting + " existing parcels in its cells " + hot
                            + ", which hold " + existing.size() + "; generate a larger archive or a smaller delta");
        }
        List<Group> rows = new ArrayList<>(size);
        int next = 0;
        for (int i = 0; i < updates; i++) {
            Group row = existing.get(next++);
            rows.add(copy(
                    row,
                    row,
                    LAND_USE_CHOICES[random.nextInt(LAND_USE_CHOICES.length)],
                    row.getDouble(AREA, 0) * (0.9 + 0.2 * random.nextDouble()),
                    updatedAt,
                    false));
        }
        for (int i = 0; i < deletes; i++) {
            Group row = existing.get(next++);
            rows.add(copy(row, row, row.getString(LAND_USE, 0), row.getDouble(AREA, 0), updatedAt, true));
        }
        // A re-survey shifts parcels of one cell across its boundary into the next: one pair of cells, so the moves
        // rewrite one partition more, not every hot partition once per other.
        Set<String> used = new HashSet<>();
        existing.subList(0, next).forEach(row -> used.add(row.getString(SyntheticParcels.KEY, 0)));
        List<Group> movable = new ArrayList<>(baseline.getOrDefault(hot.get(0), List.of()));
        Collections.shuffle(movable, random);
        String to = hot.size() > 1 ? hot.get(1) : hot.get(0);
        int made = 0;
        for (int i = 0, attempts = 0; made < moves && i < movable.size() && attempts < moves * 20; attempts++) {
            Group row = movable.get(i);
            if (used.contains(row.getString(SyntheticParcels.KEY, 0))) {
                i++;
                continue;
            }
            Group moved = near(row.getString(SyntheticParcels.KEY, 0), baseline.get(to), updatedAt);
            if (!to.equals(cellOf.apply(moved))) {
                continue;
            }
            rows.add(copy(row, moved, row.getString(LAND_USE, 0), moved.getDouble(AREA, 0), updatedAt, false));
            used.add(row.getString(SyntheticParcels.KEY, 0));
            i++;
            made++;
        }
        int inserted = 0;
        for (int attempt = 0; inserted < inserts + (moves - made) && attempt < (inserts + moves) * 20 + 20; attempt++) {
            String cell = hot.get(random.nextInt(hot.size()));
            Group parcel = near("n-" + updatedAt.getEpochSecond() + "-" + inserted, baseline.get(cell), updatedAt);
            if (cell.equals(cellOf.apply(parcel))) {
                rows.add(copy(
                        parcel, parcel, parcel.getString(LAND_USE, 0), parcel.getDouble(AREA, 0), updatedAt, false));
                inserted++;
            }
        }
        Collections.shuffle(rows, random);
        return new Delta(rows, hot, updates, inserted, made, deletes);
    }

    private static final String[] LAND_USE_CHOICES = {
        "residential", "agricultural", "commercial", "industrial", "forest"
    };

    /** A new parcel of the given id a few metres from a random parcel of the given rows. */
    private Group near(String id, List<Group> rows, Instant updatedAt) {
        Point centre = centroid(rows.get(random.nextInt(rows.size())));
        double lon = centre.getX() + random.nextGaussian() * 0.0005;
        double lat = centre.getY() + random.nextGaussian() * 0.0005;
        return parcels.parcel(id, lon, lat, updatedAt);
    }

    private static Point centroid(Group row) {
        try {
            return new WKBReader()
                    .read(row.getBinary(SyntheticParcels.GEOMETRY, 0).getBytes())
                    .getCentroid();
        } catch (ParseException e) {
            throw new IllegalStateException("A synthetic parcel's geometry is always valid WKB", e);
        }
    }

    /** A delta row: the key of {@code keyFrom}, the geometry of {@code geometryFrom}, the given values. */
    private static Group copy(
            Group keyFrom, Group geometryFrom, String landUse, double area, Instant updatedAt, boolean deleted) {
        Group row = new SimpleGroup(schema());
        row.add(SyntheticParcels.KEY, keyFrom.getString(SyntheticParcels.KEY, 0));
        row.add(LAND_USE, landUse);
        row.add(AREA, area);
        row.add(SyntheticParcels.VERSION, ChronoUnit.MICROS.between(Instant.EPOCH, updatedAt));
        row.add(SyntheticParcels.GEOMETRY, geometryFrom.getBinary(SyntheticParcels.GEOMETRY, 0));
        row.add(DELETE_MARKER, deleted);
        return row;
    }
}
