package dev.nifigeoparquet.benchmarks;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import org.apache.parquet.example.data.Group;

/**
 * A skewed parcel archive of a {@link ParcelWorld}, built in two passes (key every parcel, then write each
 * partition's parcels), and the nightly deltas generated against it.
 */
final class ParcelArchive {

    /** One day after loading: the version of every changed parcel. */
    static final long CHANGED_AT_MICROS = ParcelWorld.LOADED_AT_MICROS + 86_400_000_000L;

    final Path root;
    final ParcelWorld world;
    final int rows;
    final List<String> cells;
    /** Parcel indexes grouped by cell: those of cell {@code c} are {@code order[start[c]..start[c+1])}. */
    private final int[] order;

    private final int[] start;

    private ParcelArchive(Path root, ParcelWorld world, int rows, List<String> cells, int[] order, int[] start) {
        this.root = root;
        this.world = world;
        this.rows = rows;
        this.cells = cells;
        this.order = order;
        this.start = start;
    }

    static ParcelArchive build(Path root, long seed, int towns, int rows, int resolution) throws IOException {
        ParcelWorld world = new ParcelWorld(seed, towns);
        H3Keyer keyer = new H3Keyer(resolution);
        Map<String, Integer> cellIndex = new HashMap<>();
        List<String> cells = new ArrayList<>();
        int[] cellOf = new int[rows];
        for (int i = 0; i < rows; i++) {
            String cell = world.parcel(i).cell(keyer);
            Integer index = cellIndex.get(cell);
            if (index == null) {
                index = cells.size();
                cellIndex.put(cell, index);
                cells.add(cell);
            }
            cellOf[i] = index;
        }
        int[] start = new int[cells.size() + 1];
        for (int c : cellOf) {
            start[c + 1]++;
        }
        for (int c = 0; c < cells.size(); c++) {
            start[c + 1] += start[c];
        }
        int[] fill = Arrays.copyOf(start, cells.size());
        int[] order = new int[rows];
        for (int i = 0; i < rows; i++) {
            order[fill[cellOf[i]]++] = i;
        }
        GeoParquetArchive archive = Archives.create(root, RowModel.current().footer(), resolution);
        Archives.Loader loader = new Archives.Loader(archive);
        for (int c = 0; c < cells.size(); c++) {
            loader.partition(cells.get(c), rowsOf(world, order, start[c], start[c + 1]));
        }
        loader.finish();
        return new ParcelArchive(root, world, rows, cells, order, start);
    }

    private static Iterator<Group> rowsOf(ParcelWorld world, int[] order, int from, int to) {
        return new Iterator<>() {
            private int next = from;

            @Override
            public boolean hasNext() {
                return next < to;
            }

            @Override
            public Group next() {
                if (next >= to) {
                    throw new NoSuchElementException();
                }
                return world.parcel(order[next++]).row(ParcelWorld.LOADED_AT_MICROS);
            }
        };
    }

    int rowsIn(int cell) {
        return start[cell + 1] - start[cell];
    }

    /** The parcel indexes of one cell. */
    int[] parcelsIn(int cell) {
        return Arrays.copyOfRange(order, start[cell], start[cell + 1]);
    }

    /**
     * Picks partitions at random (seeded) whose data bytes add up to about {@code fraction} of the archive's, never
     * one larger than half the budget, so the delta lands in several ordinary partitions.
     */
    List<Integer> pickTouchedCells(Map<String, Long> bytesByCell, double fraction, long seed) {
        return pickCells(bytesByCell, fraction, seed, false);
    }

    /**
     * Picks partitions at random (seeded) whose data bytes add up to about {@code fraction} of the archive's, any
     * partition eligible, the largest too; at a fraction of 1, every partition.
     */
    List<Integer> pickCellsHolding(Map<String, Long> bytesByCell, double fraction, long seed) {
        return pickCells(bytesByCell, fraction, seed, true);
    }

    private List<Integer> pickCells(
            Map<String, Long> bytesByCell, double fraction, long seed, boolean largestEligible) {
        long total = bytesByCell.values().stream().mapToLong(Long::longValue).sum();
        double budget = total * fraction;
        List<Integer> shuffled = new ArrayList<>();
        for (int c = 0; c < cells.size(); c++) {
            shuffled.add(c);
        }
        Collections.shuffle(shuffled, new Random(seed));
        List<Integer> picked = new ArrayList<>();
        long sum = 0;
        for (int c : shuffled) {
            long bytes = bytesByCell.get(cells.get(c));
            if ((!largestEligible && bytes > budget / 2) || sum + bytes > budget * 1.05) {
                continue;
            }
            picked.add(c);
            sum += bytes;
            if (fraction < 1 && sum >= budget * 0.95) {
                break;
            }
        }
        return picked;
    }

