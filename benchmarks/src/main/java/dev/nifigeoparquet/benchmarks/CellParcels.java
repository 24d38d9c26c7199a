package dev.nifigeoparquet.benchmarks;

import com.uber.h3core.H3Core;
import com.uber.h3core.util.LatLng;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Parcels that key into one chosen H3 cell, for partitions of a controlled size: each parcel is drawn near the
 * cell's centre and kept only if the engine's keyer puts it in that cell. Deterministic per (seed, index).
 */
final class CellParcels {

    private static final H3Core H3;

    static {
        try {
            H3 = H3Core.newInstance();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private final H3Keyer keyer;
    private final long seed;

    CellParcels(int resolution, long seed) {
        this.keyer = new H3Keyer(resolution);
        this.seed = seed;
    }

    /** The cell of a point, at this generator's resolution. */
    String cellAt(double lon, double lat) {
        return H3.latLngToCellAddress(lat, lon, keyer.resolution());
    }

    /** {@code count} distinct cells around (lon, lat), nearest first. */
    List<String> cellsAround(double lon, double lat, int count) {
        String origin = cellAt(lon, lat);
        for (int radius = 1; ; radius++) {
            List<String> disk = H3.gridDisk(origin, radius);
            if (disk.size() >= count) {
                return disk.subList(0, count);
            }
        }
    }

    /** Parcel {@code index} of {@code cell}, with id {@code id}. */
    ParcelWorld.Parcel parcel(String cell, String id, long index) {
        LatLng centre = H3.cellToLatLng(cell);
        int town = Math.floorMod(cell.hashCode(), 400);
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
        for (int attempt = 0; attempt < 1000; attempt++) {
            ParcelWorld.Parcel parcel = ParcelWorld.near(id, centre.lng, centre.lat, 0.06, town, random);
            if (parcel.cell(keyer).equals(cell)) {
                return parcel;
            }
        }
        throw new IllegalStateException("no parcel near the centre of " + cell + " keys into it");
    }
}
