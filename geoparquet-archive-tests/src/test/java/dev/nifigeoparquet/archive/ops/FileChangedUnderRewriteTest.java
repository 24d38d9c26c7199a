package dev.nifigeoparquet.archive.ops;

import static dev.nifigeoparquet.archive.ops.ParcelArchive.BASE_TIME;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.edited;
import static dev.nifigeoparquet.archive.ops.ParcelArchive.key;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.CorruptDataException;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.ForwardingStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.InputFile;
import org.apache.parquet.io.LocalInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file a run planned on that no longer holds a key when the run rewrites it. Another writer can replace a file in
 * place with content of exactly the size its entry records (one row swapped for a row of the same layout): the size
 * check passes and only the missing key shows it. That is a conflict to plan again, not a failure of the run; without
 * a newer commit it is damage. The rewrite here is served the planned file with one key's bytes overwritten, which is
 * what it meets in that race.
 */
class FileChangedUnderRewriteTest {

    @TempDir
    Path temp;

    @Test
    void aKeyGoneBecauseAnotherWriterCommittedIsPlannedAgain() throws Exception {
        ParcelArchive parcels = ParcelArchive.create(temp.resolve("archive"), 400, uncompressed());
        String cell = parcels.largestCell();
        List<Group> rows = parcels.initial.get(cell);
        Group planned = rows.get(rows.size() / 2);
        Group concurrent = rows.get(rows.size() / 3);
        Map<String, Double> expected = new TreeMap<>(parcels.readAreas());
        expected.put(key(planned), 111.0);
        expected.put(key(concurrent), 222.0);

        SwapOnRewrite storage = new SwapOnRewrite(new LocalArchiveStorage(parcels.root), cell, key(planned), () -> {
            // The other writer commits first, on its own instance of the archive.
            ParcelArchive.apply(
                    parcels.archive,
                    cell,
                    WriteMode.UPSERT,
                    List.of(DeltaRow.upsert(edited(concurrent, 222.0, BASE_TIME.plusSeconds(60)))));
        });
        GeoParquetArchive writer = GeoParquetArchive.open(storage);
        OperationResult result = ParcelArchive.apply(
                writer,
                cell,
                WriteMode.UPSERT,
                List.of(DeltaRow.upsert(edited(planned, 111.0, BASE_TIME.plusSeconds(60)))));

        assertTrue(storage.swapped, "the rewrite read the swapped file");
        assertEquals(1, result.rows().updated());
        assertEquals(expected, parcels.readAreas(), "both writers' rows are in the archive, every other row as it was");
    }

    @Test
    void aKeyGoneWithoutANewerCommitIsDamageAndChangesNothing() throws Exception {
        ParcelArchive parcels = ParcelArchive.create(temp.resolve("archive"), 400, uncompressed());
        String cell = parcels.largestCell();
        List<Group> rows = parcels.initial.get(cell);
        Group planned = rows.get(rows.size() / 2);
        PartitionCommit before = parcels.archive.partitionState(cell);
        Map<String, Double> areas = parcels.readAreas();

        SwapOnRewrite storage = new SwapOnRewrite(new LocalArchiveStorage(parcels.root), cell, key(planned), () -> {});
        GeoParquetArchive writer = GeoParquetArchive.open(storage);
        CorruptDataException damage = assertThrows(
                CorruptDataException.class,
                () -> ParcelArchive.apply(
                        writer,
                        cell,
                        WriteMode.UPSERT,
                        List.of(DeltaRow.upsert(edited(planned, 111.0, BASE_TIME.plusSeconds(60))))));

        assertTrue(damage.getMessage().contains("Partition " + cell), damage.getMessage());
        assertTrue(damage.getMessage().contains("changed outside the archive"), damage.getMessage());
        assertEquals(before.version(), parcels.archive.partitionState(cell).version(), "nothing committed");
        assertEquals(areas, parcels.readAreas());
    }

    private static WriterSettings uncompressed() {
        // Plain bytes on disk, so one key can be overwritten in place without changing the file's size.
        return WriterSettings.defaults().withCodec(CompressionCodecName.UNCOMPRESSED);
    }

    /**
     * Serves the first read the rewriter makes of the partition's data file from a copy of the file taken at that moment,
     * after running {@code meanwhile}, with one key's bytes overwritten by a key no row has: the same size, one key fewer.
     */
    private static final class SwapOnRewrite extends ForwardingStorage {
        private final String cell;
        private final byte[] key;
        private final IoAction meanwhile;
        volatile boolean swapped;

        SwapOnRewrite(ArchiveStorage delegate, String cell, String key, IoAction meanwhile) {
            super(delegate);
            this.cell = cell;
            this.key = key.getBytes(StandardCharsets.UTF_8);
            this.meanwhile = meanwhile;
        }

        @Override
        public synchronized InputFile openInputFile(String path) throws IOException {
            if (swapped || !path.startsWith(ArchiveLayout.PARTITION_PREFIX + cell + "/") || !calledByTheRewriter()) {
                return delegate.openInputFile(path);
            }
            swapped = true;
            byte[] planned = delegate.readAllBytes(path);
            meanwhile.run();
            Path copy = Files.createTempFile("swapped", ".parquet");
            copy.toFile().deleteOnExit();
            Files.write(copy, withKeyOverwritten(planned));
            return new LocalInputFile(copy);
        }

        private static boolean calledByTheRewriter() {
            return StackWalker.getInstance()
                    .walk(frames ->
                            frames.anyMatch(frame -> frame.getClassName().equals(PartitionRewriter.class.getName())));
        }

        /** The plain-encoded value (its 4-byte length, then its bytes) with its first byte changed. */
        private byte[] withKeyOverwritten(byte[] file) {
            byte[] value = ByteBuffer.allocate(4 + key.length)
                    .order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(key.length)
                    .put(key)
                    .array();
            int at = indexOf(file, value);
            if (at < 0 || indexOf(file, value, at + 1) >= 0) {
                throw new IllegalStateException("the key is not stored plainly exactly once");
            }
            byte[] changed = file.clone();
            changed[at + 4] = (byte) '#';
            return changed;
        }

        private static int indexOf(byte[] file, byte[] value) {
            return indexOf(file, value, 0);
        }

        private static int indexOf(byte[] file, byte[] value, int from) {
            outer:
            for (int i = from; i <= file.length - value.length; i++) {
                for (int j = 0; j < value.length; j++) {
                    if (file[i + j] != value[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }
    }

    @FunctionalInterface
    private interface IoAction {
        void run() throws IOException;
    }
}
