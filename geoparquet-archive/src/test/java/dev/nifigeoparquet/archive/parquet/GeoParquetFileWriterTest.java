package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.geo.GeometryEncoding;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

class GeoParquetFileWriterTest {

    private static final GeometryFactory GEOMETRIES = new GeometryFactory();
    private static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.INT64).named("id")
            .optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType()).named("label")
            .optional(PrimitiveTypeName.BINARY).named("geometry")
            .optionalGroup()
                .required(PrimitiveTypeName.DOUBLE).named("xmin")
                .required(PrimitiveTypeName.DOUBLE).named("ymin")
                .required(PrimitiveTypeName.DOUBLE).named("xmax")
                .required(PrimitiveTypeName.DOUBLE).named("ymax")
                .named("bbox")
            .named("archive");

    @TempDir
    Path dir;

    @Test
    void rowGroupsHoldExactlyTheConfiguredRowCount() throws Exception {
        Path file = write("groups.parquet", 2_500, WriterSettings.defaults().withRowGroupRowCountLimit(1_000));

        ParquetFooter footer = ParquetRows.read(file).footer();
        assertEquals(List.of(1_000L, 1_000L, 500L), footer.rowGroups().stream().map(BlockMetaData::getRowCount).toList());
        assertEquals(2_500, footer.rowCount());
        assertEquals(2_500, DuckDb.countRows(file));
    }

    @Test
    void zstdLevelChangesTheFileAndIsReportedInBytesWritten() throws Exception {
        Path fast = write("level3.parquet", 20_000, WriterSettings.defaults().withZstdLevel(3));
        Path small = write("level19.parquet", 20_000, WriterSettings.defaults().withZstdLevel(19));

        assertTrue(Files.size(small) < Files.size(fast), Files.size(small) + " vs " + Files.size(fast));
        assertEquals(ParquetRows.read(fast).rows().toString(), ParquetRows.read(small).rows().toString());
    }

    @Test
    void writtenFileReportsRowsRowGroupsAndBytes() throws Exception {
        Path file = dir.resolve("report.parquet");
        WrittenFile written;
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(new LocalOutputFile(file), file.toString(), SCHEMA,
                footer(), WriterSettings.defaults().withRowGroupRowCountLimit(40))) {
            for (int i = 0; i < 100; i++) {
                writer.write(row(i, new Random(i)));
            }
            written = writer.finish();
        }
        assertEquals(new WrittenFile(100, 3, Files.size(file)), written);
    }

    @Test
    void coveringBboxIsComputedFromTheGeometryNotCopiedFromTheRow() throws Exception {
        Path file = write("bbox.parquet", 300, WriterSettings.defaults());
        ParquetRows.Contents contents = ParquetRows.read(file);
        GeoMetadata geo = GeoMetadata.parse(contents.footer().keyValues().get("geo"));
        GeometryCodec codec = GeometryCodec.forColumn(SCHEMA, "geometry", geo.column("geometry"));

        for (int i = 0; i < contents.rows().size(); i++) {
            Group row = contents.rows().get(i);
            Geometry geometry = codec.decode(row, i);
            if (geometry == null) {
                assertEquals(0, row.getFieldRepetitionCount("bbox"), "null geometry, null bbox, row " + i);
                continue;
            }
            Group bbox = row.getGroup("bbox", 0);
            var envelope = geometry.getEnvelopeInternal();
            assertEquals(envelope.getMinX(), bbox.getDouble("xmin", 0), 0.0);
            assertEquals(envelope.getMinY(), bbox.getDouble("ymin", 0), 0.0);
            assertEquals(envelope.getMaxX(), bbox.getDouble("xmax", 0), 0.0);
            assertEquals(envelope.getMaxY(), bbox.getDouble("ymax", 0), 0.0);
        }
    }

    @Test
    void coveringHonoursDeclaredZAndSphericalEdges() throws Exception {
        MessageType schema = Types.buildMessage()
                .required(PrimitiveTypeName.BINARY).named("geom")
                .requiredGroup()
                    .required(PrimitiveTypeName.DOUBLE).named("minx")
                    .required(PrimitiveTypeName.DOUBLE).named("miny")
                    .required(PrimitiveTypeName.DOUBLE).named("minz")
                    .required(PrimitiveTypeName.DOUBLE).named("maxx")
                    .required(PrimitiveTypeName.DOUBLE).named("maxy")
                    .required(PrimitiveTypeName.DOUBLE).named("maxz")
                    .named("extent")
                .named("lines");
        String geo = """
                {"version": "1.1.0", "primary_column": "geom", "columns": {"geom": {"encoding": "WKB",
                 "geometry_types": ["LineString Z"], "edges": "spherical", "covering": {"bbox": {
                 "xmin": ["extent", "minx"], "ymin": ["extent", "miny"], "zmin": ["extent", "minz"],
                 "xmax": ["extent", "maxx"], "ymax": ["extent", "maxy"], "zmax": ["extent", "maxz"]}}}}}""";
        Geometry line = new org.locationtech.jts.io.WKTReader().read("LINESTRING Z (-60 70 5, 60 70 -3)");
        Group row = new SimpleGroup(schema);
        GeometryCodec.forColumn(schema, "geom", GeometryEncoding.WKB).encode(line, row);
        Group extent = row.addGroup("extent");
        for (String field : List.of("minx", "miny", "minz", "maxx", "maxy", "maxz")) {
            extent.add(field, 0.0);
        }

        Path file = dir.resolve("spherical.parquet");
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(new LocalOutputFile(file), file.toString(), schema,
                FooterEntries.canonicalOf(Map.of("geo", geo)), WriterSettings.defaults())) {
            writer.write(row);
            writer.finish();
        }
        Group written = ParquetRows.read(file).rows().get(0).getGroup("extent", 0);
        var expected = dev.nifigeoparquet.archive.geo.CoveringBbox.of(line, true);
        assertEquals(-60, written.getDouble("minx", 0));
        assertEquals(60, written.getDouble("maxx", 0));
        assertEquals(70, written.getDouble("miny", 0));
        assertEquals(expected.ymax(), written.getDouble("maxy", 0));
        assertTrue(written.getDouble("maxy", 0) > 79, "the great circle bulges toward the pole");
        assertEquals(-3, written.getDouble("minz", 0));
        assertEquals(5, written.getDouble("maxz", 0));
    }

    @Test
    void coveringThatDoesNotFitTheSchemaIsRejectedNamingTheFile() {
        String geo = """
                {"version": "1.1.0", "primary_column": "geometry", "columns": {"geometry": {"encoding": "WKB",
                 "geometry_types": [], "covering": {"bbox": {"xmin": ["nope", "xmin"]}}}}}""";
        Path file = dir.resolve("bad.parquet");
        IOException e = assertThrows(IOException.class, () -> GeoParquetFileWriter.create(new LocalOutputFile(file),
                file.toString(), SCHEMA, FooterEntries.canonicalOf(Map.of("geo", geo)), WriterSettings.defaults()));
        assertTrue(e.getMessage().startsWith(file.toString()) && e.getMessage().contains("nope"), e.getMessage());
    }

    @Test
    void footerEntriesKeepTheirOrderAndBytes() throws Exception {
        Path file = write("footer.parquet", 10, WriterSettings.defaults());
        Map<String, byte[]> seenByDuckDb = DuckDb.footerEntries(file);
        for (Map.Entry<String, String> entry : footer().asMap().entrySet()) {
            assertArrayEquals(entry.getValue().getBytes(StandardCharsets.UTF_8), seenByDuckDb.get(entry.getKey()));
        }
        assertEquals(List.of("geo", "zz-first-by-insertion", "aa-second", GeoParquetFileWriter.WRITER_MODEL_KEY),
                List.copyOf(ParquetRows.read(file).footer().keyValues().keySet()));
    }

    @Test
    void closingWithoutFinishLeavesNoReadableFile() throws Exception {
        Path file = dir.resolve("abandoned.parquet");
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(new LocalOutputFile(file), file.toString(), SCHEMA,
                footer(), WriterSettings.defaults())) {
            writer.write(row(1, new Random(1)));
        }
        ParquetFileException e = assertThrows(ParquetFileException.class, () -> ParquetRows.read(file));
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    }

    @Test
    void refusesToOverwriteAnExistingFile() throws Exception {
        Path file = write("exists.parquet", 1, WriterSettings.defaults());
        IOException e = assertThrows(IOException.class, () -> GeoParquetFileWriter.create(new LocalOutputFile(file),
                file.toString(), SCHEMA, footer(), WriterSettings.defaults()));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    private Path write(String name, int rows, WriterSettings settings) throws IOException {
        Path file = dir.resolve(name);
        Random random = new Random(42);
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(new LocalOutputFile(file), file.toString(), SCHEMA,
                footer(), settings)) {
            for (int i = 0; i < rows; i++) {
                writer.write(row(i, random));
            }
            writer.finish();
        }
        return file;
    }

    private static FooterEntries footer() {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put("geo", GeoMetadata.builder()
                .wkbColumn("geometry", List.of("Polygon"), null, "bbox")
                .build().rawString());
        entries.put("zz-first-by-insertion", "1");
        entries.put("aa-second", "{\"unicode\": \"Zürich – 東京\"}");
        return FooterEntries.canonicalOf(entries);
    }

    /** A random box with a deliberately wrong bbox, which the writer must replace; every 10th geometry is null. */
    private static Group row(long id, Random random) {
        Group row = new SimpleGroup(SCHEMA);
        row.add("id", id);
        row.add("label", "feature " + id);
        if (id % 10 != 9) {
            double x = random.nextDouble() * 360 - 180;
            double y = random.nextDouble() * 170 - 85;
            Geometry box = GEOMETRIES.createPolygon(new Coordinate[] {
                    new Coordinate(x, y), new Coordinate(x + 1, y), new Coordinate(x + 1, y + 2),
                    new Coordinate(x, y + 2), new Coordinate(x, y)});
            GeometryCodec.forColumn(SCHEMA, "geometry", GeometryEncoding.WKB).encode(box, row);
        }
        Group stale = row.addGroup("bbox");
        for (String key : List.of("xmin", "ymin", "xmax", "ymax")) {
            stale.add(key, 0.0);
        }
        return row;
    }
}
