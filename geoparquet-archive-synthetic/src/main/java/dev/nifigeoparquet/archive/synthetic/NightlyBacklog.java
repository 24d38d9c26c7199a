package dev.nifigeoparquet.archive.synthetic;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;

/**
 * Three nights of deltas against a {@link SyntheticParcels} archive that only converge when they are applied with
 * their sequences: each night updates keys, adds new ones, deletes some, re-inserts keys an earlier night deleted,
 * deletes keys an earlier night added, and moves keys between cells, so that applying them out of order without a
 * sequence leaves other rows than applying them in order. Rows are in {@link NightlyDelta#schema()}, deletions marked by
 * {@link NightlyDelta#DELETE_MARKER}; each night's rows carry the night's {@code updated_at}, or all the first night's
 * when the versions are tied (then the sequence alone orders them).
 */
public final class NightlyBacklog {

    /** The nights' delta sequences, as their dates: 2026-12-01 to 2026-12-03. */
    public static final List<Long> SEQUENCES = List.of(20261201L, 20261202L, 20261203L);

    private static final List<Instant> TIMES = List.of(
            Instant.parse("2026-12-01T02:00:00Z"),
            Instant.parse("2026-12-02T02:00:00Z"),
            Instant.parse("2026-12-03T02:00:00Z"));

    /**
     * What applying the three nights in order leaves of a key they write.
     *
     * @param deleted whether the key is gone
     * @param area    its row's {@code area_m2} otherwise
     * @param cell    the cell of its row's geometry otherwise
     */
    public record Fate(boolean deleted, double area, String cell) {}

    private final List<List<Group>> nights;
    private final Map<String, Fate> fates;

    private NightlyBacklog(List<List<Group>> nights, Map<String, Fate> fates) {
        this.nights = nights;
        this.fates = fates;
    }

    /**
     * The backlog against an archive of {@code baseline} rows by cell: it writes keys of its three largest cells.
     *
     * @param cellOf       the archive's keying of a row
     * @param tiedVersions true to give every night's rows the same {@code updated_at}
     */
    public static NightlyBacklog against(
            Map<String, List<Group>> baseline, Function<Group, String> cellOf, boolean tiedVersions) {
        List<List<Group>> cells = baseline.values().stream()
                .filter(rows -> rows.size() >= 5)
                .sorted((x, y) -> y.size() - x.size())
                .limit(3)
                .toList();
        if (cells.size() < 3) {
            throw new IllegalArgumentException("The backlog needs three cells of at least 5 parcels each");
        }
        List<Group> a = cells.get(0);
        List<Group> b = cells.get(1);
        List<Group> c = cells.get(2);
        Group updatedThenDeleted = a.get(0);
        Group deletedThenReinsertedElsewhere = a.get(1);
        Group deletedThenReinserted = a.get(2);
        Group movedTwice = a.get(3);
        Group updatedThenDeletedLater = b.get(0);
        Group addedDeletedReadded = renamed(a.get(4), "n-1");
        Group addedTwice = renamed(b.get(1), "n-2");
        Group addedThenDeleted = renamed(c.get(2), "n-3");

        Night first = new Night(0, tiedVersions);
        first.update(updatedThenDeleted, updatedThenDeleted, 1.0);
        first.update(deletedThenReinsertedElsewhere, deletedThenReinsertedElsewhere, 1.0);
        first.update(addedDeletedReadded, addedDeletedReadded, 1.0);
        first.delete(deletedThenReinserted);
        first.update(movedTwice, b.get(2), 1.0);
        first.update(updatedThenDeletedLater, updatedThenDeletedLater, 1.0);
        first.update(addedThenDeleted, addedThenDeleted, 1.0);
        Night second = new Night(1, tiedVersions);
        second.update(updatedThenDeleted, updatedThenDeleted, 2.0);
        second.delete(deletedThenReinsertedElsewhere);
        second.update(deletedThenReinserted, deletedThenReinserted, 2.0);
        second.delete(addedDeletedReadded);
        second.update(movedTwice, c.get(0), 2.0);
        second.update(addedTwice, addedTwice, 2.0);
        second.delete(addedThenDeleted);
        Night third = new Night(2, tiedVersions);
        third.delete(updatedThenDeleted);
        third.update(deletedThenReinsertedElsewhere, c.get(1), 3.0);
        third.update(deletedThenReinserted, deletedThenReinserted, 3.0);
        third.update(movedTwice, c.get(0), 3.0);
        third.update(addedDeletedReadded, addedDeletedReadded, 3.0);
        third.update(addedTwice, addedTwice, 3.0);
        third.delete(updatedThenDeletedLater);

        Map<String, Fate> fates = new LinkedHashMap<>();
        fates.put(key(updatedThenDeleted), new Fate(true, 0, null));
        fates.put(key(deletedThenReinsertedElsewhere), new Fate(false, 3.0, cellOf.apply(c.get(1))));
        fates.put(key(deletedThenReinserted), new Fate(false, 3.0, cellOf.apply(deletedThenReinserted)));
        fates.put(key(movedTwice), new Fate(false, 3.0, cellOf.apply(c.get(0))));
        fates.put(key(addedDeletedReadded), new Fate(false, 3.0, cellOf.apply(addedDeletedReadded)));
        fates.put(key(addedTwice), new Fate(false, 3.0, cellOf.apply(addedTwice)));
        fates.put(key(addedThenDeleted), new Fate(true, 0, null));
        fates.put(key(updatedThenDeletedLater), new Fate(true, 0, null));
        return new NightlyBacklog(List.of(first.rows, second.rows, third.rows), fates);
    }

