package dev.nifigeoparquet.archive.parquet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.apache.parquet.bytes.ByteBufferInputStream;
import org.apache.parquet.format.PageHeader;
import org.apache.parquet.format.Util;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The file stream parquet-java reads column chunks through. As soon as a whole chunk has been read (into buffers the
 * footer's checked sizes bounded), its page headers are checked, before parquet-java decodes a single page:
 * every page must lie inside its chunk, and no page may declare more uncompressed bytes than its whole chunk.
 *
 * <p>Without this, a page declaring more bytes than its chunk holds makes parquet-java allocate the difference and
 * read it from the file (a work-around for files early parquet-mr versions wrote), up to 2 GiB from one corrupt header;
 * and a page could declare any uncompressed size up to the decompression cap. Checking costs no extra read: the headers are parsed
 * from the bytes parquet-java has just read. Chunks are checked when they are read from their first byte to their
 * last, as parquet-java reads them when no row filter is set, which this engine never sets.
 */
final class PageHeaderGuard extends SeekableInputStream {

    private final SeekableInputStream in;
    private final NavigableMap<Long, List<Chunk>> chunksByStart = new TreeMap<>();
    private long longestChunk;

    /** Errors name the row group, column and byte; the reader adds the file. */
    PageHeaderGuard(SeekableInputStream in, ParquetMetadata metadata) {
        this.in = in;
        for (int i = 0; i < metadata.getBlocks().size(); i++) {
            BlockMetaData block = metadata.getBlocks().get(i);
            for (ColumnChunkMetaData column : block.getColumns()) {
                Chunk chunk = new Chunk(column, "row group " + i + ", column " + column.getPath());
                chunksByStart
                        .computeIfAbsent(chunk.start, start -> new ArrayList<>())
                        .add(chunk);
                longestChunk = Math.max(longestChunk, column.getTotalSize());
            }
        }
    }

    /** A column chunk's declared range and the bytes of it read so far, in order. */
    private static final class Chunk {
        final ColumnChunkMetaData metadata;
        final String where;
        final long start;
        final long end;
        List<ByteBuffer> read = new ArrayList<>();
        long next = -1;

        Chunk(ColumnChunkMetaData metadata, String where) {
            this.metadata = metadata;
            this.where = where;
            this.start = metadata.getStartingPos();
            this.end = start + metadata.getTotalSize();
        }

        void forget() {
            read.clear();
            next = -1;
        }
    }

    /** Bytes [position, position + bytes.remaining()) of the file were just read into {@code bytes}. */
    private void observe(long position, ByteBuffer bytes) throws IOException {
        long end = position + bytes.remaining();
        for (List<Chunk> chunks :
                chunksByStart.subMap(position - longestChunk, true, end, false).values()) {
            for (Chunk chunk : chunks) {
                long from = Math.max(position, chunk.start);
                long to = Math.min(end, chunk.end);
                if (from >= to) {
                    continue;
                }
                if (from == chunk.start) {
                    chunk.forget();
                } else if (from != chunk.next) {
                    chunk.forget(); // not read in one pass from its start: parquet-java reads whole chunks
                    continue;
                }
                ByteBuffer part = bytes.duplicate();
                part.position(bytes.position() + (int) (from - position));
                part.limit(part.position() + (int) (to - from));
                chunk.read.add(part.slice());
                chunk.next = to;
                if (to == chunk.end) {
                    try {
                        checkPages(chunk);
                    } finally {
                        chunk.forget();
                    }
                }
            }
        }
    }

    /** Walks the chunk's pages as parquet-java will: until the data pages hold the chunk's declared value count. */
    private void checkPages(Chunk chunk) throws IOException {
        ByteBufferInputStream pages = ByteBufferInputStream.wrap(chunk.read);
        long values = 0;
        while (values < chunk.metadata.getValueCount()) {
            long at = chunk.start + pages.position();
            PageHeader header;
            try {
                header = Util.readPageHeader(pages);
                values += valuesIn(header);
            } catch (IOException | RuntimeException e) {
                throw new IOException(
                        chunk.where + ": unreadable page header at byte " + at + " (truncated or corrupt): "
                                + e.getMessage(),
                        e);
            }
            long left = pages.available();
            if (header.getCompressed_page_size() < 0 || header.getCompressed_page_size() > left) {
                throw new IOException(chunk.where + ": the page at byte " + at + " declares "
                        + header.getCompressed_page_size() + " bytes, but its column chunk has " + left
                        + " left (ends at " + chunk.end + "); nothing was allocated from the declared size");
            }
            if (header.getUncompressed_page_size() < 0
                    || header.getUncompressed_page_size() > chunk.metadata.getTotalUncompressedSize()) {
                throw new IOException(chunk.where + ": the page at byte " + at + " declares "
                        + header.getUncompressed_page_size() + " uncompressed bytes, more than its whole column chunk ("
                        + chunk.metadata.getTotalUncompressedSize()
                        + "); nothing was allocated from the declared size");
            }
            pages.skipFully(header.getCompressed_page_size());
        }
    }

    private static long valuesIn(PageHeader header) {
        return switch (header.getType()) {
            case DATA_PAGE -> header.getData_page_header().getNum_values();
            case DATA_PAGE_V2 -> header.getData_page_header_v2().getNum_values();
            default -> 0;
        };
    }

    // ---- reads, observed

    @Override
    public void readFully(ByteBuffer buf) throws IOException {
        long position = in.getPos();
        int first = buf.position();
        in.readFully(buf);
        observe(position, buf.duplicate().limit(buf.position()).position(first));
    }

    @Override
    public int read(ByteBuffer buf) throws IOException {
        long position = in.getPos();
        int first = buf.position();
        int read = in.read(buf);
        if (read > 0) {
            observe(position, buf.duplicate().limit(buf.position()).position(first));
        }
        return read;
    }

    @Override
    public void readFully(byte[] bytes) throws IOException {
        readFully(bytes, 0, bytes.length);
    }

    @Override
    public void readFully(byte[] bytes, int start, int len) throws IOException {
        long position = in.getPos();
        in.readFully(bytes, start, len);
        observe(position, ByteBuffer.wrap(bytes, start, len));
    }

    @Override
    public int read(byte[] bytes, int off, int len) throws IOException {
        long position = in.getPos();
        int read = in.read(bytes, off, len);
        if (read > 0) {
            observe(position, ByteBuffer.wrap(bytes, off, read));
        }
        return read;
    }

    @Override
    public int read() throws IOException {
        return in.read();
    }

    // ---- the rest, delegated

    @Override
    public long getPos() throws IOException {
        return in.getPos();
    }

    @Override
    public void seek(long newPos) throws IOException {
        in.seek(newPos);
    }

    @Override
    public long skip(long n) throws IOException {
        return in.skip(n);
    }

    @Override
    public int available() throws IOException {
        return in.available();
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
