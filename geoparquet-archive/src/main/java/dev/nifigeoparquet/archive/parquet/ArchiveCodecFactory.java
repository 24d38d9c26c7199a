package dev.nifigeoparquet.archive.parquet;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdInputStream;
import dev.nifigeoparquet.archive.error.UnsupportedCodecException;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import org.apache.parquet.bytes.BytesInput;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.xerial.snappy.Snappy;

/**
 * Page compression without Hadoop's codec classes: zstd-jni (with a configurable level, which Parquet does not
 * record), snappy-java, java.util.zip for GZIP and aircompressor for LZ4_RAW.
 *
 * <p>A page header declares its uncompressed size; a corrupt header could declare gigabytes. Decompression
 * refuses sizes above {@code maxPageBytes} before allocating anything, and allocates pages above
 * {@link #DIRECT_PAGE_BYTES} only as their data fills them.
 */
public final class ArchiveCodecFactory implements CompressionCodecFactory {

    public static final Set<CompressionCodecName> SUPPORTED = Set.of(
            CompressionCodecName.UNCOMPRESSED,
            CompressionCodecName.ZSTD,
            CompressionCodecName.SNAPPY,
            CompressionCodecName.GZIP,
            CompressionCodecName.LZ4_RAW);

    /** Far above any page parquet-java or pyarrow writes (about 1 MiB), far below the heap. */
    public static final int DEFAULT_MAX_PAGE_BYTES = 256 * 1024 * 1024;

    /**
     * Pages declaring up to this many uncompressed bytes are decompressed into a buffer of the declared size; larger
     * ones by {@code decompressLarge}. Pages parquet-java and pyarrow write are about 1 MiB.
     */
    static final int DIRECT_PAGE_BYTES = 8 * 1024 * 1024;

    /** The LZ4 block format outputs at most 255 bytes per input byte (a match length extension byte adds 255). */
    private static final long LZ4_MAX_EXPANSION = 255;

    private final int zstdLevel;
    private final int maxPageBytes;

    public ArchiveCodecFactory(int zstdLevel) {
        this(zstdLevel, DEFAULT_MAX_PAGE_BYTES);
    }

    public ArchiveCodecFactory(int zstdLevel, int maxPageBytes) {
        this.zstdLevel = zstdLevel;
        this.maxPageBytes = maxPageBytes;
    }

    /** For reading: the level only matters when compressing. */
    public static ArchiveCodecFactory forReading() {
        return new ArchiveCodecFactory(WriterSettings.DEFAULT_ZSTD_LEVEL);
    }

    @Override
    public BytesInputCompressor getCompressor(CompressionCodecName codec) {
        requireSupported(codec);
        return new Compressor(codec);
    }

    @Override
    public BytesInputDecompressor getDecompressor(CompressionCodecName codec) {
        requireSupported(codec);
        return new Decompressor(codec);
    }

    @Override
    public void release() {
        // Nothing pooled.
    }

    private static void requireSupported(CompressionCodecName codec) {
        if (!SUPPORTED.contains(codec)) {
            throw new UnsupportedCodecException(codec, SUPPORTED);
        }
    }

    private final class Compressor implements BytesInputCompressor {
        private final CompressionCodecName codec;

        Compressor(CompressionCodecName codec) {
            this.codec = codec;
        }

        /** One ZSTD context for all of a writer's pages: a fresh one per page costs more than a small page's compression. */
        private ZstdCompressCtx zstd;

