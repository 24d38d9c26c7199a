package dev.nifigeoparquet.processors.geoparquet;

import java.io.OutputStream;
import dev.nifigeoparquet.archive.storage.CountingPositionOutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over a FlowFile's output stream. Closing the Parquet stream flushes but leaves the
 * FlowFile's stream to its owner.
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
        return new CountingPositionOutputStream(out, false);
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
