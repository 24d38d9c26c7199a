package dev.nifigeoparquet.archive.compaction;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.commit.CommitOutcome;
import dev.nifigeoparquet.archive.commit.NewDataFile;
import dev.nifigeoparquet.archive.commit.PartitionChange;
import dev.nifigeoparquet.archive.commit.RollingFileWriter;
import dev.nifigeoparquet.archive.format.CompactionSettings;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.io.WKBWriter;

/**
 * Archives of generated point features for compaction and verification tests: {@code id} (the key), {@code name}
 * and a WKB {@code geometry}, keyed at resolution 0. Each partition's rows are committed through the
 * {@link dev.nifigeoparquet.archive.commit.PartitionCommitter} with real Parquet files written by the engine's
 * writer, one file per commit.
 */
public final class GeneratedArchive {

    public static final int RESOLUTION = 0;
    /** Small row groups so tests see several per file. */
    public static final int ROW_GROUP_ROWS = 50;
    /** Not the default codec, so a test can tell the descriptor's codec was used. */
    public static final CompressionCodecName CODEC = CompressionCodecName.SNAPPY;

    /** Centres of three far-apart resolution-0 cells. */
    private static final double[][] CENTRES = {{10, 50}, {-100, 40}, {140, -30}};

    public static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.INT64)
            .named("id")
            .optional(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType())
            .named("name")
            .required(PrimitiveTypeName.BINARY)
            .named("geometry")
            .named("schema");

    public static final String GEO = GeoMetadata.builder()
            .wkbColumn("geometry", List.of("Point"), null, null)
            .build()
            .rawString();

    /** The same block with a PROJJSON crs identified as EPSG:4326. */
    public static final String GEO_EPSG_4326 = GeoMetadata.builder()
            .wkbColumn("geometry", List.of("Point"), epsg4326(), null)
            .build()
            .rawString();

    private static final GeometryFactory GEOMETRIES = new GeometryFactory();

    private GeneratedArchive() {}

    public static WriterSettings writerSettings() {
        return WriterSettings.defaults().withCodec(CODEC).withRowGroupRowCountLimit(ROW_GROUP_ROWS);
    }

    public static GeoParquetArchive create(ArchiveStorage storage, Clock clock) throws IOException {
        return create(storage, clock, CompactionSettings.DEFAULT);
    }

    public static GeoParquetArchive create(ArchiveStorage storage, Clock clock, CompactionSettings compaction)
            throws IOException {
        return create(storage, clock, compaction, GEO);
    }

    public static GeoParquetArchive create(
            ArchiveStorage storage, Clock clock, CompactionSettings compaction, String geo) throws IOException {
        ArchiveSpec spec = ArchiveSpec.of(
                        SCHEMA,
                        FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, geo)),
                        List.of("id"),
                        null,
                        RESOLUTION,
                        writerSettings(),
                        "generated")
                .withCompaction(compaction);
        return ArchiveCreator.create(storage, spec, clock);
    }

    /** The cell of a centre ({@link #CENTRES} index). */
    public static String cellOf(int centre) {
        return new H3Keyer(RESOLUTION).cellOf(point(CENTRES[centre][0], CENTRES[centre][1]), SourceCrs.CRS84);
    }

    /** {@code count} rows with ids {@code firstId..}, near centre {@code centre}. */
    public static List<Group> rows(int centre, long firstId, int count) {
        SimpleGroupFactory factory = new SimpleGroupFactory(SCHEMA);
        Random random = new Random(firstId * 31 + centre);
        WKBWriter wkb = new WKBWriter(2, true);
        List<Group> rows = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            long id = firstId + i;
            Point point = point(
                    CENTRES[centre][0] + random.nextDouble() - 0.5, CENTRES[centre][1] + random.nextDouble() - 0.5);
            Group row = factory.newGroup().append("id", id).append("name", "feature " + id);
            row.add("geometry", Binary.fromConstantByteArray(wkb.write(point)));
            rows.add(row);
        }
        return rows;
    }

    /** Appends rows as one new file, committed under its own operation id. */
    public static CommitOutcome append(GeoParquetArchive archive, String cell, String operationId, List<Group> rows)
            throws IOException {
        return archive.committer().commit(cell, operationId, OperationType.APPEND, (current, stager) -> {
            try (RollingFileWriter writer = new RollingFileWriter(
                    stager,
                    archive.schema(),
                    archive.canonicalFooter(),
                    archive.descriptor().writer())) {
                for (Group row : rows) {
                    writer.write(row);
                }
                List<NewDataFile> files = writer.finish();
                return new PartitionChange(files, List.of());
            }
        });
    }

    /**
     * Fills a partition with {@code files} commits of {@code rowsPerFile} rows each, ids starting at {@code firstId}.
     * Returns the number of rows written.
     */
    public static long fill(GeoParquetArchive archive, int centre, long firstId, int files, int rowsPerFile)
            throws IOException {
        String cell = cellOf(centre);
        for (int f = 0; f < files; f++) {
            long start = firstId + (long) f * rowsPerFile;
            append(archive, cell, "append-" + cell + "-" + start, rows(centre, start, rowsPerFile));
        }
        return (long) files * rowsPerFile;
    }

    private static JsonNode epsg4326() {
        ObjectNode crs = JsonNodeFactory.instance.objectNode();
        crs.put("type", "GeographicCRS");
        crs.put("name", "WGS 84");
        crs.putObject("id").put("authority", "EPSG").put("code", 4326);
        return crs;
    }

    static Point point(double lon, double lat) {
        return GEOMETRIES.createPoint(new Coordinate(lon, lat));
    }
}