        @Override
        public BytesInput compress(BytesInput input) throws IOException {
            if (codec != CompressionCodecName.ZSTD) {
                byte[] raw = bytesOf(input);
                return BytesInput.from(
                        switch (codec) {
                            case UNCOMPRESSED -> raw;
                            case SNAPPY -> Snappy.compress(raw);
                            case GZIP -> gzip(raw);
                            case LZ4_RAW -> lz4(raw);
                            default -> throw new UnsupportedCodecException(codec, SUPPORTED);
                        });
            }
            // The page and its compressed form pass through pooled buffers: allocating and copying both for every
            // page was a sixth of everything a rewrite allocated. Only the compressed bytes returned are new.
            Scratch scratch = Scratch.take();
            try {
                scratch.page.fill(input);
                int length = scratch.page.size();
                byte[] out = scratch.compressed(Math.toIntExact(Zstd.compressBound(length)));
                int compressed = zstd().compressByteArray(out, 0, out.length, scratch.page.bytes(), 0, length);
                return BytesInput.from(Arrays.copyOf(out, compressed));
            } finally {
                scratch.giveBack();
            }
        }

        @Override
        public CompressionCodecName getCodecName() {
            return codec;
        }

        private ZstdCompressCtx zstd() {
            if (zstd == null) {
                zstd = new ZstdCompressCtx().setLevel(zstdLevel);
            }
            return zstd;
        }

        @Override
        public void release() {
            if (zstd != null) {
                zstd.close();
                zstd = null;
            }
        }
    }

    private final class Decompressor implements BytesInputDecompressor {
        private final CompressionCodecName codec;

        Decompressor(CompressionCodecName codec) {
            this.codec = codec;
        }

        @Override
        public BytesInput decompress(BytesInput input, int uncompressedSize) throws IOException {
            return BytesInput.from(decompress(bytesOf(input), uncompressedSize));
        }

        @Override
        public void decompress(ByteBuffer input, int compressedSize, ByteBuffer output, int uncompressedSize)
                throws IOException {
            byte[] compressed = new byte[compressedSize];
            input.get(compressed);
            output.put(decompress(compressed, uncompressedSize));
        }

        private byte[] decompress(byte[] compressed, int uncompressedSize) throws IOException {
            if (uncompressedSize < 0 || uncompressedSize > maxPageBytes) {
                throw new IOException("Page declares " + uncompressedSize + " uncompressed bytes; the limit is "
                        + maxPageBytes + " (corrupt page header?)");
            }
            byte[] out = uncompressedSize > DIRECT_PAGE_BYTES
                    ? decompressLarge(compressed, uncompressedSize)
                    : switch (codec) {
                        case UNCOMPRESSED -> compressed;
                        case ZSTD -> Zstd.decompress(compressed, uncompressedSize);
                        case SNAPPY -> unsnappy(compressed, uncompressedSize);
                        case GZIP -> gunzip(compressed, uncompressedSize);
                        case LZ4_RAW -> unlz4(compressed, uncompressedSize);
                        default -> throw new UnsupportedCodecException(codec, SUPPORTED);
                    };
            if (out.length != uncompressedSize) {
                throw new IOException(
                        codec + " page decompressed to " + out.length + " bytes, header declares " + uncompressedSize);
            }
            return out;
        }

