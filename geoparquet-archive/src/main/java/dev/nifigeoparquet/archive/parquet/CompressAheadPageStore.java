package dev.nifigeoparquet.archive.parquet;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageWriteStore;
import org.apache.parquet.column.page.PageWriter;
import org.apache.parquet.column.statistics.SizeStatistics;
import org.apache.parquet.column.statistics.Statistics;
import org.apache.parquet.column.statistics.geospatial.GeospatialStatistics;
import org.apache.parquet.compression.CompressionCodecFactory.BytesInputCompressor;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

/**
 * Compresses a writer's data pages on helper threads while the writer goes on encoding. parquet-java compresses each
 * page on the thread that writes it, which measured about a third of a compaction's time on that thread, and most of
 * the time a routed cell's file takes to finish.
 *
 * <p>This store stands between the column writers and parquet-java's page store ({@code target}): it copies each data
 * page, compresses the copies on a shared pool of helper threads (one per core, each with its own compressor of the
 * writer's codec and level), and hands the pages on to the target once compressed, in the order the columns wrote
 * them. Most columns end a row group with a single page, written when the row group ends; the helpers then compress
 * those side by side, small ones included, since the writing thread waits for all of them before the row group is
 * flushed anyway. The target's compressor is a {@link HandOff}, which returns the page's compressed bytes when one is
 * being handed on, and compresses on the writing thread otherwise (dictionary pages, which the target compresses when
 * a row group ends). The file's bytes are exactly those of a writer that compresses each page itself: the same pages,
 * the same compressor settings, in the same order.
 *
 * <p>At most {@value #MAX_PENDING} pages of a writer, or 16 MiB of them, wait or are compressed at once; a writer
 * with more waits for the oldest. {@link #drain()} hands every page on; call it before the target flushes a row group.
 */
final class CompressAheadPageStore implements PageWriteStore {

    private static final int MAX_PENDING = 64;
    private static final long MAX_PENDING_BYTES = 16L << 20;

    private static final AtomicInteger THREADS = new AtomicInteger();
    /** Shared by every writer; it runs nothing that waits, so a writer waiting for it cannot deadlock. */
    private static final ExecutorService HELPERS = helpers();
    /** Each helper's compressors, by codec and level; they live as long as the helper. */
    private static final ThreadLocal<Map<String, BytesInputCompressor>> HELPER_COMPRESSORS =
            ThreadLocal.withInitial(HashMap::new);

    private final PageWriteStore target;
    private final HandOff handOff;
    private final CompressionCodecName codec;
    private final int zstdLevel;
    private final Map<ColumnDescriptor, PageWriter> writers = new HashMap<>();
    private final Deque<PendingPage> pending = new ArrayDeque<>();
    private long pendingBytes;

    /**
     * @param target    parquet-java's page store, built with {@code handOff} as its compressor
     * @param handOff   the target's compressor
     * @param codec     the writer's codec
     * @param zstdLevel the writer's zstd level
     */
    CompressAheadPageStore(PageWriteStore target, HandOff handOff, CompressionCodecName codec, int zstdLevel) {
        this.target = target;
        this.handOff = handOff;
        this.codec = codec;
        this.zstdLevel = zstdLevel;
    }