    /** The rows of night {@code night} (0 to 2), in {@link NightlyDelta#schema()}. */
    public List<Group> night(int night) {
        return nights.get(night);
    }

    /** The sequence of night {@code night}. */
    public static long sequence(int night) {
        return SEQUENCES.get(night);
    }

    /** Every key the nights write, with what applying them in order leaves of it. */
    public Map<String, Fate> fates() {
        return fates;
    }

    /** How much the nights change the archive's row count, applied in order. */
    public long netRows() {
        // Of the keys written, those the baseline held: the keys without an "n-" name. New keys that survive add rows,
        // held keys that end deleted remove them.
        long net = 0;
        for (Map.Entry<String, Fate> fate : fates.entrySet()) {
            boolean isNew = fate.getKey().startsWith("n-");
            if (isNew && !fate.getValue().deleted()) {
                net++;
            } else if (!isNew && fate.getValue().deleted()) {
                net--;
            }
        }
        return net;
    }

    private static String key(Group row) {
        return row.getString(SyntheticParcels.KEY, 0);
    }

    private static Group renamed(Group geometryFrom, String id) {
        Group row = new SimpleGroup(SyntheticParcels.schema());
        row.add(SyntheticParcels.KEY, id);
        row.add("land_use", geometryFrom.getString("land_use", 0));
        row.add("area_m2", geometryFrom.getDouble("area_m2", 0));
        row.add(SyntheticParcels.VERSION, geometryFrom.getLong(SyntheticParcels.VERSION, 0));
        row.add(SyntheticParcels.GEOMETRY, geometryFrom.getBinary(SyntheticParcels.GEOMETRY, 0));
        return row;
    }

    /** The rows of one night as they are added. */
    private static final class Night {
        final List<Group> rows = new ArrayList<>();
        final long version;
        final String landUse;

        Night(int night, boolean tiedVersions) {
            this.version = ChronoUnit.MICROS.between(Instant.EPOCH, TIMES.get(tiedVersions ? 0 : night));
            this.landUse = "night " + (night + 1);
        }

        /** The key of {@code key} with the geometry of {@code geometryFrom} and a new area. */
        void update(Group key, Group geometryFrom, double area) {
            rows.add(row(key, geometryFrom, area, false));
        }

        void delete(Group key) {
            rows.add(row(key, key, 0, true));
        }

        private Group row(Group key, Group geometryFrom, double area, boolean deleted) {
            Group row = new SimpleGroup(NightlyDelta.schema());
            row.add(SyntheticParcels.KEY, key(key));
            row.add("land_use", landUse);
            row.add("area_m2", area);
            row.add(SyntheticParcels.VERSION, version);
            row.add(SyntheticParcels.GEOMETRY, geometryFrom.getBinary(SyntheticParcels.GEOMETRY, 0));
            row.add(NightlyDelta.DELETE_MARKER, deleted);
            return row;
        }
    }
}