        /**
         * A page above {@link #DIRECT_PAGE_BYTES}: its output grows as the compressed bytes actually produce it, so a
         * header declaring a size its data cannot fill allocates no more than the data does. Snappy's stream is
         * validated (without output) before its declared size is allocated; LZ4 allocates at most what its format
         * can expand the compressed bytes in hand to.
         */
        private byte[] decompressLarge(byte[] compressed, int uncompressedSize) throws IOException {
            return switch (codec) {
                case UNCOMPRESSED -> compressed;
                case ZSTD -> {
                    try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(compressed))) {
                        yield in.readNBytes(uncompressedSize);
                    }
                }
                case GZIP -> gunzip(compressed, uncompressedSize);
                case SNAPPY -> {
                    boolean valid = Snappy.isValidCompressedBuffer(compressed);
                    if (!valid || Snappy.uncompressedLength(compressed) != uncompressedSize) {
                        throw new IOException(
                                "SNAPPY page is corrupt: its header declares " + uncompressedSize + " bytes, its data "
                                        + (valid
                                                ? "holds " + Snappy.uncompressedLength(compressed)
                                                : "is not a valid Snappy stream"));
                    }
                    yield unsnappy(compressed, uncompressedSize);
                }
                case LZ4_RAW ->
                    unlz4(compressed, (int) Math.min(uncompressedSize, LZ4_MAX_EXPANSION * compressed.length));
                default -> throw new UnsupportedCodecException(codec, SUPPORTED);
            };
        }

        @Override
        public void release() {
            // Nothing held.
        }
    }

    /** Buffers grown past this size for an unusually large page are dropped after it rather than kept. */
    static final int KEPT_SCRATCH_BYTES = 2 * 1024 * 1024;

    /** More than an archive compresses at once on a machine of this many cores; pairs beyond it are dropped. */
    static final int POOLED_SCRATCH = 2 * Runtime.getRuntime().availableProcessors() + 2;

    /**
     * Buffers for compressing a page, shared through a pool rather than kept per thread: an archive starts fresh
     * worker threads for each run, and a page-sized buffer (about 1 MiB) is a humongous allocation for G1, so buffers
     * allocated for every new thread started concurrent marking on the core the next rewrite needed.
     */
    private static final BlockingQueue<Scratch> SCRATCH = new ArrayBlockingQueue<>(POOLED_SCRATCH);

    private static final class Scratch {
        final PageBuffer page = new PageBuffer();
        private byte[] compressed = new byte[0];

        static Scratch take() {
            Scratch pooled = SCRATCH.poll();
            return pooled != null ? pooled : new Scratch();
        }

        byte[] compressed(int bound) {
            if (compressed.length < bound) {
                compressed = new byte[bound];
            }
            return compressed;
        }

        /** Drops buffers grown past the kept size and pools the pair unless the pool is full; the next page refills it. */
        void giveBack() {
            if (compressed.length > KEPT_SCRATCH_BYTES) {
                compressed = new byte[0];
            }
            page.trim();
            SCRATCH.offer(this);
        }
    }

    /** A reusable page buffer whose bytes are read in place. */
    private static final class PageBuffer extends ByteArrayOutputStream {
        byte[] bytes() {
            return buf;
        }

        /** Replaces the contents with the page, growing once to its size rather than doubling up to it. */
        void fill(BytesInput input) throws IOException {
            reset();
            int size = Math.toIntExact(input.size());
            if (buf.length < size) {
                buf = new byte[size];
            }
            input.writeAllTo(this);
        }

        void trim() {
            if (buf.length > KEPT_SCRATCH_BYTES) {
                buf = new byte[32];
                count = 0;
            }
        }
    }

    /** BytesInput.toByteArray is deprecated; writing it out is the supported way to get its bytes. */
    private static byte[] bytesOf(BytesInput input) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.toIntExact(input.size()));
        input.writeAllTo(out);
        return out.toByteArray();
    }

    private static byte[] gzip(byte[] raw) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(raw.length / 2 + 64);
        try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(raw);
        }
        return out.toByteArray();
    }

    private static byte[] gunzip(byte[] compressed, int uncompressedSize) throws IOException {
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
            return in.readNBytes(uncompressedSize);
        }
    }

    private static byte[] unsnappy(byte[] compressed, int uncompressedSize) throws IOException {
        byte[] out = new byte[uncompressedSize];
        int length = Snappy.uncompress(compressed, 0, compressed.length, out, 0);
        return length == uncompressedSize ? out : Arrays.copyOf(out, length);
    }

    private static byte[] lz4(byte[] raw) {
        Lz4Compressor compressor = new Lz4Compressor();
        byte[] out = new byte[compressor.maxCompressedLength(raw.length)];
        int length = compressor.compress(raw, 0, raw.length, out, 0, out.length);
        return Arrays.copyOf(out, length);
    }

    private static byte[] unlz4(byte[] compressed, int uncompressedSize) {
        byte[] out = new byte[uncompressedSize];
        int length = new Lz4Decompressor().decompress(compressed, 0, compressed.length, out, 0, out.length);
        return length == uncompressedSize ? out : Arrays.copyOf(out, length);
    }
}
