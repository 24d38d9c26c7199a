package dev.nifigeoparquet.archive.parquet;

import dev.nifigeoparquet.archive.error.ParquetFileException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;

/**
 * The streams the Parquet reader and writer work through, each remembering the first failure of the storage beneath.
 * parquet-java reports a failing stream and bytes it cannot decode alike (an {@link IOException}, or a runtime exception
 * wrapping one), so this is where the two are told apart: a failure the storage raised is the storage's, reported as it
 * came; any other is the file's ({@link ParquetFileException}).
 */
final class StorageStreams {

    private StorageStreams() {}

    /** Remembers the first failure; every method of the streams below reports through it. */
    private static final class Recorder {
        private volatile IOException first;

        <E extends IOException> E record(E failure) {
            if (first == null) {
                first = failure;
            }
            return failure;
        }
    }

    /** A file stream that remembers the first failure of the storage it reads. */
    static final class Input extends SeekableInputStream {
        private final SeekableInputStream in;
        private final Recorder recorder = new Recorder();

        Input(SeekableInputStream in) {
            this.in = in;
        }

        /** The first failure of the storage, or null. */
        IOException storageFailure() {
            return recorder.first;
        }

        @Override
        public long getPos() throws IOException {
            try {
                return in.getPos();
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public void seek(long newPos) throws IOException {
            try {
                in.seek(newPos);
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public void readFully(byte[] bytes) throws IOException {
            readFully(bytes, 0, bytes.length);
        }

        @Override
        public void readFully(byte[] bytes, int start, int len) throws IOException {
            try {
                in.readFully(bytes, start, len);
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public int read(ByteBuffer buf) throws IOException {
            try {
                return in.read(buf);
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public void readFully(ByteBuffer buf) throws IOException {
            try {
                in.readFully(buf);
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public int read() throws IOException {
            try {
                return in.read();
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public int read(byte[] bytes, int off, int len) throws IOException {
            try {
                return in.read(bytes, off, len);
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public long skip(long n) throws IOException {
            try {
                return in.skip(n);
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public int available() throws IOException {
            try {
                return in.available();
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** An output file whose stream remembers the first failure of the storage it writes to. */
    static final class Output implements OutputFile {
        private final OutputFile file;
        private final Recorder recorder = new Recorder();

        Output(OutputFile file) {
            this.file = file;
        }

        /** The first failure of the storage, or null. */
        IOException storageFailure() {
            return recorder.first;
        }

        @Override
        public PositionOutputStream create(long blockSizeHint) throws IOException {
            try {
                return new Stream(file.create(blockSizeHint));
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
            try {
                return new Stream(file.createOrOverwrite(blockSizeHint));
            } catch (IOException e) {
                throw recorder.record(e);
            }
        }

        @Override
        public boolean supportsBlockSize() {
            return file.supportsBlockSize();
        }

        @Override
        public long defaultBlockSize() {
            return file.defaultBlockSize();
        }

        @Override
        public String getPath() {
            return file.getPath();
        }

        private final class Stream extends PositionOutputStream {
            private final PositionOutputStream out;

            Stream(PositionOutputStream out) {
                this.out = out;
            }

            @Override
            public long getPos() throws IOException {
                try {
                    return out.getPos();
                } catch (IOException e) {
                    throw recorder.record(e);
                }
            }

            @Override
            public void write(int b) throws IOException {
                try {
                    out.write(b);
                } catch (IOException e) {
                    throw recorder.record(e);
                }
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                try {
                    out.write(bytes, offset, length);
                } catch (IOException e) {
                    throw recorder.record(e);
                }
            }

            @Override
            public void flush() throws IOException {
                try {
                    out.flush();
                } catch (IOException e) {
                    throw recorder.record(e);
                }
            }

            @Override
            public void close() throws IOException {
                try {
                    out.close();
                } catch (IOException e) {
                    throw recorder.record(e);
                }
            }
        }
    }
}
