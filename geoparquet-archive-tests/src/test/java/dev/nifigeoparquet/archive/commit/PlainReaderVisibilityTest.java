package dev.nifigeoparquet.archive.commit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.ProtocolSettings;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plain reader (DuckDB globbing the Hive layout) polls while commits run: it never sees a staged file. */
class PlainReaderVisibilityTest {

    private static final String CELL = "8428309ffffffff";
    private static final int COMMITS = 25;

    @TempDir
    Path temp;

    @Test
    void duckDbGlobNeverSeesStagedFilesWhileAppendsCommit() throws Exception {
        ParquetRows.Contents template =
                ParquetRows.read(PeerData.file("geoparquet-1.1.0/data-point-encoding_wkb.parquet"));
        List<Group> rows = template.rows();
        LocalArchiveStorage storage = new LocalArchiveStorage(temp);
        PartitionCommitter committer = new PartitionCommitter(storage, ProtocolSettings.DEFAULT, Clock.systemUTC());

        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        // The reader releases a permit after each poll and the writer takes one before each commit: however slow either
        // is, the reader polls while the commits happen, not only before or after them.
        Semaphore polled = new Semaphore(0);
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 0; i < COMMITS; i++) {
                    polled.acquire();
                    committer.commit(CELL, "append-" + i, OperationType.APPEND, (current, stager) -> {
                        DataFileStager.StagedFile staged = stager.stage();
                        try (GeoParquetFileWriter out = GeoParquetFileWriter.create(
                                staged.output(),
                                staged.name(),
                                template.footer().schema(),
                                template.footer().canonicalEntries(),
                                WriterSettings.defaults())) {
                            for (Group row : rows) {
                                out.write(row);
                            }
                            out.finish();
                        }
                        return new PartitionChange(
                                List.of(new NewDataFile(
                                        staged.name(),
                                        rows.size(),
                                        staged.output().bytesWritten())),
                                List.of());
                    });
                }
            } catch (Throwable t) {
                writerFailure.set(t);
            } finally {
                done.set(true);
            }
        });

        String glob = temp + "/*/*.parquet";
        long previous = 0;
        int polls = 0;
        while (!done.get() || polls == 0) {
            List<List<Object>> files;
            try {
                files = DuckDb.query(
                        "SELECT filename, count(*) FROM read_parquet(?, filename = true, hive_partitioning = true) GROUP BY filename",
                        glob);
            } catch (RuntimeException noFilesYet) {
                assertTrue(String.valueOf(noFilesYet.getMessage()).contains("No files found"), noFilesYet.toString());
                polls++;
                polled.release();
                continue;
            }
            long total = 0;
            for (List<Object> file : files) {
                String name = (String) file.get(0);
                assertFalse(
                        name.contains(ArchiveLayout.METADATA_DIRECTORY) || name.endsWith(ArchiveLayout.STAGED_SUFFIX),
                        "plain reader saw " + name);
                assertEquals(
                        (long) rows.size(),
                        ((Number) file.get(1)).longValue(),
                        "every visible file is complete: " + name);
                total += ((Number) file.get(1)).longValue();
            }
            assertTrue(total >= previous, "appends never disappear: " + previous + " then " + total);
            previous = total;
            polls++;
            polled.release();
        }
        writer.join();
        assertNull(writerFailure.get());
        assertEquals(
                (long) COMMITS * rows.size(),
                ((Number) DuckDb.query("SELECT count(*) FROM read_parquet(?)", glob)
                                .get(0)
                                .get(0))
                        .longValue());
        assertTrue(polls > 1, "the reader polled while the writer ran");
        System.out.println("plain reader polls during " + COMMITS + " commits: " + polls);
    }
}
