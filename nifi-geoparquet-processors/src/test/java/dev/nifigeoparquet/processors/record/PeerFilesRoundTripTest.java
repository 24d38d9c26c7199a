package dev.nifigeoparquet.processors.record;

import static dev.nifigeoparquet.processors.record.GroupAssertions.assertGroupsEqual;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.nifi.serialization.record.Record;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.nifi.serialization.record.type.ArrayDataType;
import org.apache.parquet.ParquetReadOptions;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.convert.GroupRecordConverter;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.io.ColumnIOFactory;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.MessageColumnIO;
import org.apache.parquet.io.RecordReader;
import org.apache.parquet.schema.MessageType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Files written by other implementations (see the peer data README) survive Group -> Record -> Group unchanged. */
class PeerFilesRoundTripTest {

    @TempDir
    Path workDir;

    static Stream<String> peerParquetFiles() throws IOException {
        Path root = peerRoot();
        try (Stream<Path> files = Files.walk(root)) {
            List<String> names = files.filter(file -> file.toString().endsWith(".parquet"))
                    .map(file -> root.relativize(file).toString())
                    .sorted()
                    .toList();
            assertFalse(names.isEmpty(), "no peer parquet files under " + root);
            return names.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("peerParquetFiles")
    void everyRowSurvivesTheRoundTrip(String relativePath) throws IOException {
        Path copy = copyToWorkDir(relativePath);
        ParquetRows rows = readAll(copy);
        GroupToRecordConverter toRecord = new GroupToRecordConverter(rows.schema());
        RecordToGroupConverter toGroup = new RecordToGroupConverter(rows.schema(), RecordConversionOptions.STRICT);

        assertFalse(rows.groups().isEmpty(), relativePath + " has rows");
        for (Group original : rows.groups()) {
            assertGroupsEqual(original, toGroup.convert(toRecord.convert(original)));
        }
    }

    @Test
    void nativeGeoArrowPolygonsBecomeNestedArraysOfPointRecords() throws IOException {
        ParquetRows rows = readAll(copyToWorkDir("geoparquet-1.1.0/data-polygon-encoding_native.parquet"));
        GroupToRecordConverter toRecord = new GroupToRecordConverter(rows.schema());

        ArrayDataType rings = (ArrayDataType)
                toRecord.recordSchema().getField("geometry").orElseThrow().getDataType();
        ArrayDataType points = (ArrayDataType) rings.getElementType();
        assertEquals(RecordFieldType.RECORD, points.getElementType().getFieldType());
        Object geometry = rows.groups().stream()
                .map(toRecord::convert)
                .map(record -> record.getValue("geometry"))
                .filter(value -> value != null && ((Object[]) value).length > 0)
                .findFirst()
                .orElseThrow();
        Object[] firstRing = (Object[]) ((Object[]) geometry)[0];
        Record firstPoint = (Record) firstRing[0];
        assertInstanceOf(Double.class, firstPoint.getValue("x"));
        assertInstanceOf(Double.class, firstPoint.getValue("y"));
    }

    @Test
    void nativeGeometryColumnStaysWkbBytes() throws IOException {
        ParquetRows rows = readAll(copyToWorkDir("parquet-format-geospatial/geospatial.parquet"));
        GroupToRecordConverter toRecord = new GroupToRecordConverter(rows.schema());

        assertEquals(
                RecordFieldType.ARRAY.getArrayDataType(RecordFieldType.BYTE.getDataType(), false),
                toRecord.recordSchema().getField("geometry").orElseThrow().getDataType());
        int seen = 0;
        for (Group row : rows.groups()) {
            if (row.getFieldRepetitionCount("geometry") == 0) {
                continue;
            }
            Byte[] wkb = (Byte[]) toRecord.convert(row).getValue("geometry");
            assertArrayEquals(BinaryValues.boxed(row.getBinary("geometry", 0).getBytes()), wkb);
            assertTrue(wkb[0] == 0 || wkb[0] == 1, "WKB starts with a byte-order marker");
            seen++;
        }
        assertTrue(seen > 0);
    }

    private record ParquetRows(MessageType schema, List<Group> groups) {}

    private static ParquetRows readAll(Path file) throws IOException {
        try (ParquetFileReader reader = ParquetFileReader.open(
                new LocalInputFile(file),
                // Plain configuration: reading needs no Hadoop Configuration (and its classpath).
                ParquetReadOptions.builder(new PlainParquetConfiguration()).build())) {
            MessageType schema = reader.getFooter().getFileMetaData().getSchema();
            MessageColumnIO columnIO = new ColumnIOFactory().getColumnIO(schema);
            List<Group> groups = new ArrayList<>();
            PageReadStore rowGroup;
            while ((rowGroup = reader.readNextRowGroup()) != null) {
                RecordReader<Group> records = columnIO.getRecordReader(rowGroup, new GroupRecordConverter(schema));
                for (long i = 0; i < rowGroup.getRowCount(); i++) {
                    groups.add(records.read());
                }
            }
            return new ParquetRows(schema, groups);
        }
    }

    private Path copyToWorkDir(String relativePath) throws IOException {
        Path target = workDir.resolve(relativePath.replace('/', '_'));
        Files.copy(peerRoot().resolve(relativePath), target);
        return target;
    }

    private static Path peerRoot() {
        String dir = System.getProperty("peer.testdata.dir");
        assertTrue(
                dir != null && Files.isDirectory(Path.of(dir)),
                "system property peer.testdata.dir points at the peer data: " + dir);
        return Path.of(dir);
    }
}
