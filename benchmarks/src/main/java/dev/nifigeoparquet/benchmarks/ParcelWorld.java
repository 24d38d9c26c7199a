package dev.nifigeoparquet.benchmarks;

import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.apache.parquet.example.data.Group;
import org.locationtech.jts.geom.Geometry;

/**
 * Parcels, generated so that parcel {@code i} of a world can be regenerated from {@code i} alone. That is what lets a
 * benchmark key millions of parcels in one pass, keep only an int per parcel, and write each partition in a second
 * pass without holding rows in memory. Their rows and geometries are the run's {@link RowModel}'s.
 *
 * <p>Skew: towns get Zipf weights (town {@code k} has weight {@code 1/(k+1)}) and parcels spread around them by a
 * town-specific Gaussian, so at H3 resolution 4 a few partitions hold most parcels and many hold a handful, as
 * real parcel layers do.
 */
final class ParcelWorld {

    static final String KEY = RowModel.KEY;
    /** 2024-01-01T00:00:00Z in microseconds: the version of every parcel as loaded. */
    static final long LOADED_AT_MICROS = 1_704_067_200_000_000L;

    private static final double METRES_PER_DEGREE = 111_320;

    /**
     * One parcel: its extent has its lower-left corner at (lon, lat); {@code town} names its city and streets,
     * {@code detail} seeds its shape and attributes.
     */
    record Parcel(String id, double lon, double lat, double width, double height, int landUse, int town, long detail) {

        Geometry geometry() {
            return RowModel.current().geometry(this);
        }

        /** The same parcel under a new id, or with its land use changed (an attribute correction). */
        Parcel withId(String newId) {
            return new Parcel(newId, lon, lat, width, height, landUse, town, detail);
        }

        Parcel withLandUse(int newLandUse) {
            return new Parcel(id, lon, lat, width, height, newLandUse, town, detail);
        }

        /** The land use a correction gives it: the next one. */
        Parcel corrected() {
            return withLandUse((landUse + 1) % RowModel.current().landUses());
        }

        /** The same shape moved so that its corner is at (newLon, newLat). */
        Parcel at(double newLon, double newLat) {
            return new Parcel(id, newLon, newLat, width, height, landUse, town, detail);
        }

        Group row(long updatedAtMicros) {
            return RowModel.current().row(this, updatedAtMicros);
        }

        String cell(H3Keyer keyer) {
            return keyer.cellOf(geometry(), SourceCrs.CRS84);
        }
    }

    private final long seed;
    private final double[][] towns;
    private final double[] townSpread;
    private final double[] cumulativeWeight;

    /**
     * @param seed  seed of every random choice
     * @param towns number of cluster centres over western Europe (2°W..12°E, 43°N..53°N)
     */
    ParcelWorld(long seed, int towns) {
        this.seed = seed;
        SplittableRandom random = new SplittableRandom(seed);
        this.towns = new double[towns][];
        this.townSpread = new double[towns];
        this.cumulativeWeight = new double[towns];
        double total = 0;
        for (int i = 0; i < towns; i++) {
            this.towns[i] = new double[] {-2 + random.nextDouble() * 14, 43 + random.nextDouble() * 10};
            this.townSpread[i] = 0.02 + 0.05 * random.nextDouble();
            total += 1.0 / (i + 1);
            cumulativeWeight[i] = total;
        }
        for (int i = 0; i < towns; i++) {
            cumulativeWeight[i] /= total;
        }
    }

    static String id(long index) {
        return "parcel-" + index;
    }

    /** Parcel {@code index} of this world: always the same parcel for the same seed and index. */
    Parcel parcel(long index) {
        SplittableRandom random = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + index);
        int town = pickTown(random.nextDouble());
        double spread = townSpread[town];
        double lon = towns[town][0] + random.nextGaussian() * spread;
        double lat = towns[town][1] + random.nextGaussian() * spread;
        return shaped(id(index), lon, lat, town, random);
    }

    /** A parcel of {@code town} whose corner is near (lon, lat): within {@code radius} degrees, uniformly. */
    static Parcel near(String id, double lon, double lat, double radius, int town, SplittableRandom random) {
        return shaped(
                id,
                lon + (random.nextDouble() * 2 - 1) * radius,
                lat + (random.nextDouble() * 2 - 1) * radius,
                town,
                random);
    }

    private static Parcel shaped(String id, double lon, double lat, int town, SplittableRandom random) {
        double width = (15 + random.nextDouble() * 45) / (METRES_PER_DEGREE * Math.cos(Math.toRadians(lat)));
        double height = (15 + random.nextDouble() * 45) / METRES_PER_DEGREE;
        return new Parcel(
                id, lon, lat, width, height, random.nextInt(RowModel.current().landUses()), town, random.nextLong());
    }

    private int pickTown(double u) {
        int at = Arrays.binarySearch(cumulativeWeight, u);
        int town = at >= 0 ? at : -at - 1;
        return Math.min(town, cumulativeWeight.length - 1);
    }
}
