package dev.nifigeoparquet.benchmarks;

import com.uber.h3core.H3Core;
import dev.nifigeoparquet.archive.cells.CrsReprojector;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.parquet.example.data.Group;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.Point;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The per-feature stages of routing and keying, one parcel per operation (cycling through 4,096 skewed parcels):
 * WKB decode, reprojection (EPSG:3857 to EPSG:4326; archives in OGC:CRS84 skip it), centroid, the H3 index of
 * a point, and the whole keying of a decoded CRS84 geometry.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StageBenchmarks {

    private static final int PARCELS = 4096;

    private Group[] rows;
    private Geometry[] lonLat;
    private Geometry[] webMercator;
    private Point[] centroids;
    private GeometryCodec codec;
    private H3Keyer keyer;
    private H3Core h3;
    private CrsReprojector reprojector;
    private SourceCrs mercator;
    private int next;

    @Setup
    public void setUp() throws IOException {
        ParcelWorld world = new ParcelWorld(42, 400);
        FooterEntries footer = RowModel.current().footer();
        GeoMetadata geo = GeoMetadata.parse(footer.geo());
        codec = GeometryCodec.forColumn(RowModel.current().schema(), geo.primaryColumn(), geo.primary());
        keyer = new H3Keyer(NightlyDeltaScenario.RESOLUTION);
        h3 = H3Core.newInstance();
        reprojector = new CrsReprojector();
        mercator = SourceCrs.declared("EPSG:3857");
        rows = new Group[PARCELS];
        lonLat = new Geometry[PARCELS];
        webMercator = new Geometry[PARCELS];
        centroids = new Point[PARCELS];
        for (int i = 0; i < PARCELS; i++) {
            rows[i] = world.parcel(i).row(ParcelWorld.LOADED_AT_MICROS);
            lonLat[i] = codec.decode(rows[i], i);
            webMercator[i] = reprojector.reproject(lonLat[i], SourceCrs.CRS84, mercator);
            centroids[i] = lonLat[i].getCentroid();
        }
    }

    private int index() {
        next = (next + 1) & (PARCELS - 1);
        return next;
    }

    @Benchmark
    public Geometry wkbDecode() {
        int i = index();
        return codec.decode(rows[i], i);
    }

    @Benchmark
    public Geometry reprojectWebMercatorToWgs84() {
        return reprojector.reproject(webMercator[index()], mercator, SourceCrs.CRS84);
    }

    @Benchmark
    public Point centroid() {
        return lonLat[index()].getCentroid();
    }

    @Benchmark
    public long h3PointToCell() {
        Point p = centroids[index()];
        return h3.latLngToCell(p.getY(), p.getX(), NightlyDeltaScenario.RESOLUTION);
    }

    @Benchmark
    public String keyerCellOfCrs84Geometry() {
        return keyer.cellOf(lonLat[index()], SourceCrs.CRS84);
    }

    @Benchmark
    public String decodeAndKey() {
        int i = index();
        return keyer.cellOf(codec.decode(rows[i], i), SourceCrs.CRS84);
    }
}
