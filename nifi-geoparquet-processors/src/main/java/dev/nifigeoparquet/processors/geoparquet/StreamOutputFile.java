package dev.nifigeoparquet.processors.geoparquet;

import dev.nifigeoparquet.archive.storage.CountingPositionOutputStream;
import java.io.OutputStream;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;

/**
 * A Parquet {@link OutputFile} over a FlowFile's output stream. Closing the Parquet stream flushes but leaves the
 * FlowFile's stream to its owner.
 */
final class StreamOutputFile implements OutputFile {

    private final OutputStream out;
    private final String name;

    StreamOutputFile(OutputStream out, String name) {
        this.out = out;
        this.name = name;
    }

    @Override
    public PositionOutputStream create(long blockSizeHint) {
        return new CountingPositionOutputStream(out, false);
    }

    @Override
    public PositionOutputStream createOrOverwrite(long blockSizeHint) {
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
