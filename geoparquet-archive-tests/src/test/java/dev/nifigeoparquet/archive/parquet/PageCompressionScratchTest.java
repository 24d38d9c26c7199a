package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import com.github.luben.zstd.Zstd;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;

/**
 * ZSTD pages are compressed through pooled buffers that pass from thread to thread. What must hold: every page
 * returned stays intact while later pages are compressed (writers hold pages until their row group is flushed), on
 * more threads at once than the pool keeps buffers for, for pages of every size, and zstd itself decodes each one to
 * the page given.
 */
class PageCompressionScratchTest {

    @Test
    void pagesKeptWhileLaterOnesAreCompressedDecodeToWhatWasGiven() throws Exception {
        int threadCount = ArchiveCodecFactory.POOLED_SCRATCH + 2;
        try (ExecutorService threads = Executors.newFixedThreadPool(threadCount)) {
            List<Future<?>> done = new ArrayList<>();
            for (int thread = 0; thread < threadCount; thread++) {
                long seed = thread;
                done.add(threads.submit(() -> {
                    compressAndCheck(seed);
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        }
    }

    private static void compressAndCheck(long seed) throws Exception {
        BytesInputCompressor compressor = new ArchiveCodecFactory(3).getCompressor(CompressionCodecName.ZSTD);
        SplittableRandom random = new SplittableRandom(seed);
        // Small, page-sized, larger than the kept buffers, then small again.
        int[] sizes = {0, 17, 4096, 1 << 20, ArchiveCodecFactory.KEPT_SCRATCH_BYTES + 12345, 300, 1 << 20, 5};
        List<byte[]> pages = new ArrayList<>();
        List<BytesInput> compressed = new ArrayList<>();
        for (int size : sizes) {
            byte[] page = new byte[size];
            for (int i = 0; i < size; i++) {
                page[i] = (byte) (random.nextInt(16) + (i % 64 == 0 ? random.nextInt(256) : 0));
            }
            pages.add(page);
            compressed.add(compressor.compress(BytesInput.from(page)));
        }
        compressor.release();
        for (int i = 0; i < sizes.length; i++) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            compressed.get(i).writeAllTo(bytes);
            assertArrayEquals(
                    pages.get(i), Zstd.decompress(bytes.toByteArray(), sizes[i]), "page of " + sizes[i] + " bytes");
        }
    }
}
