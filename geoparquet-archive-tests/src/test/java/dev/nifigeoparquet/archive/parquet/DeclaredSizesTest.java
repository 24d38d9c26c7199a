package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.management.ThreadMXBean;
import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.ParquetSurgery;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.function.Consumer;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputDecompressor;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Files whose footer or page headers declare sizes their bytes cannot hold are refused, naming the file, before
 * anything of the declared size is allocated. Each case is a valid file (the peer countries file, written by pyarrow,
 * and the same rows written by this engine) with one number changed. The allocation is measured for the reading thread;
 * the declared sizes are larger than the default test heap (-Xmx1g) or the heavy profile's (-Xmx256m), so a blind
 * allocation would end in an OutOfMemoryError instead of a refusal.
 */
class DeclaredSizesTest {

    /** What opening and reading a refused file may allocate at most: far below every declared size here. */
    private static final long ALLOCATION_BOUND = 32L << 20;

    @TempDir
    Path dir;

    static String[] files() {
        return new String[] {"pyarrow", "engine"};
    }

    /** The valid file: the peer countries file as pyarrow wrote it, or its rows as this engine writes them (ZSTD). */
    private byte[] valid(String writer) throws IOException {
        Path peer = PeerData.copy("geoparquet-1.1.0/example.parquet", dir);
        if (writer.equals("pyarrow")) {
            return Files.readAllBytes(peer);
        }
        Path ours = dir.resolve("engine.parquet");
        ParquetRows.rewrite(peer, ours, WriterSettings.defaults());
        return Files.readAllBytes(ours);
    }

    @ParameterizedTest
    @MethodSource("files")
    void aPageDeclaringMoreBytesThanItsChunkHoldsIsRefusedBeforeAllocating(String writer) throws Exception {
        // parquet-java would allocate the bytes missing from the chunk and read them from the file: about 2 GiB.
        byte[] file = ParquetSurgery.withLastChunkPageHeader(
                valid(writer), page -> page.setCompressed_page_size(Integer.MAX_VALUE - 64));
        assertRefusedWhenRead(file, "declares " + (Integer.MAX_VALUE - 64) + " bytes, but its column chunk has");
    }

    @ParameterizedTest
    @MethodSource("files")
    void aPageDeclaringJustUnderTheDecompressionCapIsRefusedBeforeAllocating(String writer) throws Exception {
        int declared = ArchiveCodecFactory.DEFAULT_MAX_PAGE_BYTES - 1;
        byte[] file =
                ParquetSurgery.withLastChunkPageHeader(valid(writer), page -> page.setUncompressed_page_size(declared));
        assertRefusedWhenRead(file, "declares " + declared + " uncompressed bytes, more than its whole column chunk");
    }

    @ParameterizedTest
    @MethodSource("files")
    void aPageAndItsChunkBothDeclaringAHugeSizeAllocateOnlyWhatTheDataHolds(String writer) throws Exception {
        int declared = ArchiveCodecFactory.DEFAULT_MAX_PAGE_BYTES - 1;
        byte[] file =
                ParquetSurgery.withLastChunkPageHeader(valid(writer), page -> page.setUncompressed_page_size(declared));
        byte[] consistent = ParquetSurgery.withFooter(
                file,
                footer -> footer.getRow_groups()
                        .forEach(group -> group.getColumns()
                                .forEach(chunk -> chunk.getMeta_data()
                                        .setTotal_uncompressed_size(
                                                chunk.getMeta_data().getTotal_uncompressed_size() + declared))));
        assertRefusedWhenRead(consistent, "header declares " + declared);
    }

    @Test
    void aColumnChunkStartingBeyondTheFileIsRefusedWhenOpened() throws Exception {
        assertRefusedWhenOpened(
                footer -> footer.getRow_groups().get(0).getColumns().forEach(chunk -> {
                    chunk.getMeta_data().unsetDictionary_page_offset();
                    chunk.getMeta_data().setData_page_offset(1L << 40);
                }),
                "outside the data");
    }

    @Test
    void aRowGroupDeclaringMoreRowsThanItsColumnsHoldIsRefusedWhenOpened() throws Exception {
        assertRefusedWhenOpened(
                footer -> footer.getRow_groups().get(0).setNum_rows(1L << 40),
                "but its row group declares " + (1L << 40) + " rows");
    }

