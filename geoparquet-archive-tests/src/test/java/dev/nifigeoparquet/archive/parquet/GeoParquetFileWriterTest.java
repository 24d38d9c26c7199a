package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.geo.CoveringBbox;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.geo.GeometryEncoding;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKTReader;

class GeoParquetFileWriterTest {

    private static final GeometryFactory GEOMETRIES = new GeometryFactory();
    private static final MessageType SCHEMA = BoxRows.SCHEMA;

    @TempDir
    Path dir;

    @Test
    void rowGroupsHoldExactlyTheConfiguredRowCount() throws Exception {
        Path file = write("groups.parquet", 2_500, WriterSettings.defaults().withRowGroupRowCountLimit(1_000));

        ParquetFooter footer = ParquetRows.read(file).footer();
        assertEquals(
                List.of(1_000L, 1_000L, 500L),
                footer.rowGroups().stream().map(BlockMetaData::getRowCount).toList());
        assertEquals(2_500, footer.rowCount());
        assertEquals(2_500, DuckDb.countRows(file));
    }

    @Test
    void zstdLevelChangesTheFileAndIsReportedInBytesWritten() throws Exception {
        Path fast = write("level3.parquet", 20_000, WriterSettings.defaults().withZstdLevel(3));
        Path small = write("level19.parquet", 20_000, WriterSettings.defaults().withZstdLevel(19));

        assertTrue(Files.size(small) < Files.size(fast), Files.size(small) + " vs " + Files.size(fast));
        assertEquals(
                ParquetRows.read(fast).rows().toString(),
                ParquetRows.read(small).rows().toString());
    }

    @Test
    void pagesCompressedAheadOnAHelperThreadGiveTheSameFileByteForByte() throws Exception {
        WriterSettings settings = WriterSettings.defaults().withRowGroupRowCountLimit(25_000);
        Path onWritingThread = write(
                "here.parquet",
                60_000,
                settings,
                ColumnEncodings.defaults(),
                50,
                GeoParquetFileWriter.PageCompression.ON_WRITING_THREAD);
        Path ahead = write(
                "ahead.parquet",
                60_000,
                settings,
                ColumnEncodings.defaults(),
                50,
                GeoParquetFileWriter.PageCompression.AHEAD);

        assertTrue(
                Thread.getAllStackTraces().keySet().stream()
                        .anyMatch(thread -> thread.getName().startsWith("geoparquet-compress-")),
                "pages were compressed on a helper thread");
        ParquetFooter footer = ParquetRows.read(ahead).footer();
        assertEquals(3, footer.rowGroups().size());
        assertTrue(
                footer.rowGroups().get(0).getColumns().stream()
                        .anyMatch(column -> column.getTotalUncompressedSize() > 4 * 16 * 1024),
                "pages large enough to be handed over were written");
        assertArrayEquals(Files.readAllBytes(onWritingThread), Files.readAllBytes(ahead));
        assertEquals(60_000, DuckDb.countRows(ahead));
    }

    @Test
    void aSmallFileWhosePagesAreAllCompressedAheadIsTheSameByteForByte() throws Exception {
        // A routed cell's file: one row group, every column ending with one small page, all written when it finishes.
        Path onWritingThread = write(
                "small-here.parquet",
                60,
                WriterSettings.defaults(),
                ColumnEncodings.defaults().withDictionary(false),
                7,
                GeoParquetFileWriter.PageCompression.ON_WRITING_THREAD);
        Path ahead = write(
                "small-ahead.parquet",
                60,
                WriterSettings.defaults(),
                ColumnEncodings.defaults().withDictionary(false),
                7,
                GeoParquetFileWriter.PageCompression.AHEAD);

        ParquetFooter footer = ParquetRows.read(ahead).footer();
        assertEquals(1, footer.rowGroups().size());
        assertTrue(
                footer.rowGroups().get(0).getColumns().stream()
                        .allMatch(column -> column.getTotalUncompressedSize() < 16 * 1024),
                "every page is small");
        assertArrayEquals(Files.readAllBytes(onWritingThread), Files.readAllBytes(ahead));
        assertEquals(60, DuckDb.countRows(ahead));
    }

