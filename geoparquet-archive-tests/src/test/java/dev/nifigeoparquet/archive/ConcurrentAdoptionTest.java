package dev.nifigeoparquet.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.adoption.AdoptionOptions;
import dev.nifigeoparquet.archive.adoption.ArchiveAdopter;
import dev.nifigeoparquet.archive.error.LeaseUnavailableException;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.io.TempDir;

/**
 * Processes adopting one directory at once, as the nodes of a cluster do when they all enable the archive service on
 * a dataset with Missing Archive Strategy "Adopt": one adopts it, the others are told another process is adopting (or
 * find it adopted), and no file is lost: every row is read back once and the archive verifies.
 */
class ConcurrentAdoptionTest {

    private static final int ADOPTERS = 4;

    @TempDir
    Path temp;

    @RepeatedTest(3)
    void fourProcessesAdoptingOneDirectoryAtOnceAdoptItOnceAndLoseNoFile() throws Exception {
        Path root = temp.resolve("geopandas");
        Map<String, List<Group>> byCell = ArchiveFixtures.writeGeoPandasStyleArchive(root, 0);
        long rows = byCell.values().stream().mapToLong(List::size).sum();
        Map<String, String> filesBefore = dataFiles(root);

        CyclicBarrier start = new CyclicBarrier(ADOPTERS);
        ExecutorService pool = Executors.newFixedThreadPool(ADOPTERS);
        List<Future<?>> adopting = new ArrayList<>();
        try {
            for (int i = 0; i < ADOPTERS; i++) {
                // Each through its own alias of the directory: the processes share nothing but the storage.
                Path alias = Files.createSymbolicLink(temp.resolve("node-" + i), root);
                adopting.add(pool.submit(() -> {
                    start.await();
                    return ArchiveAdopter.adopt(
                            new LocalArchiveStorage(alias), AdoptionOptions.withKey("name"), Clock.systemUTC());
                }));
            }
            int adopted = 0;
            List<String> refused = new ArrayList<>();
            for (Future<?> adoption : adopting) {
                try {
                    adoption.get();
                    adopted++;
                } catch (ExecutionException e) {
                    assertTrue(
                            e.getCause() instanceof LeaseUnavailableException
                                    || e.getCause() instanceof FileAlreadyExistsException,
                            "another process adopts, or adopted: " + e.getCause());
                    refused.add(e.getCause().getClass().getSimpleName());
                }
            }
            assertEquals(1, adopted, "one adoption; the others: " + refused);
        } finally {
            pool.shutdownNow();
        }

        assertEquals(filesBefore, dataFiles(root), "every data file is where it was, untouched");
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        VerificationReport report =
                new ArchiveVerifier(archive).verify(VerifyOptions.wholeArchive().expectingRows(rows));
        assertTrue(report.consistent(), report.problems().toString());
        assertEquals(
                rows,
                ((Number) DuckDb.query("SELECT count(*) FROM read_parquet(?)", root + "/*/*.parquet")
                                .get(0)
                                .get(0))
                        .longValue());
    }

    /** Every data file under the root, with its size. */
    private static Map<String, String> dataFiles(Path root) throws Exception {
        Map<String, String> files = new TreeMap<>();
        try (var paths = Files.walk(root)) {
            for (Path file :
                    (Iterable<Path>) paths.filter(path -> path.toString().endsWith(".parquet"))::iterator) {
                files.put(root.relativize(file).toString(), String.valueOf(Files.size(file)));
            }
        }
        return files;
    }
}
