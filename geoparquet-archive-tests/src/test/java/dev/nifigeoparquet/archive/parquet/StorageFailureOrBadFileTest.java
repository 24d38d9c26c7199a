package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.CorruptDataException;
import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.OutputFile;
import org.apache.parquet.io.PositionOutputStream;
import org.apache.parquet.io.SeekableInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Parquet layer tells a failure of the storage beneath (reported as the storage raised it: the same work may succeed
 * later) from bytes or rows that are not Parquet ({@link ParquetFileException}: corrupt data), however parquet-java
 * wrapped the failure on its way up.
 */
class StorageFailureOrBadFileTest {

    private static final String NO_SPACE = "No space left on device";

    @TempDir
    Path dir;

    @Test
    void aFullDiskUnderTheWriterIsTheStoragesFailureNotTheFiles() throws IOException {
        for (long capacity : new long[] {2, 100, 5_000}) {
            Path file = dir.resolve("full-" + capacity + ".parquet");
            IOException failure = assertThrows(IOException.class, () -> {
                try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                        diskFull(new LocalOutputFile(file), capacity),
                        file.toString(),
                        SyntheticParcels.schema(),
                        SyntheticParcels.footer(),
                        WriterSettings.defaults().withRowGroupRowCountLimit(50))) {
                    for (Group row : parcels(200)) {
                        writer.write(row);
                    }
                    writer.finish();
                }
            });
            assertFalse(failure instanceof CorruptDataException, capacity + " bytes: " + failure);
            assertTrue(
                    String.valueOf(failure.getMessage()).contains(NO_SPACE),
                    capacity + " bytes: " + failure.getMessage());
        }
    }

    @Test
    void aReadFailureOfTheStorageIsReportedAsItCame() throws IOException {
        Path file = write(dir.resolve("parcels.parquet"), 200);
        IOException refused = new IOException("connection reset");
        try (GeoParquetFileReader reader =
                GeoParquetFileReader.open(failingBeforeFooter(file, refused), file.toString())) {
            assertSame(refused, assertThrows(IOException.class, reader::nextRowGroup), "the storage's own failure");
        }
        AccessDeniedException denied = new AccessDeniedException(file.toString());
        try (GeoParquetFileReader reader =
                GeoParquetFileReader.open(failingBeforeFooter(file, denied), file.toString())) {
            assertSame(denied, assertThrows(IOException.class, reader::nextColumnarRowGroup));
        }
    }

    @Test
    void bytesThatAreNotParquetAreTheFiles() throws IOException {
        Path file = write(dir.resolve("parcels.parquet"), 200);
        byte[] bytes = Files.readAllBytes(file);
        for (int i = 4; i < 64; i++) {
            bytes[i] = (byte) 0xAB; // the first column chunk's page header
        }
        Path damaged = Files.write(dir.resolve("damaged.parquet"), bytes);
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(damaged)) {
            ParquetFileException bad = assertThrows(ParquetFileException.class, () -> {
                while (reader.nextRowGroup() != null) {
                    // read every row group
                }
            });
            assertInstanceOf(CorruptDataException.class, bad);
            assertTrue(bad.getMessage().startsWith(damaged.toString()), bad.getMessage());
        }
        Path truncated = Files.write(dir.resolve("truncated.parquet"), Arrays.copyOf(bytes, bytes.length - 3));
        assertThrows(
                ParquetFileException.class,
                () -> GeoParquetFileReader.open(truncated).close());
    }

    private static List<Group> parcels(int count) {
        SyntheticParcels parcels = new SyntheticParcels(7, 3);
        List<Group> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(parcels.next("p-" + i, Instant.parse("2026-01-01T00:00:00Z")));
        }
        return rows;
    }

    private static Path write(Path file, int rows) throws IOException {
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                SyntheticParcels.schema(),
                SyntheticParcels.footer(),
                WriterSettings.defaults().withRowGroupRowCountLimit(50))) {
            for (Group row : parcels(rows)) {
                writer.write(row);
            }
            writer.finish();
        }
        return file;
    }

    /** An output file on a disk that holds {@code capacity} bytes, failing as Linux reports ENOSPC. */
    private static OutputFile diskFull(OutputFile file, long capacity) {
        return new OutputFile() {
            @Override
            public PositionOutputStream create(long blockSizeHint) throws IOException {
                PositionOutputStream out = file.create(blockSizeHint);
                return new PositionOutputStream() {
                    @Override
                    public long getPos() throws IOException {
                        return out.getPos();
                    }

                    @Override
                    public void write(int b) throws IOException {
                        write(new byte[] {(byte) b}, 0, 1);
                    }

                    @Override
                    public void write(byte[] bytes, int offset, int length) throws IOException {
                        if (out.getPos() + length > capacity) {
                            throw new IOException(NO_SPACE);
                        }
                        out.write(bytes, offset, length);
                    }

                    @Override
                    public void close() throws IOException {
                        out.close();
                    }
                };
            }

            @Override
            public PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
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
        };
    }

    /** The file, on a storage that serves its footer and then fails every read of its data with {@code failure}. */
    private static InputFile failingBeforeFooter(Path file, IOException failure) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        int footerLength = ByteBuffer.wrap(bytes, bytes.length - 8, 4)
                .order(ByteOrder.LITTLE_ENDIAN)
                .getInt();
        long footerStart = bytes.length - 8L - footerLength;
        LocalInputFile local = new LocalInputFile(file);
        return new InputFile() {
            @Override
            public long getLength() throws IOException {
                return local.getLength();
            }

            @Override
            public SeekableInputStream newStream() throws IOException {
                SeekableInputStream in = local.newStream();
                return new SeekableInputStream() {
                    private void check() throws IOException {
                        if (in.getPos() < footerStart) {
                            throw failure;
                        }
                    }

                    @Override
                    public long getPos() throws IOException {
                        return in.getPos();
                    }

                    @Override
                    public void seek(long newPos) throws IOException {
                        in.seek(newPos);
                    }

                    @Override
                    public void readFully(byte[] bytes) throws IOException {
                        check();
                        in.readFully(bytes);
                    }

                    @Override
                    public void readFully(byte[] bytes, int start, int len) throws IOException {
                        check();
                        in.readFully(bytes, start, len);
                    }

                    @Override
                    public int read(ByteBuffer buf) throws IOException {
                        check();
                        return in.read(buf);
                    }

                    @Override
                    public void readFully(ByteBuffer buf) throws IOException {
                        check();
                        in.readFully(buf);
                    }

                    @Override
                    public int read() throws IOException {
                        check();
                        return in.read();
                    }

                    @Override
                    public int read(byte[] b, int off, int len) throws IOException {
                        check();
                        return in.read(b, off, len);
                    }

                    @Override
                    public void close() throws IOException {
                        in.close();
                    }
                };
            }
        };
    }
}
