package dev.nifigeoparquet.archive.storage;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link PositionOutputStream} over a plain stream: Parquet only appends and asks for the position, so
 * counting the bytes written is all it needs.
 */
public final class CountingPositionOutputStream extends PositionOutputStream {

    private final OutputStream out;
    private final boolean closeTarget;
    private long position;

    /**
     * @param closeTarget whether closing this stream closes {@code out}; when false it only flushes, leaving the
     *                    stream to its owner (a FlowFile's output stream, for example)
     */
    public CountingPositionOutputStream(OutputStream out, boolean closeTarget) {
        this.out = out;
        this.closeTarget = closeTarget;
    }

    @Override
    public long getPos() {
        return position;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        position++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
        position += length;
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Gives the written object up (see {@link AbandonableStream}); a stream of another kind is only closed. */
    public void abandon() throws IOException {
        if (out instanceof AbandonableStream abandonable) {
            abandonable.abandon();
        } else if (closeTarget) {
            out.close();
        }
    }

    @Override
    public void close() throws IOException {
        if (closeTarget) {
            out.close();
        } else {
            out.flush();
        }
    }
}