    @Test
    void aSmallerPageSizeCutsPagesAsRowsAreWrittenAndKeepsTheData() throws Exception {
        // A file the size of a routed cell's: at parquet-java's 1 MiB every column holds one page, compressed when
        // the file finishes; at 8 KiB the pages are cut, and compressed ahead, while the rows are still coming.
        ColumnEncodings perCell = ColumnEncodings.defaults().withDictionary(false);
        Path onePage = write(
                "one-page.parquet",
                4_000,
                WriterSettings.defaults(),
                perCell,
                7,
                GeoParquetFileWriter.PageCompression.AHEAD);
        Path smallPages = write(
                "small-pages.parquet",
                4_000,
                WriterSettings.defaults(),
                perCell.withPageSize(8 * 1024),
                7,
                GeoParquetFileWriter.PageCompression.AHEAD);

        assertEquals(
                List.of(1), pagesPerColumn(onePage).values().stream().distinct().toList());
        Map<String, Integer> cut = pagesPerColumn(smallPages);
        assertTrue(cut.get("geometry") >= 4, "geometry pages: " + cut);
        assertTrue(cut.get("id") >= 3, "id pages: " + cut);
        assertEquals(0, DuckDb.rowsNotIn(onePage, smallPages));
        assertEquals(0, DuckDb.rowsNotIn(smallPages, onePage));
        assertEquals(4_000, DuckDb.countRows(smallPages));
        assertArrayEquals(
                DuckDb.footerEntries(onePage).get("geo"),
                DuckDb.footerEntries(smallPages).get("geo"));
    }

