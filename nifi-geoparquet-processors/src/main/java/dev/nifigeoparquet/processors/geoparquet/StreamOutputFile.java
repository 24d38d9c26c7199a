package dev.nifigeoparquet.processors.geoparquet;

import java.io.IOException;
import java.io.OutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over a FlowFile's output stream. Parquet only appends and asks for the position,
 * so a counting stream suffices. Closing it flushes but leaves the FlowFile's stream to its owner.
 */
final class StreamOutputFile implements OutputFile {

    private final OutputStream out;
    private final String name;

    StreamOutputFile(final OutputStream out, final String name) {
        this.out = out;
        this.name = name;
    }

    @Override
    public PositionOutputStream create(final long blockSizeHint) {
        return new PositionOutputStream() {
            private long position;

            @Override
            public long getPos() {
                return position;
            }

            @Override
            public void write(final int b) throws IOException {
                out.write(b);
                position++;
            }

            @Override
            public void write(final byte[] bytes, final int offset, final int length) throws IOException {
                out.write(bytes, offset, length);
                position += length;
            }

            @Override
            public void flush() throws IOException {
                out.flush();
            }

            @Override
            public void close() throws IOException {
                out.flush();
            }
        };
    }

    @Override
    public PositionOutputStream createOrOverwrite(final long blockSizeHint) {
        return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    @Override
    public String getPath() {
        return name;
    }
}
