package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.cli.GeoParquetArchiveCli;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command-line tool and the NiFi processors give one delta the same operation ids, so a night applied by one and
 * then delivered again through the other changes nothing: not a row, not a byte of the archive.
 */
class OneOperationIdTest {

    @TempDir
    Path dir;

    private Path root;
    private ParcelArchives parcels;
    private ChainFixtures.Delta delta;
    private Path night;
    private long before;

    @BeforeEach
    void createAnArchiveAndANight() throws Exception {
        root = dir.resolve("archive");
        parcels = ParcelArchives.create(root, 200);
        delta = ChainFixtures.delta(parcels);
        night = ChainFixtures.geoParquetDelta(dir.resolve("night.parquet"), delta);
        before = parcels.duckDbCount();
    }

    @Test
    void aNightAppliedByTheCommandLineIsAReplayInNiFi() throws Exception {
        String out = applyWithTheCommandLine(root, night);
        assertEquals(before + delta.net(), parcels.duckDbCount(), out);
        Map<String, String> applied = ParcelArchives.hashes(root);

        List<MockFlowFile> upserted = applyWithNiFi(root, night);
        assertEquals(delta.cells().size(), upserted.size());
        assertEveryCellAReplay(upserted);
        assertEquals(applied, ParcelArchives.hashes(root));
    }

    @Test
    void aNightAppliedByNiFiIsAReplayForTheCommandLine() throws Exception {
        List<MockFlowFile> upserted = applyWithNiFi(root, night);
        assertTrue(upserted.stream().noneMatch(f -> "true".equals(f.getAttribute(GeoParquetAttributes.REPLAY))));
        assertEquals(before + delta.net(), parcels.duckDbCount());
        Map<String, String> applied = ParcelArchives.hashes(root);

        String out = applyWithTheCommandLine(root, night);
        assertTrue(
                out.contains("already applied:    " + delta.cells().size() + " partitions"),
                "every partition a replay:\n" + out);
        assertEquals(applied, ParcelArchives.hashes(root));
    }

    /** A night that edits one parcel twice in one cell: the later row wins, and both paths hash both rows. */
    @Test
    void aNightWithAKeyTwiceInOneCellIsAReplayForTheOtherPath() throws Exception {
        Group edited = delta.upserts().get(0);
        List<Group> upserts = new ArrayList<>(delta.upserts());
        upserts.add(
                ChainFixtures.copy(edited, ChainFixtures.key(edited), 4321.5, Instant.parse("2026-12-02T00:00:00Z")));
        ChainFixtures.Delta twice = new ChainFixtures.Delta(upserts, delta.deletions(), delta.cells(), delta.net());
        Path repeated = ChainFixtures.geoParquetDelta(dir.resolve("repeated.parquet"), twice);

        String out = applyWithTheCommandLine(root, repeated);
        assertEquals(before + delta.net(), parcels.duckDbCount(), out);
        assertEquals(4321.5, parcels.duckDbAreas().get(ChainFixtures.key(edited)), 0.0, "the later row wins");
        Map<String, String> applied = ParcelArchives.hashes(root);

        assertEveryCellAReplay(applyWithNiFi(root, repeated));
        assertEquals(applied, ParcelArchives.hashes(root));
    }

    private static void assertEveryCellAReplay(List<MockFlowFile> upserted) {
        for (MockFlowFile flowFile : upserted) {
            assertEquals(
                    "true",
                    flowFile.getAttribute(GeoParquetAttributes.REPLAY),
                    () -> "cell " + flowFile.getAttribute("h3.cell") + " applied again as "
                            + flowFile.getAttribute(GeoParquetAttributes.OPERATION_ID));
        }
    }

    private static String applyWithTheCommandLine(Path root, Path night) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = {
            "apply",
            "--archive",
            root.toString(),
            "--mode",
            "upsert",
            "--delete-field",
            ChainFixtures.DELETE_MARKER,
            "--delta",
            night.toString(),
            "-q"
        };
        int code = GeoParquetArchiveCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        assertEquals(0, code, () -> "stdout:\n" + out + "\nstderr:\n" + err);
        return out.toString();
    }

    private static List<MockFlowFile> applyWithNiFi(Path root, Path night) throws Exception {
        List<MockFlowFile> routed = ChainFixtures.routeGeoParquet(root, night);
        TestRunner upsert = ChainFixtures.upsert(root, GeoParquetReader::new);
        ChainFixtures.pass(routed, upsert);
        upsert.run();
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS, routed.size());
        return upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS);
    }
}
