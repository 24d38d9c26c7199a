package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.CompressionCodec;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.io.LocalOutputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeoParquetFileReaderTest {

    @TempDir
    Path dir;

    @Test
    void readsRowGroupByRowGroupAsTheFooterDeclares() throws Exception {
        Path file = PeerData.copy("parquet-format-geospatial/geospatial.parquet", dir);
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
            ParquetFooter footer = reader.footer();
            assertTrue(footer.rowGroupCount() > 1, "a multi-row-group file");
            List<Long> seen = new ArrayList<>();
            for (GeoParquetFileReader.RowGroup group = reader.nextRowGroup();
                    group != null;
                    group = reader.nextRowGroup()) {
                long rows = 0;
                while (group.hasNext()) {
                    group.next();
                    rows++;
                }
                assertEquals(group.rowCount(), rows);
                seen.add(rows);
            }
            assertEquals(
                    footer.rowGroups().stream().map(BlockMetaData::getRowCount).toList(), seen);
            assertEquals(footer.rowCount(), reader.rowsRead());
            assertNull(reader.nextRowGroup());
        }
    }

    @Test
    void aRowGroupSpanningManyReadBuffersReadsBackEveryRowAsWritten() throws Exception {
        Path file = dir.resolve("large.parquet");
        int rows = 80_000;
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                BoxRows.SCHEMA,
                BoxRows.footer(),
                WriterSettings.defaults())) {
            for (int i = 0; i < rows; i++) {
                writer.write(BoxRows.row(i, new Random(i), "row " + i));
            }
            writer.finish();
        }
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
            BlockMetaData only = reader.footer().rowGroups().get(0);
            assertEquals(rows, only.getRowCount(), "one row group");
            // The geometry chunk spans several read buffers, so some of its pages straddle two of them.
            long geometryBytes = only.getColumns().stream()
                    .filter(column -> column.getPath().toDotString().equals("geometry"))
                    .mapToLong(column -> column.getTotalSize())
                    .sum();
            assertTrue(
                    geometryBytes > 4L * GeoParquetFileReader.MAX_READ_BUFFER_BYTES,
                    "geometry chunk of " + geometryBytes + " bytes");
            GeoParquetFileReader.RowGroup group = reader.nextRowGroup();
            int read = 0;
            while (group.hasNext()) {
                Group row = group.next();
                Group written = BoxRows.row(read, new Random(read), "row " + read);
                assertEquals(written.getLong("id", 0), row.getLong("id", 0));
                assertEquals(written.getString("label", 0), row.getString("label", 0));
                assertEquals(written.getFieldRepetitionCount("geometry"), row.getFieldRepetitionCount("geometry"));
                if (written.getFieldRepetitionCount("geometry") > 0) {
                    assertEquals(written.getBinary("geometry", 0), row.getBinary("geometry", 0), "row " + read);
                }
                read++;
            }
            assertEquals(rows, read);
        }
    }

    @Test
    void truncatedFileIsReportedByName() throws Exception {
        Path file = PeerData.copy("geoparquet-1.1.0/example.parquet", dir);
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(bytes, bytes.length - 100));
        assertFailsNaming(file, "magic");
    }

    @Test
    void footerLengthLargerThanTheFileIsRefusedBeforeAllocating() throws Exception {
        Path file = PeerData.copy("geoparquet-1.1.0/example.parquet", dir);
        byte[] bytes = Files.readAllBytes(file);
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(bytes.length - 8, Integer.MAX_VALUE);
        Files.write(file, bytes);
        assertFailsNaming(file, "footer length " + Integer.MAX_VALUE);
    }

    @Test
    void notParquetAtAll() throws Exception {
        Path file = dir.resolve("notes.parquet");
        Files.writeString(file, "this is not a parquet file, just some text");
        assertFailsNaming(file, "magic");
        Files.writeString(file, "PAR1");
        assertFailsNaming(file, "too short");
    }

    @Test
    void columnChunkOutsideTheFileIsRefusedBeforeReading() throws Exception {
        Path file =
                rewriteFooter("geoparquet-1.1.0/example.parquet", column -> column.setTotal_compressed_size(1L << 40));
        assertFailsNaming(file, "outside the data");
    }

    @Test
    void unsupportedCodecIsNamed() throws Exception {
        Path file =
                rewriteFooter("geoparquet-1.1.0/example.parquet", column -> column.setCodec(CompressionCodec.BROTLI));
        assertFailsNaming(file, "BROTLI");
    }

    @Test
    void corruptPageDataIsReportedByNameWhenItsRowGroupIsRead() throws Exception {
        Path file = PeerData.copy("geoparquet-1.1.0/example.parquet", dir);
        byte[] bytes = Files.readAllBytes(file);
        Arrays.fill(bytes, 4, 4 + 400, (byte) 0x7f); // overwrite the first pages, leave the footer intact
        Files.write(file, bytes);
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
            Exception e = assertThrows(Exception.class, () -> reader.rows().forEachRemaining(row -> {}));
            assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        }
    }

    private void assertFailsNaming(Path file, String reason) {
        ParquetFileException e = assertThrows(
                ParquetFileException.class,
                () -> GeoParquetFileReader.open(file).close());
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }

    /** A copy of a peer file whose every column chunk's metadata was changed, footer re-serialised. */
    private Path rewriteFooter(String peerFile, Consumer<ColumnMetaData> change) throws Exception {
        Path file = PeerData.copy(peerFile, dir);
        byte[] bytes = Files.readAllBytes(file);
        int footerLength = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(bytes.length - 8);
        int footerStart = bytes.length - 8 - footerLength;
        FileMetaData footer = Util.readFileMetaData(new ByteArrayInputStream(bytes, footerStart, footerLength));
        footer.getRow_groups()
                .forEach(group -> group.getColumns().forEach(chunk -> change.accept(chunk.getMeta_data())));

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(bytes, 0, footerStart);
        ByteArrayOutputStream newFooter = new ByteArrayOutputStream();
        Util.writeFileMetaData(footer, newFooter);
        newFooter.writeTo(out);
        out.write(ByteBuffer.allocate(4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(newFooter.size())
                .array());
        out.write("PAR1".getBytes(StandardCharsets.US_ASCII));
        Files.write(file, out.toByteArray());
        return file;
    }
}