    @Test
    void aRowGroupDeclaringMoreBytesThanItsColumnsHoldIsRefusedWhenOpened() throws Exception {
        assertRefusedWhenOpened(
                footer -> footer.getRow_groups().get(0).setTotal_byte_size(1L << 40),
                "row group 0 declares " + (1L << 40) + " bytes, but its column chunks hold");
    }

    /** The checks refuse nothing a real writer wrote. */
    @Test
    void everyPeerFileStillReadsInFull() throws Exception {
        for (String peer : PeerData.parquetFiles()) {
            Path file = PeerData.copy(peer, dir.resolve(peer.replace('/', '-')));
            long rows = ParquetRows.read(file).rows().size();
            assertTrue(rows > 0, peer);
            Path ours = dir.resolve(peer.replace('/', '-') + "-rewritten.parquet");
            ParquetRows.rewrite(file, ours, WriterSettings.defaults());
            assertTrue(ParquetRows.read(ours).rows().size() == rows, peer + " rewritten");
        }
    }

    /** Pages above the direct-allocation size still decompress with every codec, and only to the size their data holds. */
    @ParameterizedTest
    @EnumSource(
            value = CompressionCodecName.class,
            names = {"UNCOMPRESSED", "ZSTD", "SNAPPY", "GZIP", "LZ4_RAW"})
    @SuppressWarnings("deprecation") // plain heap copies; the replacements need an allocator and a release
    void largePagesStillDecompress(CompressionCodecName codec) throws Exception {
        byte[] page = new byte[ArchiveCodecFactory.DIRECT_PAGE_BYTES + 12345];
        Random random = new Random(7);
        for (int i = 0; i < page.length; i += 64) {
            page[i] = (byte) random.nextInt(4); // compressible, not trivially
        }
        ArchiveCodecFactory codecs = ArchiveCodecFactory.forReading();
        BytesInputCompressor compressor = codecs.getCompressor(codec);
        BytesInput compressed = BytesInput.copy(compressor.compress(BytesInput.from(page)));
        BytesInputDecompressor decompressor = codecs.getDecompressor(codec);
        assertArrayEquals(page, decompressor.decompress(compressed, page.length).toByteArray());
        assertThrows(
                IOException.class,
                () -> decompressor.decompress(compressed, page.length + 1000).toByteArray(),
                codec + ": a page declaring more than its data holds");
    }

    private void assertRefusedWhenOpened(Consumer<FileMetaData> change, String reason) throws Exception {
        Path file = dir.resolve("crafted.parquet");
        Files.write(file, ParquetSurgery.withFooter(valid("pyarrow"), change));
        long before = allocatedBytes();
        ParquetFileException refused = assertThrows(
                ParquetFileException.class,
                () -> GeoParquetFileReader.open(file).close());
        assertRefusal(refused, file, reason, allocatedBytes() - before);
    }

    private void assertRefusedWhenRead(byte[] content, String reason) throws Exception {
        ParquetRows.read(PeerData.file("geoparquet-1.1.0/example.parquet")); // loads the codecs' native libraries first
        Path file = dir.resolve("crafted.parquet");
        Files.write(file, content);
        long before = allocatedBytes();
        Exception refused = assertThrows(Exception.class, () -> {
            try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
                reader.rows().forEachRemaining(row -> {});
            }
        });
        assertRefusal(refused, file, reason, allocatedBytes() - before);
    }

    private static void assertRefusal(Exception refused, Path file, String reason, long allocated) {
        String message = refused.getMessage();
        assertTrue(message.contains(file.toString()), "names the file: " + message);
        assertTrue(message.contains(reason), "says why (" + reason + "): " + message);
        assertTrue(allocated < ALLOCATION_BOUND, "allocated " + allocated + " bytes: " + message);
        System.out.println("refused after allocating " + (allocated >> 10) + " KiB: " + message);
    }

    private static long allocatedBytes() {
        return ((ThreadMXBean) ManagementFactory.getThreadMXBean()).getCurrentThreadAllocatedBytes();
    }
}
