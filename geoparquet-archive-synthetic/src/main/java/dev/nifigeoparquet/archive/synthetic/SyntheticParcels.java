package dev.nifigeoparquet.archive.synthetic;

import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Polygon;

/**
 * Synthetic land parcels for demos, tests and benchmarks: small rectangles clustered around towns whose sizes
 * follow a skewed (Zipf-like) distribution, as real parcels are, over a region of western Europe. Deterministic
 * for a given seed.
 */
public final class SyntheticParcels {

    public static final String KEY = "parcel_id";
    public static final String VERSION = "updated_at";
    public static final String GEOMETRY = "geometry";

    private static final String[] LAND_USE = {"residential", "agricultural", "commercial", "industrial", "forest"};
    private static final double METRES_PER_DEGREE = 111_320;

    private final Random random;
    private final double[][] towns;
    private final double[] cumulativeWeight;
    private final GeometryFactory factory = new GeometryFactory();

    /**
     * @param seed  seed of every random choice
     * @param towns number of cluster centres
     */
    public SyntheticParcels(long seed, int towns) {
        this.random = new Random(seed);
        this.towns = new double[towns][];
        this.cumulativeWeight = new double[towns];
        double total = 0;
        for (int i = 0; i < towns; i++) {
            // Western Europe: 2°W..12°E, 43°N..53°N.
            this.towns[i] = new double[] {-2 + random.nextDouble() * 14, 43 + random.nextDouble() * 10};
            total += 1.0 / (i + 1);
            cumulativeWeight[i] = total;
        }
        for (int i = 0; i < towns; i++) {
            cumulativeWeight[i] /= total;
        }
    }

    /** The parcel schema: key, land use, area, version timestamp and WKB geometry. */
    public static MessageType schema() {
        return Types.buildMessage()
                .required(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named(KEY)
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("land_use")
                .required(PrimitiveTypeName.DOUBLE)
                .named("area_m2")
                .required(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS))
                .named(VERSION)
                .required(PrimitiveTypeName.BINARY)
                .named(GEOMETRY)
                .named("parcels");
    }

    /** The canonical footer of a parcel archive: a GeoParquet 1.1 block, polygons in OGC:CRS84. */
    public static FooterEntries footer() {
        GeoMetadata geo = GeoMetadata.builder()
                .wkbColumn(GEOMETRY, List.of("Polygon"), null, null)
                .build();
        return FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, geo.rawString()));
    }

    /**
     * The spec of a parcel archive: this schema and footer, keyed by {@value #KEY}, versioned by {@value #VERSION}.
     */
    public static ArchiveSpec archiveSpec(int resolution, WriterSettings writer, String description) {
        return ArchiveSpec.of(schema(), footer(), List.of(KEY), VERSION, resolution, writer, description);
    }

    /** A new parcel near a town chosen with skewed weights. */
    public Group next(String id, Instant updatedAt) {
        double[] town = towns[pickTown()];
        double spread = 0.02 + 0.05 * random.nextDouble();
        double lon = town[0] + random.nextGaussian() * spread;
        double lat = town[1] + random.nextGaussian() * spread;
        return parcel(id, lon, lat, updatedAt);
    }

    /** A parcel of the given id centred at (lon, lat), 15 to 60 metres a side. */
    public Group parcel(String id, double lon, double lat, Instant updatedAt) {
        double width = (15 + random.nextDouble() * 45) / (METRES_PER_DEGREE * Math.cos(Math.toRadians(lat)));
        double height = (15 + random.nextDouble() * 45) / METRES_PER_DEGREE;
        Polygon polygon = factory.createPolygon(new Coordinate[] {
            new Coordinate(lon, lat),
            new Coordinate(lon + width, lat),
            new Coordinate(lon + width, lat + height),
            new Coordinate(lon, lat + height),
            new Coordinate(lon, lat)
        });
        Group row = new SimpleGroup(schema());
        row.add(KEY, id);
        row.add("land_use", LAND_USE[random.nextInt(LAND_USE.length)]);
        row.add("area_m2", width * height * METRES_PER_DEGREE * METRES_PER_DEGREE * Math.cos(Math.toRadians(lat)));
        row.add(VERSION, ChronoUnit.MICROS.between(Instant.EPOCH, updatedAt));
        row.add(GEOMETRY, Binary.fromConstantByteArray(Wkb.write(polygon)));
        return row;
    }

    private int pickTown() {
        double u = random.nextDouble();
        for (int i = 0; i < cumulativeWeight.length; i++) {
            if (u <= cumulativeWeight[i]) {
                return i;
            }
        }
        return cumulativeWeight.length - 1;
    }
}
