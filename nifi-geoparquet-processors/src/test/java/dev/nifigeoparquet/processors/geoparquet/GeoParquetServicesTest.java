package dev.nifigeoparquet.processors.geoparquet;

import static dev.nifigeoparquet.processors.record.GroupAssertions.assertGroupsEqual;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.adoption.AdoptionOptions;
import dev.nifigeoparquet.archive.adoption.ArchiveAdopter;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.PeerData;
import dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Timestamp;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.nifi.logging.ComponentLog;
import org.apache.nifi.serialization.RecordReader;
import org.apache.nifi.serialization.RecordSetWriter;
import org.apache.nifi.serialization.SimpleRecordSchema;
import org.apache.nifi.serialization.record.MapRecord;
import org.apache.nifi.serialization.record.Record;
import org.apache.nifi.serialization.record.RecordField;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.nifi.serialization.record.RecordSchema;
import org.apache.nifi.util.MockComponentLog;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.MockPropertyConfiguration;
import org.apache.nifi.util.TestRunner;
import org.apache.nifi.util.TestRunners;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.ByteOrderValues;
import org.locationtech.jts.io.WKBWriter;

class GeoParquetServicesTest {

    private static final ComponentLog LOG = new MockComponentLog("test", GeoParquetServicesTest.class);

    @TempDir
    Path temp;
    /** The reader's own spool directory, so counting its copies is not disturbed by anything else using the temp dir. */
    private Path spool;

    private TestRunner runner;
    private GeoParquetReader reader;
    private GeoParquetRecordSetWriter writer;

    @BeforeEach
    void setUp() throws Exception {
        runner = TestRunners.newTestRunner(ReadThenWrite.class);
        reader = new GeoParquetReader();
        writer = new GeoParquetRecordSetWriter();
        runner.addControllerService("reader", reader);
        runner.addControllerService("writer", writer);
        spool = Files.createDirectories(temp.resolve("spool"));
        runner.setProperty(reader, GeoParquetReader.SPOOL_DIRECTORY, spool.toString());
        runner.setProperty(ReadThenWrite.READER, "reader");
        runner.setProperty(ReadThenWrite.WRITER, "writer");
    }