    /**
     * A nightly delta of {@code size} changes landing in {@code touched} cells: about 70% attribute updates of
     * existing parcels, 20% new parcels, 8% deletions and 0.5% (at least 2) parcels whose corrected geometry moves
     * them into another touched cell. The moved parcels come from the smallest touched cell.
     */
    Delta delta(List<Integer> touched, int size, long seed, H3Keyer keyer) {
        return delta(touched, size, seed, keyer, false);
    }

    /**
     * As {@link #delta(List, int, long, H3Keyer)}; with {@code everyTouchedCell}, the first updates take one parcel of
     * each touched cell, so that every one of them is rewritten however small it is.
     */
    Delta delta(List<Integer> touched, int size, long seed, H3Keyer keyer, boolean everyTouchedCell) {
        SplittableRandom random = new SplittableRandom(seed);
        int moved = Math.max(2, (int) Math.round(size * 0.005));
        int deletes = (int) Math.round(size * 0.08);
        int added = (int) Math.round(size * 0.20);
        int updates = size - moved - deletes - added;
        List<Integer> bySize = new ArrayList<>(touched);
        bySize.sort((a, b) -> Integer.compare(rowsIn(a), rowsIn(b)));
        int source = bySize.stream()
                .filter(c -> rowsIn(c) > moved)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no touched cell holds " + moved + " parcels"));
        Set<String> touchedNames = new HashSet<>();
        touched.forEach(c -> touchedNames.add(cells.get(c)));

        List<Delta.Change> changes = new ArrayList<>();
        Set<Integer> used = new HashSet<>();
        int[] sourceParcels = parcelsIn(source);
        List<Integer> others = touched.stream().filter(c -> c != source).toList();
        for (int i = 0; i < moved; i++) {
            int index = sourceParcels[i];
            used.add(index);
            int target = others.get(random.nextInt(others.size()));
            int[] targetParcels = parcelsIn(target);
            ParcelWorld.Parcel there = world.parcel(targetParcels[random.nextInt(targetParcels.length)]);
            ParcelWorld.Parcel movedParcel = there.withId(ParcelWorld.id(index));
            changes.add(new Delta.Change(
                    movedParcel.row(CHANGED_AT_MICROS), movedParcel.cell(keyer), false, Delta.Kind.MOVED));
        }
        int[] pool =
                touched.stream().flatMapToInt(c -> Arrays.stream(parcelsIn(c))).toArray();
        shuffle(pool, random);
        if (everyTouchedCell) {
            pool = oneOfEachCellFirst(touched, pool, random);
        }
        int next = 0;
        for (int i = 0; i < updates + deletes; i++) {
            while (used.contains(pool[next])) {
                next++;
            }
            int index = pool[next++];
            used.add(index);
            ParcelWorld.Parcel parcel = world.parcel(index);
            if (i < updates) {
                ParcelWorld.Parcel corrected = parcel.corrected();
                changes.add(new Delta.Change(
                        corrected.row(CHANGED_AT_MICROS), corrected.cell(keyer), false, Delta.Kind.UPDATE));
            } else {
                changes.add(
                        new Delta.Change(parcel.row(CHANGED_AT_MICROS), parcel.cell(keyer), true, Delta.Kind.DELETE));
            }
        }
        changes.addAll(newParcels(pool, added, rows, touchedNames, random, keyer));
        return new Delta(changes);
    }

    /** The pool led by one random parcel of each cell (the pool's own copy of it is skipped as already used). */
    private int[] oneOfEachCellFirst(List<Integer> touched, int[] pool, SplittableRandom random) {
        int[] led = new int[touched.size() + pool.length];
        for (int i = 0; i < touched.size(); i++) {
            int c = touched.get(i);
            led[i] = order[start[c] + random.nextInt(rowsIn(c))];
        }
        System.arraycopy(pool, 0, led, touched.size(), pool.length);
        return led;
    }

    /** New parcels beside existing ones of the given pool, keyed into one of the allowed cells. */
    List<Delta.Change> newParcels(
            int[] pool, int count, long firstIndex, Set<String> allowedCells, SplittableRandom random, H3Keyer keyer) {
        List<Delta.Change> changes = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ParcelWorld.Parcel neighbour = world.parcel(pool[random.nextInt(pool.length)]);
            String id = ParcelWorld.id(firstIndex + i);
            ParcelWorld.Parcel parcel =
                    ParcelWorld.near(id, neighbour.lon(), neighbour.lat(), 0.001, neighbour.town(), random);
            String cell = parcel.cell(keyer);
            if (!allowedCells.contains(cell)) {
                parcel = neighbour.withId(id);
                cell = parcel.cell(keyer);
            }
            changes.add(new Delta.Change(parcel.row(CHANGED_AT_MICROS), cell, false, Delta.Kind.NEW));
        }
        return changes;
    }

    static void shuffle(int[] values, SplittableRandom random) {
        for (int i = values.length - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = values[i];
            values[i] = values[j];
            values[j] = t;
        }
    }
}