    private static ExecutorService helpers() {
        return Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors(), runnable -> {
            Thread thread = new Thread(runnable, "geoparquet-compress-" + THREADS.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public PageWriter getPageWriter(ColumnDescriptor column) {
        return writers.computeIfAbsent(column, c -> new AheadPageWriter(target.getPageWriter(c)));
    }

    /** Hands every page on to the target, in order, waiting for those still being compressed. */
    void drain() throws IOException {
        while (!pending.isEmpty()) {
            handOn(pending.poll());
        }
    }

    /** Drops the pages not handed on, for a writer that is abandoned; compressions under way end on their own. */
    void abandon() {
        pending.clear();
        pendingBytes = 0;
    }

    private void handOnCompleted() throws IOException {
        while (!pending.isEmpty() && pending.peek().compressed().isDone()) {
            handOn(pending.poll());
        }
    }

    private void handOn(PendingPage page) throws IOException {
        pendingBytes -= page.bytes();
        BytesInput compressed;
        try {
            compressed = page.compressed().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while a page was compressed");
        } catch (ExecutionException e) {
            // The compression throws what the compressor throws: an I/O failure, or a runtime one.
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException("Compressing a page failed", cause);
        }
        handOff.handingOn(compressed, page.writeToTarget());
    }

    private Future<BytesInput> compressAhead(byte[] page) {
        return HELPERS.submit(() -> HELPER_COMPRESSORS
                .get()
                .computeIfAbsent(
                        codec + ":" + zstdLevel, key -> new ArchiveCodecFactory(zstdLevel).getCompressor(codec))
                .compress(BytesInput.from(page)));
    }

    /** A page waiting for its compressed bytes, and what writes it to the target then. */
    private record PendingPage(Future<BytesInput> compressed, long bytes, PageWrite writeToTarget) {}

    @FunctionalInterface
    interface PageWrite {
        void run() throws IOException;
    }

    /**
     * The target's compressor: the compressed bytes of the page being handed on, or the page compressed here.
     */
    static final class HandOff implements BytesInputCompressor {
        private final BytesInputCompressor own;
        private BytesInput next;

        HandOff(BytesInputCompressor own) {
            this.own = own;
        }

        @Override
        public BytesInput compress(BytesInput bytes) throws IOException {
            return next != null ? next : own.compress(bytes);
        }

        /** Runs {@code write}, during which this compressor returns {@code compressed} for the page written. */
        void handingOn(BytesInput compressed, PageWrite write) throws IOException {
            next = compressed;
            try {
                write.run();
            } finally {
                next = null;
            }
        }

        @Override
        public CompressionCodecName getCodecName() {
            return own.getCodecName();
        }

        @Override
        public void release() {
            own.release();
        }
    }

    private final class AheadPageWriter implements PageWriter {
        private final PageWriter delegate;

        AheadPageWriter(PageWriter delegate) {
            this.delegate = delegate;
        }

        @Override
        public void writePage(
                BytesInput bytes,
                int valueCount,
                int rowCount,
                Statistics<?> statistics,
                SizeStatistics sizeStatistics,
                GeospatialStatistics geospatialStatistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding)
                throws IOException {
            // The column writer reuses its buffers once this returns, so the page is copied. Its statistics are new
            // objects for every page, so they can be handed on later as they are.
            @SuppressWarnings("deprecation") // the replacement needs an allocator and a release; a heap copy will do
            byte[] copy = bytes.toByteArray();
            BytesInput page = BytesInput.from(copy);
            PageWrite write = () -> delegate.writePage(
                    page,
                    valueCount,
                    rowCount,
                    statistics,
                    sizeStatistics,
                    geospatialStatistics,
                    rlEncoding,
                    dlEncoding,
                    valuesEncoding);
            Future<BytesInput> compressed = compressAhead(copy);
            pendingBytes += copy.length;
            pending.add(new PendingPage(compressed, copy.length, write));
            handOnCompleted();
            while (pending.size() > MAX_PENDING || pendingBytes > MAX_PENDING_BYTES) {
                handOn(pending.poll());
            }
        }

        // Deprecated, but callers written before geospatial statistics still use it, and the default throws.
        @Override
        @SuppressWarnings("deprecation")
        public void writePage(
                BytesInput bytes,
                int valueCount,
                int rowCount,
                Statistics<?> statistics,
                SizeStatistics sizeStatistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding)
                throws IOException {
            writePage(
                    bytes,
                    valueCount,
                    rowCount,
                    statistics,
                    sizeStatistics,
                    null,
                    rlEncoding,
                    dlEncoding,
                    valuesEncoding);
        }

        @Override
        public void writePage(
                BytesInput bytes,
                int valueCount,
                int rowCount,
                Statistics<?> statistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding)
                throws IOException {
            writePage(bytes, valueCount, rowCount, statistics, null, null, rlEncoding, dlEncoding, valuesEncoding);
        }

        @Override
        @Deprecated
        public void writePage(
                BytesInput bytes,
                int valueCount,
                Statistics<?> statistics,
                Encoding rlEncoding,
                Encoding dlEncoding,
                Encoding valuesEncoding) {
            throw new UnsupportedOperationException("a page without its row count");
        }

        /**
         * The archive's writers write data pages v1 (parquet-java's default); the other {@code writePageV2} methods
         * come here too.
         */
        @Override
        public void writePageV2(
                int rowCount,
                int nullCount,
                int valueCount,
                BytesInput repetitionLevels,
                BytesInput definitionLevels,
                Encoding dataEncoding,
                BytesInput data,
                Statistics<?> statistics) {
            throw new UnsupportedOperationException("pages are compressed ahead only for data pages v1");
        }

        @Override
        public long getMemSize() {
            return delegate.getMemSize();
        }

        @Override
        public long allocatedSize() {
            return delegate.allocatedSize();
        }

        @Override
        public void writeDictionaryPage(DictionaryPage dictionaryPage) throws IOException {
            delegate.writeDictionaryPage(dictionaryPage);
        }

        @Override
        public String memUsageString(String prefix) {
            return delegate.memUsageString(prefix);
        }
    }
}