    /** The data pages of each top-level column in the file's one row group, as its offset index lists them. */
    private static Map<String, Integer> pagesPerColumn(Path file) throws IOException {
        Map<String, Integer> pages = new TreeMap<>();
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
            assertEquals(1, reader.footer().rowGroups().size());
            for (String column : List.of("id", "label", "geometry")) {
                pages.put(column, reader.pageIndex(0, column).pages().getPageCount());
            }
        }
        return pages;
    }

    @Test
    void aWriterCompressingAheadThatIsClosedWithoutFinishingLeavesNoFooter() throws Exception {
        Path file = dir.resolve("abandoned.parquet");
        Random random = new Random(7);
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                SCHEMA,
                footer(),
                WriterSettings.defaults().withRowGroupRowCountLimit(20_000),
                ColumnEncodings.defaults(),
                GeoParquetFileWriter.PageCompression.AHEAD)) {
            for (int i = 0; i < 30_000; i++) {
                writer.write(row(i, random));
            }
        }
        byte[] bytes = Files.readAllBytes(file);
        assertTrue(bytes.length > 0, "the first row group was written");
        assertTrue(
                !"PAR1".equals(new String(bytes, bytes.length - 4, 4, StandardCharsets.US_ASCII)),
                "no footer: no reader takes the abandoned file for a complete one");
    }

    @Test
    void writtenFileReportsRowsRowGroupsAndBytes() throws Exception {
        Path file = dir.resolve("report.parquet");
        WrittenFile written;
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                SCHEMA,
                footer(),
                WriterSettings.defaults().withRowGroupRowCountLimit(40))) {
            for (int i = 0; i < 100; i++) {
                writer.write(row(i, new Random(i)));
            }
            written = writer.finish();
        }
        assertEquals(new WrittenFile(100, 3, Files.size(file)), written);
    }

    @Test
    void rowsOfAnEqualSchemaAreWrittenAndARowOfAnotherIsRefusedAfterThem() throws Exception {
        Path file = dir.resolve("schemas.parquet");
        MessageType equal = MessageTypeParser.parseMessageType(SCHEMA.toString());
        MessageType other = MessageTypeParser.parseMessageType(SCHEMA.toString().replace("label", "name"));
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file), file.toString(), SCHEMA, footer(), WriterSettings.defaults())) {
            for (int i = 0; i < 3; i++) {
                writer.write(copyOf(BoxRows.row(i, new Random(i), "row " + i), equal));
            }
            Group stranger = copyOf(BoxRows.row(3, new Random(3), "row 3"), other);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> writer.write(stranger));
            assertTrue(e.getMessage().startsWith("Row 3 has schema"), e.getMessage());
            writer.finish();
        }
        assertEquals(3, ParquetRows.read(file).rows().size());
    }

    /** A row of id and label alone, under {@code schema}, whose second field may be named otherwise. */
    private static Group copyOf(Group row, MessageType schema) {
        Group copy = new SimpleGroup(schema);
        copy.add(0, row.getLong("id", 0));
        copy.add(1, row.getString("label", 0));
        return copy;
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
    void aPrimaryGeometryDecodedByTheCallerGivesTheSameFileByteForByte() throws Exception {
        Random random = new Random(11);
        List<Group> rows = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            rows.add(BoxRows.row(i, random, "r" + i));
        }
        Path decodedHere = dir.resolve("decoded-here.parquet");
        Path decodedByCaller = dir.resolve("decoded-by-caller.parquet");
        WKBReader wkb = new WKBReader();
        try (GeoParquetFileWriter here = create(decodedHere);
                GeoParquetFileWriter byCaller = create(decodedByCaller)) {
            for (Group row : rows) {
                here.write(row);
                byCaller.write(
                        row,
                        row.getFieldRepetitionCount("geometry") == 0
                                ? null
                                : wkb.read(row.getBinary("geometry", 0).getBytes()));
            }
            here.finish();
            byCaller.finish();
        }
        assertArrayEquals(Files.readAllBytes(decodedHere), Files.readAllBytes(decodedByCaller));
        assertEquals(
                DuckDb.query(
                        "SELECT count(*), sum(bbox.xmin), sum(bbox.ymax) FROM read_parquet(?)", decodedHere.toString()),
                DuckDb.query(
                        "SELECT count(*), sum(bbox.xmin), sum(bbox.ymax) FROM read_parquet(?)",
                        decodedByCaller.toString()));
    }

    @Test
    void aPrimaryGeometryDecodedByTheCallerFillsOnlyThePrimaryColumnsCovering() throws Exception {
        MessageType schema = MessageTypeParser.parseMessageType("""
                message places {
                  required binary site;
                  required group site_bbox { required double xmin; required double ymin; required double xmax;
                    required double ymax; }
                  required binary footprint;
                  required group footprint_bbox { required double xmin; required double ymin; required double xmax;
                    required double ymax; }
                }""");
        String geo = """
                {"version": "1.1.0", "primary_column": "site", "columns": {
                 "site": {"encoding": "WKB", "geometry_types": [], "covering": {"bbox": {"xmin": ["site_bbox", "xmin"],
                  "ymin": ["site_bbox", "ymin"], "xmax": ["site_bbox", "xmax"], "ymax": ["site_bbox", "ymax"]}}},
                 "footprint": {"encoding": "WKB", "geometry_types": [], "covering": {"bbox": {
                  "xmin": ["footprint_bbox", "xmin"], "ymin": ["footprint_bbox", "ymin"],
                  "xmax": ["footprint_bbox", "xmax"], "ymax": ["footprint_bbox", "ymax"]}}}}}""";
        Geometry site = new WKTReader().read("POINT (10 20)");
        Geometry footprint = new WKTReader().read("POLYGON ((-5 -6, 7 -6, 7 8, -5 8, -5 -6))");
        Group row = new SimpleGroup(schema);
        GeometryCodec.forColumn(schema, "site", GeometryEncoding.WKB).encode(site, row);
        GeometryCodec.forColumn(schema, "footprint", GeometryEncoding.WKB).encode(footprint, row);
        for (String struct : List.of("site_bbox", "footprint_bbox")) {
            Group stale = row.addGroup(struct);
            for (String key : List.of("xmin", "ymin", "xmax", "ymax")) {
                stale.add(key, 0.0);
            }
        }
        Path file = writeOneRow("two-geometries.parquet", schema, geo, row, site);
        assertEquals(
                List.of(List.of(10.0, 20.0, 10.0, 20.0, -5.0, -6.0, 7.0, 8.0)),
                DuckDb.query(
                        "SELECT site_bbox.xmin, site_bbox.ymin, site_bbox.xmax, site_bbox.ymax, footprint_bbox.xmin,"
                                + " footprint_bbox.ymin, footprint_bbox.xmax, footprint_bbox.ymax FROM read_parquet(?)",
                        file.toString()));
    }

    /** A file of one row, with this {@code geo} block; {@code primaryGeometry} as the caller decoded it, or null. */
    private Path writeOneRow(String name, MessageType schema, String geo, Group row, Geometry primaryGeometry)
            throws IOException {
        Path file = dir.resolve(name);
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                schema,
                FooterEntries.canonicalOf(Map.of("geo", geo)),
                WriterSettings.defaults())) {
            writer.write(row, primaryGeometry);
            writer.finish();
        }
        return file;
    }

    private static GeoParquetFileWriter create(Path file) throws IOException {
        return GeoParquetFileWriter.create(
                new LocalOutputFile(file), file.toString(), SCHEMA, BoxRows.footer(), WriterSettings.defaults());
    }

    @Test
    void coveringHonoursDeclaredZAndSphericalEdges() throws Exception {
        MessageType schema = Types.buildMessage()
                .required(PrimitiveTypeName.BINARY)
                .named("geom")
                .requiredGroup()
                .required(PrimitiveTypeName.DOUBLE)
                .named("minx")
                .required(PrimitiveTypeName.DOUBLE)
                .named("miny")
                .required(PrimitiveTypeName.DOUBLE)
                .named("minz")
                .required(PrimitiveTypeName.DOUBLE)
                .named("maxx")
                .required(PrimitiveTypeName.DOUBLE)
                .named("maxy")
                .required(PrimitiveTypeName.DOUBLE)
                .named("maxz")
                .named("extent")
                .named("lines");
        String geo = """
                {"version": "1.1.0", "primary_column": "geom", "columns": {"geom": {"encoding": "WKB",
                 "geometry_types": ["LineString Z"], "edges": "spherical", "covering": {"bbox": {
                 "xmin": ["extent", "minx"], "ymin": ["extent", "miny"], "zmin": ["extent", "minz"],
                 "xmax": ["extent", "maxx"], "ymax": ["extent", "maxy"], "zmax": ["extent", "maxz"]}}}}}""";
        Geometry line = new WKTReader().read("LINESTRING Z (-60 70 5, 60 70 -3)");
        Group row = new SimpleGroup(schema);
        GeometryCodec.forColumn(schema, "geom", GeometryEncoding.WKB).encode(line, row);
        Group extent = row.addGroup("extent");
        for (String field : List.of("minx", "miny", "minz", "maxx", "maxy", "maxz")) {
            extent.add(field, 0.0);
        }

        Path file = writeOneRow("spherical.parquet", schema, geo, row, null);
        Group written = ParquetRows.read(file).rows().get(0).getGroup("extent", 0);
        var expected = CoveringBbox.of(line, true);
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
        IOException e = assertThrows(
                IOException.class,
                () -> GeoParquetFileWriter.create(
                        new LocalOutputFile(file),
                        file.toString(),
                        SCHEMA,
                        FooterEntries.canonicalOf(Map.of("geo", geo)),
                        WriterSettings.defaults()));
        assertTrue(e.getMessage().startsWith(file.toString()) && e.getMessage().contains("nope"), e.getMessage());
    }

    @Test
    void footerEntriesKeepTheirOrderAndBytes() throws Exception {
        Path file = write("footer.parquet", 10, WriterSettings.defaults());
        Map<String, byte[]> seenByDuckDb = DuckDb.footerEntries(file);
        for (Map.Entry<String, String> entry : footer().asMap().entrySet()) {
            assertArrayEquals(entry.getValue().getBytes(StandardCharsets.UTF_8), seenByDuckDb.get(entry.getKey()));
        }
        assertEquals(
                List.of("geo", "zz-first-by-insertion", "aa-second", GeoParquetFileWriter.WRITER_MODEL_KEY),
                List.copyOf(ParquetRows.read(file).footer().keyValues().keySet()));
    }

    @Test
    void closingWithoutFinishLeavesNoReadableFile() throws Exception {
        Path file = dir.resolve("abandoned.parquet");
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file), file.toString(), SCHEMA, footer(), WriterSettings.defaults())) {
            writer.write(row(1, new Random(1)));
        }
        ParquetFileException e = assertThrows(ParquetFileException.class, () -> ParquetRows.read(file));
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    }

    @Test
    void refusesToOverwriteAnExistingFile() throws Exception {
        Path file = write("exists.parquet", 1, WriterSettings.defaults());
        IOException e = assertThrows(
                IOException.class,
                () -> GeoParquetFileWriter.create(
                        new LocalOutputFile(file), file.toString(), SCHEMA, footer(), WriterSettings.defaults()));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    }

    @Test
    void bloomFilterRulesOutAbsentValuesAndKeepsPresentOnes() throws Exception {
        Path file = write(
                "bloom.parquet",
                3_000,
                WriterSettings.defaults().withRowGroupRowCountLimit(1_000),
                ColumnEncodings.defaults().withBloomFilterOn("label"));

        try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
            for (int group = 0; group < 3; group++) {
                var mayHold = reader.bloomFilter(group, "label");
                for (int id = group * 1_000; id < (group + 1) * 1_000; id++) {
                    assertTrue(mayHold.test(Binary.fromString("feature " + id)), "row " + id);
                }
                int admitted = 0;
                for (int absent = 0; absent < 1_000; absent++) {
                    admitted += mayHold.test(Binary.fromString("absent " + absent)) ? 1 : 0;
                }
                assertTrue(
                        admitted < 50,
                        "a bloom filter sized for the row group admits few absent values, got " + admitted);
            }
        }
        // DuckDB finds the filters on the label column only, and reads the file unchanged.
        List<List<Object>> filters = DuckDb.query(
                "SELECT path_in_schema, count(*) FILTER (WHERE bloom_filter_offset IS NOT NULL)"
                        + " FROM parquet_metadata(?) GROUP BY ALL ORDER BY 1",
                file.toString());
        for (List<Object> column : filters) {
            assertEquals(
                    column.get(0).equals("label") ? 3L : 0L,
                    ((Number) column.get(1)).longValue(),
                    "filters on " + column.get(0));
        }
        assertEquals(3_000, DuckDb.countRows(file));
    }

    @Test
    void coveringBboxColumnsAreWrittenWithoutADictionaryAndOtherColumnsKeepTheirs() throws Exception {
        // One box repeated: a dictionary would pay for the bbox too, so only the writer's rule keeps it plain.
        Path file = dir.resolve("covering-plain.parquet");
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file), file.toString(), SCHEMA, footer(), WriterSettings.defaults())) {
            for (int i = 0; i < 500; i++) {
                writer.write(row(i, new Random(7), "feature " + i % 5));
            }
            writer.finish();
        }

        List<List<Object>> encodings = DuckDb.query(
                "SELECT path_in_schema, encodings FROM parquet_metadata(?) ORDER BY path_in_schema", file.toString());
        Map<String, String> byColumn = new TreeMap<>();
        encodings.forEach(row -> byColumn.put(String.valueOf(row.get(0)), String.valueOf(row.get(1))));
        assertTrue(byColumn.get("label").contains("DICTIONARY"), byColumn.toString());
        for (String corner : List.of("xmin", "ymin", "xmax", "ymax")) {
            String column = byColumn.entrySet().stream()
                    .filter(entry ->
                            entry.getKey().contains("bbox") && entry.getKey().contains(corner))
                    .map(Map.Entry::getValue)
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no bbox " + corner + " in " + byColumn));
            assertTrue(!column.contains("DICTIONARY"), corner + ": " + column);
        }
    }

    @Test
    void dictionaryEncodingCanBeTurnedOffWithoutChangingTheData() throws Exception {
        // Five distinct labels: parquet-java keeps a dictionary for them unless told not to.
        Path dictionary = write("dictionary.parquet", 500, WriterSettings.defaults(), ColumnEncodings.defaults(), 5);
        Path plain = write(
                "plain.parquet",
                500,
                WriterSettings.defaults(),
                ColumnEncodings.defaults().withDictionary(false),
                5);

        String encodings = "SELECT encodings FROM parquet_metadata(?) WHERE path_in_schema = 'label'";
        assertTrue(
                String.valueOf(DuckDb.query(encodings, dictionary.toString())).contains("DICTIONARY"));
        assertTrue(
                !String.valueOf(DuckDb.query(encodings, plain.toString())).contains("DICTIONARY"),
                "no dictionary: " + DuckDb.query(encodings, plain.toString()));
        assertEquals(
                0L,
                ((Number) DuckDb.query(
                                        "SELECT count(*) FROM (SELECT * FROM read_parquet(?) EXCEPT ALL"
                                                + " SELECT * FROM read_parquet(?))",
                                        dictionary.toString(),
                                        plain.toString())
                                .get(0)
                                .get(0))
                        .longValue());
        assertArrayEquals(
                DuckDb.footerEntries(dictionary).get("geo"),
                DuckDb.footerEntries(plain).get("geo"));
    }

    @Test
    void rowsCopiedColumnByColumnKeepEveryValueNullAndRepetition() throws Exception {
        MessageType schema = Types.buildMessage()
                .required(PrimitiveTypeName.INT64)
                .named("id")
                .optionalList()
                .optionalElement(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("tags")
                .optional(PrimitiveTypeName.BINARY)
                .named("geometry")
                .addField(BoxRows.BBOX)
                .named("archive");
        Path source = dir.resolve("source.parquet");
        Random random = new Random(3);
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(source),
                source.toString(),
                schema,
                footer(),
                WriterSettings.defaults().withRowGroupRowCountLimit(700))) {
            for (int i = 0; i < 2_000; i++) {
                Group row = new SimpleGroup(schema);
                row.add("id", (long) i);
                if (i % 7 != 0) {
                    Group list = row.addGroup("tags");
                    for (int t = 0; t < i % 4; t++) {
                        Group element = list.addGroup("list");
                        if ((i + t) % 5 != 0) {
                            element.add("element", "tag " + i + "." + t);
                        }
                    }
                }
                if (i % 10 != 9) {
                    double x = random.nextDouble() * 300 - 150;
                    double y = random.nextDouble() * 150 - 75;
                    GeometryCodec.forColumn(schema, "geometry", GeometryEncoding.WKB)
                            .encode(
                                    GEOMETRIES.createPolygon(new Coordinate[] {
                                        new Coordinate(x, y),
                                        new Coordinate(x + 1, y),
                                        new Coordinate(x + 1, y + 2),
                                        new Coordinate(x, y)
                                    }),
                                    row);
                }
                writer.write(row);
            }
            writer.finish();
        }

        Path copy = dir.resolve("copy.parquet");
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(source);
                GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                        new LocalOutputFile(copy),
                        copy.toString(),
                        schema,
                        footer(),
                        WriterSettings.defaults().withRowGroupRowCountLimit(1_000))) {
            assertTrue(GeoParquetFileWriter.wrote(reader.footer()));
            for (ColumnarRowGroup group = reader.nextColumnarRowGroup();
                    group != null;
                    group = reader.nextColumnarRowGroup()) {
                while (group.hasNext()) {
                    writer.copyRow(group);
                }
            }
            writer.finish();
        }

        String differing =
                "SET enable_geoparquet_conversion = false; SELECT count(*) FROM (SELECT * FROM read_parquet(?)"
                        + " EXCEPT ALL SELECT * FROM read_parquet(?))";
        assertEquals(
                0L,
                ((Number) DuckDb.query(differing, source.toString(), copy.toString())
                                .get(0)
                                .get(0))
                        .longValue());
        assertEquals(
                0L,
                ((Number) DuckDb.query(differing, copy.toString(), source.toString())
                                .get(0)
                                .get(0))
                        .longValue());
        assertEquals(2_000, DuckDb.countRows(copy));
        assertEquals(
                List.of(1_000L, 1_000L),
                ParquetRows.read(copy).footer().rowGroups().stream()
                        .map(BlockMetaData::getRowCount)
                        .toList(),
                "row groups of the writer's size, not the source's");
        assertArrayEquals(
                DuckDb.footerEntries(source).get("geo"),
                DuckDb.footerEntries(copy).get("geo"));
        assertEquals(
                List.of(List.of(4L)),
                DuckDb.query("SELECT count(*) FROM read_parquet(?) WHERE tags IS NULL AND id < 25", copy.toString()));
    }

    private Path write(String name, int rows, WriterSettings settings, ColumnEncodings encodings) throws IOException {
        return write(name, rows, settings, encodings, Integer.MAX_VALUE);
    }

    /** Rows labelled "feature <id modulo labels>". */
    private Path write(String name, int rows, WriterSettings settings, ColumnEncodings encodings, int labels)
            throws IOException {
        return write(name, rows, settings, encodings, labels, GeoParquetFileWriter.PageCompression.ON_WRITING_THREAD);
    }

    private Path write(
            String name,
            int rows,
            WriterSettings settings,
            ColumnEncodings encodings,
            int labels,
            GeoParquetFileWriter.PageCompression compression)
            throws IOException {
        Path file = dir.resolve(name);
        Random random = new Random(42);
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file), file.toString(), SCHEMA, footer(), settings, encodings, compression)) {
            for (int i = 0; i < rows; i++) {
                writer.write(row(i, random, "feature " + i % labels));
            }
            writer.finish();
        }
        return file;
    }

    private Path write(String name, int rows, WriterSettings settings) throws IOException {
        return write(name, rows, settings, ColumnEncodings.defaults());
    }

    private static FooterEntries footer() {
        return BoxRows.footer();
    }

    /** A random box with a deliberately wrong bbox, which the writer must replace; every 10th geometry is null. */
    private static Group row(long id, Random random) {
        return row(id, random, "feature " + id);
    }

    private static Group row(long id, Random random, String label) {
        return BoxRows.row(id, random, label);
    }
}