    static Stream<String> peerFiles() {
        return PeerData.parquetFiles().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("peerFiles")
    void readerThenWriterReproducesEveryPeerFile(String peerFile) throws IOException {
        runner.enableControllerService(reader);
        runner.enableControllerService(writer);
        Path input = PeerData.copy(peerFile, temp.resolve("in"));

        Path output = convert(input);

        assertSameFile(input, output);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("peerFiles")
    void wktRecordsAreEncodedBackForEveryPeerFile(String peerFile) throws IOException {
        runner.setProperty(reader, GeoParquetReader.GEOMETRY_FORMAT, RecordGeometryEncoding.WKT.getValue());
        runner.enableControllerService(reader);
        runner.enableControllerService(writer);
        Path input = PeerData.copy(peerFile, temp.resolve("in"));

        Path output = convert(input);

        // WKB columns may come back as re-encoded ISO WKB, so compare what the geometries are, through DuckDB and
        // counts.
        assertEquals(DuckDb.countRows(input), DuckDb.countRows(output));
        assertEquals(
                ParquetRows.read(input).footer().schema(),
                ParquetRows.read(output).footer().schema());
        assertEquals(
                ParquetRows.read(input).footer().canonicalEntries(),
                ParquetRows.read(output).footer().canonicalEntries());
    }

    @Test
    void nativePolygonsAreDeliveredAsWkbAndAsWkt() throws Exception {
        Path input = PeerData.copy("geoparquet-1.1.0/data-polygon-encoding_native.parquet", temp);
        runner.enableControllerService(reader);
        try (RecordReader records = read(input)) {
            Record first = records.nextRecord();
            Byte[] wkb = (Byte[]) first.getValue("geometry");
            assertEquals(1, (int) wkb[0], "little-endian ISO WKB");
            assertEquals(3, (int) wkb[1], "polygon type code");
        }
        runner.disableControllerService(reader);
        runner.setProperty(reader, GeoParquetReader.GEOMETRY_FORMAT, RecordGeometryEncoding.WKT.getValue());
        runner.enableControllerService(reader);
        List<String> expected = Files.readAllLines(PeerData.file("geoparquet-1.1.0/data-polygon-wkt.csv")).stream()
                .skip(1)
                .toList();
        try (RecordReader records = read(input)) {
            String wkt = (String) records.nextRecord().getValue("geometry");
            assertTrue(wkt.startsWith("POLYGON"), wkt);
            assertTrue(expected.getFirst().contains("POLYGON"), "peer csv lists the polygon: " + expected);
        }
    }

    @Test
    void readerExposesTheGeoBlockAndExactSchema() throws Exception {
        Path input = PeerData.copy(ArchiveFixtures.COUNTRIES, temp);
        runner.enableControllerService(reader);
        try (RecordReader records = read(input)) {
            GeoParquetRecordReader geoReader = assertInstanceOf(GeoParquetRecordReader.class, records);
            Map<String, byte[]> duckFooter = DuckDb.footerEntries(input);
            assertArrayEquals(
                    duckFooter.get("geo"), geoReader.geoJson().orElseThrow().getBytes(StandardCharsets.UTF_8));
            assertEquals("geometry", geoReader.geoMetadata().orElseThrow().primaryColumn());
            assertEquals(List.of("geometry"), geoReader.geometryColumns());
            assertEquals(ParquetRows.read(input).footer().schema(), geoReader.parquetSchema());
        }
    }

    @Test
    void tooLargeContentFailsAndLeavesNoTemporaryFile() throws Exception {
        runner.setProperty(reader, GeoParquetReader.MAXIMUM_CONTENT_SIZE, "1 KB");
        runner.enableControllerService(reader);
        runner.enableControllerService(writer);
        long before = spooledFiles();
        Path input = PeerData.copy(ArchiveFixtures.COUNTRIES, temp);

        IOException declared = assertThrows(
                IOException.class,
                () -> reader.createRecordReader(Map.of(), Files.newInputStream(input), Files.size(input), LOG));
        IOException undeclared = assertThrows(
                IOException.class, () -> reader.createRecordReader(Map.of(), Files.newInputStream(input), -1, LOG));

        assertTrue(declared.getMessage().contains("Maximum Content Size"), declared.getMessage());
        assertTrue(undeclared.getMessage().contains("Maximum Content Size"), undeclared.getMessage());
        assertEquals(before, spooledFiles());
    }

    @Test
    void spooledCopyIsDeletedOnCloseAndWhenTheContentIsNotParquet() throws Exception {
        runner.enableControllerService(reader);
        long before = spooledFiles();
        Path input = PeerData.copy(ArchiveFixtures.COUNTRIES, temp);
        try (RecordReader records = read(input)) {
            records.nextRecord();
            assertEquals(before + 1, spooledFiles());
        }
        assertEquals(before, spooledFiles());

        Exception notParquet = assertThrows(
                Exception.class,
                () -> reader.createRecordReader(
                        Map.of("filename", "bad.parquet"), InputStream.nullInputStream(), 0, LOG));
        assertTrue(notParquet.getMessage().contains("bad.parquet"), notParquet.getMessage());
        assertEquals(before, spooledFiles());
    }

    @Test
    void aFlowThatSetsTheRowGroupSizeKeepsItsValueUnderTheNameThatSaysItCountsRows() {
        MockPropertyConfiguration config = new MockPropertyConfiguration(Map.of("Row Group Size", "5000"));
        new GeoParquetRecordSetWriter().migrateProperties(config);
        assertEquals(Map.of(GeoParquetRecordSetWriter.ROW_GROUP_SIZE.getName(), "5000"), config.getProperties());
        assertEquals("Row Group Row Count", GeoParquetRecordSetWriter.ROW_GROUP_SIZE.getName());
    }

    @Test
    void archiveSchemaAndCanonicalFooterAreWrittenVerbatim() throws Exception {
        Path root = temp.resolve("archive");
        ArchiveFixtures.writeGeoPandasStyleArchive(root, 0);
        ArchiveAdopter.adopt(new LocalArchiveStorage(root), AdoptionOptions.withKey("name"), Clock.systemUTC());
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        runner.setProperty(writer, GeoParquetRecordSetWriter.SCHEMA_SOURCE, SchemaSource.ARCHIVE.getValue());
        // As the archive service takes its root: from an environment variable or a parameter, by Expression Language.
        runner.setEnvironmentVariableValue("ARCHIVE_ROOT", root.toString());
        runner.setProperty(writer, GeoParquetRecordSetWriter.ARCHIVE_DIRECTORY, "${ARCHIVE_ROOT}");
        runner.enableControllerService(reader);
        runner.enableControllerService(writer);

        Path output = convert(PeerData.copy(ArchiveFixtures.COUNTRIES, temp.resolve("in")));

        ParquetRows.Contents written = ParquetRows.read(output);
        assertEquals(archive.schema(), written.footer().schema());
        assertEquals(archive.canonicalFooter(), written.footer().canonicalEntries());
        assertArrayEquals(
                archive.canonicalFooter().geo().getBytes(StandardCharsets.UTF_8),
                DuckDb.footerEntries(output).get("geo"));
        assertEquals(DuckDb.countRows(PeerData.file(ArchiveFixtures.COUNTRIES)), DuckDb.countRows(output));
    }

    @Test
    void anArchiveDirectoryOutsideTheAllowedRootsIsRefusedAsTheServiceRefusesIt() throws Exception {
        Path allowed = Files.createDirectories(temp.resolve("allowed"));
        Path root = temp.resolve("elsewhere/archive");
        ArchiveFixtures.writeGeoPandasStyleArchive(root, 0);
        ArchiveAdopter.adopt(new LocalArchiveStorage(root), AdoptionOptions.withKey("name"), Clock.systemUTC());
        runner.setProperty(writer, GeoParquetRecordSetWriter.SCHEMA_SOURCE, SchemaSource.ARCHIVE.getValue());
        runner.setProperty(writer, GeoParquetRecordSetWriter.ARCHIVE_DIRECTORY, root.toString());
        runner.setProperty(writer, GeoParquetRecordSetWriter.ALLOWED_ROOTS, allowed.toString());
        runner.assertNotValid(writer);
        String explanation = runner.validate(writer).stream()
                .filter(result -> !result.isValid())
                .map(result -> result.getExplanation())
                .toList()
                .toString();
        assertTrue(
                explanation.contains("Archive Directory " + root.toRealPath())
                        && explanation.contains(allowed.toRealPath().toString()),
                explanation);

        // '..' cannot climb out of the base either.
        runner.setProperty(
                writer,
                GeoParquetRecordSetWriter.ARCHIVE_DIRECTORY,
                allowed.resolve("../elsewhere/archive").toString());
        runner.assertNotValid(writer);

        runner.setProperty(writer, GeoParquetRecordSetWriter.ALLOWED_ROOTS, allowed + ", " + temp.resolve("elsewhere"));
        runner.assertValid(writer);
        runner.enableControllerService(writer);
    }

    @Test
    void theArchiveServicesPinnedSchemaAndGeoBytesAreWrittenVerbatim() throws Exception {
        Path root = temp.resolve("served-archive");
        ArchiveFixtures.writeGeoPandasStyleArchive(root, 0);
        ArchiveAdopter.adopt(new LocalArchiveStorage(root), AdoptionOptions.withKey("name"), Clock.systemUTC());
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        StandardGeoParquetArchiveService service = new StandardGeoParquetArchiveService();
        runner.addControllerService("archive", service);
        runner.setProperty(service, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.enableControllerService(service);
        runner.setProperty(writer, GeoParquetRecordSetWriter.SCHEMA_SOURCE, SchemaSource.ARCHIVE_SERVICE.getValue());
        runner.setProperty(writer, GeoParquetRecordSetWriter.ARCHIVE_SERVICE, "archive");
        runner.enableControllerService(reader);
        runner.enableControllerService(writer);

        Path output = convert(PeerData.copy(ArchiveFixtures.COUNTRIES, temp.resolve("served-in")));

        ParquetRows.Contents written = ParquetRows.read(output);
        assertEquals(archive.schema(), written.footer().schema());
        assertEquals(archive.canonicalFooter(), written.footer().canonicalEntries());
        assertArrayEquals(
                archive.canonicalFooter().geo().getBytes(StandardCharsets.UTF_8),
                DuckDb.footerEntries(output).get("geo"));
        assertEquals(DuckDb.countRows(PeerData.file(ArchiveFixtures.COUNTRIES)), DuckDb.countRows(output));
    }

    @Test
    void dictionaryEncodingOffWritesTheSameRowsWithoutDictionaries() throws Exception {
        runner.enableControllerService(reader);
        runner.enableControllerService(writer);
        Path input = PeerData.copy(ArchiveFixtures.COUNTRIES, temp.resolve("in"));
        Path withDictionaries = Files.move(convert(input), temp.resolve("with-dictionaries.parquet"));
        runner.clearTransferState();
        runner.disableControllerService(writer);
        runner.setProperty(writer, GeoParquetRecordSetWriter.DICTIONARY_ENCODING, "false");
        runner.enableControllerService(writer);
        Path plain = convert(input);

        String dictionaryChunks = "SELECT count(*) FROM parquet_metadata(?) WHERE encodings LIKE '%DICTIONARY%'";
        assertTrue(((Number) DuckDb.query(dictionaryChunks, withDictionaries.toString())
                                .get(0)
                                .get(0))
                        .longValue()
                > 0);
        assertEquals(
                0L,
                ((Number) DuckDb.query(dictionaryChunks, plain.toString())
                                .get(0)
                                .get(0))
                        .longValue());
        assertSameFile(input, plain);
    }

    @Test
    void aSmallerPageSizeCutsTheGeometryColumnIntoPagesAndKeepsEveryRow() throws Exception {
        RecordSchema schema = new SimpleRecordSchema(List.of(
                new RecordField("name", RecordFieldType.STRING.getDataType()),
                new RecordField("geometry", RecordFieldType.STRING.getDataType())));
        List<Record> records = new ArrayList<>();
        for (int i = 0; i < 2_000; i++) {
            records.add(record(schema, "feature " + i, "POINT (" + (i % 360 - 180) + " " + (i % 170 - 85) + ")"));
        }
        runner.enableControllerService(writer);
        Path onePage = write(schema, records);
        runner.disableControllerService(writer);
        runner.setProperty(writer, GeoParquetRecordSetWriter.PAGE_SIZE, "512 B");
        runner.assertNotValid(writer);
        runner.setProperty(writer, GeoParquetRecordSetWriter.PAGE_SIZE, "4 KB");
        runner.enableControllerService(writer);
        Path smallPages = write(schema, records);

        assertEquals(1, geometryPages(onePage));
        assertTrue(geometryPages(smallPages) >= 4, "pages: " + geometryPages(smallPages));
        assertEquals(0, DuckDb.rowsNotIn(onePage, smallPages));
        assertEquals(0, DuckDb.rowsNotIn(smallPages, onePage));
        assertEquals(2_000, DuckDb.countRows(smallPages));
        assertArrayEquals(
                DuckDb.footerEntries(onePage).get("geo"),
                DuckDb.footerEntries(smallPages).get("geo"));
    }

    /** The pages of the geometry column in the file's one row group, as its offset index lists them. */
    private static int geometryPages(Path file) throws IOException {
        try (GeoParquetFileReader parquet = GeoParquetFileReader.open(file)) {
            assertEquals(1, parquet.footer().rowGroups().size());
            return parquet.pageIndex(0, "geometry").pages().getPageCount();
        }
    }

    @Test
    void recordsWithoutAParquetSchemaGetADerivedOneAndADefaultGeoBlock() throws Exception {
        runner.enableControllerService(writer);
        RecordSchema schema = new SimpleRecordSchema(List.of(
                new RecordField("id", RecordFieldType.STRING.getDataType(), false),
                new RecordField("seen", RecordFieldType.TIMESTAMP.getDataType()),
                new RecordField("geometry", RecordFieldType.STRING.getDataType())));
        Timestamp seen = Timestamp.valueOf("2024-05-01 10:15:30.123456");
        Path output = write(
                schema,
                List.of(
                        record(schema, "a", seen, "POINT (1 2)"),
                        record(schema, "b", null, "LINESTRING (0 0, 1 1)"),
                        record(schema, "c", seen, null)));

        List<List<Object>> rows = DuckDb.query(
                "SELECT id, epoch_us(seen), hex(geometry::BLOB) FROM read_parquet(?) ORDER BY id", output.toString());
        assertEquals(
                List.of(
                        "a",
                        seen.toInstant().getEpochSecond() * 1_000_000 + 123_456L,
                        "0101000000000000000000F03F0000000000000040"),
                rows.get(0));
        assertEquals("b", rows.get(1).get(0));
        assertEquals(null, rows.get(1).get(1));
        assertEquals(null, rows.get(2).get(2));
        String geo = new String(DuckDb.footerEntries(output).get("geo"), StandardCharsets.UTF_8);
        assertTrue(geo.contains("\"primary_column\":\"geometry\"") && geo.contains("\"encoding\":\"WKB\""), geo);
    }

    @Test
    void parquetSchemaWithConfiguredGeoEncodesWktIntoTheNativeLayout() throws Exception {
        Path peer = PeerData.copy("geoparquet-1.1.0/data-point-encoding_native.parquet", temp);
        ParquetRows.Contents source = ParquetRows.read(peer);
        runner.setProperty(writer, GeoParquetRecordSetWriter.SCHEMA_SOURCE, SchemaSource.PARQUET_SCHEMA.getValue());
        runner.setProperty(
                writer,
                GeoParquetRecordSetWriter.PARQUET_SCHEMA,
                source.footer().schema().toString());
        runner.setProperty(
                writer,
                GeoParquetRecordSetWriter.GEO_METADATA,
                source.footer().canonicalEntries().geo());
        runner.enableControllerService(writer);
        RecordSchema schema = writer.getSchema(Map.of(), null);
        List<Record> records = new ArrayList<>();
        List<String> wkt = Files.readAllLines(PeerData.file("geoparquet-1.1.0/data-point-wkt.csv")).stream()
                .skip(1)
                .toList();
        try (RecordReader peerRecords = readWith(peer, RecordGeometryEncoding.WKT)) {
            Record record;
            while ((record = peerRecords.nextRecord()) != null) {
                records.add(new MapRecord(schema, new LinkedHashMap<>(record.toMap())));
            }
        }
        assertEquals(wkt.size(), records.size());

        Path output = write(schema, records);

        ParquetRows.Contents written = ParquetRows.read(output);
        assertEquals(source.footer().schema(), written.footer().schema());
        assertEquals(
                source.footer().canonicalEntries().geo(),
                written.footer().canonicalEntries().geo());
        for (int i = 0; i < source.rows().size(); i++) {
            assertGroupsEqual(source.rows().get(i), written.rows().get(i));
        }
    }

    @Test
    void badConfigurationIsExplained() {
        runner.setProperty(writer, GeoParquetRecordSetWriter.GEO_METADATA, "{\"version\": \"1.1.0\"}");
        runner.assertNotValid(writer);

        runner.setProperty(
                writer,
                GeoParquetRecordSetWriter.GEO_METADATA,
                "{\"version\":\"1.1.0\",\"primary_column\":\"g\",\"columns\":{\"g\":{\"encoding\":\"point\",\"geometry_types\":[]}}}");
        runner.assertNotValid(writer);

        runner.removeProperty(writer, GeoParquetRecordSetWriter.GEO_METADATA);
        runner.setProperty(writer, GeoParquetRecordSetWriter.SCHEMA_SOURCE, SchemaSource.PARQUET_SCHEMA.getValue());
        runner.setProperty(
                writer, GeoParquetRecordSetWriter.PARQUET_SCHEMA, "message m { required binary id (STRING); }");
        runner.assertNotValid(writer);

        runner.setProperty(
                writer,
                GeoParquetRecordSetWriter.PARQUET_SCHEMA,
                "message m { required binary id (STRING); optional binary geometry; }");
        runner.assertValid(writer);

        runner.setProperty(writer, GeoParquetRecordSetWriter.SCHEMA_SOURCE, SchemaSource.ARCHIVE.getValue());
        runner.setProperty(writer, GeoParquetRecordSetWriter.ARCHIVE_DIRECTORY, temp.toString());
        runner.assertNotValid(writer);
    }

    @Test
    void aValueThatDoesNotFitFailsTheWriteAndNamesTheField() throws Exception {
        runner.enableControllerService(writer);
        RecordSchema schema =
                new SimpleRecordSchema(List.of(new RecordField("geometry", RecordFieldType.STRING.getDataType())));
        IOException error = assertThrows(IOException.class, () -> write(schema, List.of(record(schema, "POINT (1"))));
        assertTrue(
                error.getMessage().contains("'geometry'") && error.getMessage().contains("WKT"), error.getMessage());
    }

    @Test
    void aGeometryAsAnArrayOfBytesIsWrittenAndOneHoldingAnythingElseIsRefusedByName() throws Exception {
        runner.enableControllerService(writer);
        RecordSchema schema = new SimpleRecordSchema(List.of(new RecordField(
                "geometry", RecordFieldType.ARRAY.getArrayDataType(RecordFieldType.BYTE.getDataType()))));
        byte[] wkb = new WKBWriter(2, ByteOrderValues.LITTLE_ENDIAN)
                .write(new GeometryFactory().createPoint(new Coordinate(1, 2)));
        Object[] boxed = new Object[wkb.length]; // as NiFi's record readers give ARRAY of BYTE
        for (int i = 0; i < wkb.length; i++) {
            boxed[i] = wkb[i];
        }

        Path written = write(schema, List.of(record(schema, (Object) boxed)));
        assertEquals(
                List.of(List.of(HexFormat.of().withUpperCase().formatHex(wkb))),
                DuckDb.query("SELECT hex(geometry::BLOB) FROM read_parquet(?)", written.toString()));

        boxed[3] = "x";
        IOException error =
                assertThrows(IOException.class, () -> write(schema, List.of(record(schema, (Object) boxed))));
        assertTrue(
                error.getMessage().contains("'geometry'")
                        && error.getMessage().contains("is not a geometry (expected WKB bytes or a WKT string)"),
                error.getMessage());
    }

    // ---- helpers

    private Path convert(Path input) throws IOException {
        runner.enqueue(input, Map.of("filename", input.getFileName().toString()));
        runner.run();
        if (!runner.getFlowFilesForRelationship(ReadThenWrite.FAILURE).isEmpty()) {
            throw new AssertionError(runner.getFlowFilesForRelationship(ReadThenWrite.FAILURE)
                    .getFirst()
                    .getAttribute("error"));
        }
        MockFlowFile out =
                runner.getFlowFilesForRelationship(ReadThenWrite.SUCCESS).getFirst();
        Path output = temp.resolve("out-" + input.getFileName());
        Files.write(output, out.toByteArray());
        return output;
    }

    /** Same schema, canonical footer bytes and every stored bit of every row; DuckDB sees the same rows too. */
    private static void assertSameFile(Path input, Path output) throws IOException {
        ParquetRows.Contents expected = ParquetRows.read(input);
        ParquetRows.Contents actual = ParquetRows.read(output);
        assertEquals(expected.footer().schema(), actual.footer().schema());
        assertEquals(expected.footer().canonicalEntries(), actual.footer().canonicalEntries());
        assertEquals(expected.rows().size(), actual.rows().size());
        for (int i = 0; i < expected.rows().size(); i++) {
            assertGroupsEqual(expected.rows().get(i), actual.rows().get(i));
        }
        Map<String, byte[]> inFooter = DuckDb.footerEntries(input);
        Map<String, byte[]> outFooter = DuckDb.footerEntries(output);
        for (String key : expected.footer().canonicalEntries().asMap().keySet()) {
            assertArrayEquals(inFooter.get(key), outFooter.get(key), "footer entry " + key + " as DuckDB reads it");
        }
        assertEquals(DuckDb.countRows(input), DuckDb.countRows(output));
        assertEquals(0, DuckDb.rowsNotIn(input, output), "rows DuckDB reads from the input but not the output");
        assertEquals(0, DuckDb.rowsNotIn(output, input), "rows DuckDB reads from the output but not the input");
    }

    private RecordReader read(Path input) throws Exception {
        return reader.createRecordReader(
                Map.of("filename", input.getFileName().toString()),
                Files.newInputStream(input),
                Files.size(input),
                LOG);
    }

    private RecordReader readWith(Path input, RecordGeometryEncoding format) throws Exception {
        GeoParquetReader other = new GeoParquetReader();
        runner.addControllerService("other-reader", other);
        runner.setProperty(other, GeoParquetReader.GEOMETRY_FORMAT, format.getValue());
        runner.enableControllerService(other);
        return other.createRecordReader(Map.of(), Files.newInputStream(input), Files.size(input), LOG);
    }

    private Path write(RecordSchema schema, List<Record> records) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (RecordSetWriter out = writer.createWriter(LOG, schema, bytes, Map.of())) {
            out.beginRecordSet();
            for (Record record : records) {
                out.write(record);
            }
            out.finishRecordSet();
        }
        Path file = Files.createTempFile(temp, "written", ".parquet");
        Files.write(file, bytes.toByteArray());
        return file;
    }

    private static Record record(RecordSchema schema, Object... values) {
        Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            map.put(schema.getField(i).getFieldName(), values[i]);
        }
        return new MapRecord(schema, map);
    }

    private long spooledFiles() throws IOException {
        try (Stream<Path> files = Files.list(spool)) {
            return files.filter(file -> file.getFileName().toString().startsWith("nifi-geoparquet-"))
                    .count();
        }
    }
}
