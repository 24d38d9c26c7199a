package dev.nifigeoparquet.archive.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionChange;
import dev.nifigeoparquet.archive.commit.RollingFileWriter;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys are unique across the archive, whatever the scope of a verification (format section 9): a verification of one
 * partition finds its key stored in another partition too, which the key index names, without verifying that one.
 */
class DuplicateOutsideScopeTest {

    @TempDir
    Path temp;

    @Test
    void aVerifiedPartitionsKeyAlsoStoredInAnotherPartitionIsFound() throws IOException {
        Path root = temp.resolve("archive");
        GeoParquetArchive archive = ArchiveCreator.create(
                new LocalArchiveStorage(root),
                SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "duplicates"),
                Clock.systemUTC());
        SyntheticParcels parcels = new SyntheticParcels(11, 2);
        Instant time = Instant.parse("2026-01-01T00:00:00Z");
        List<Group> generated = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            generated.add(parcels.next("p-" + i, time));
        }
        Map<String, List<Group>> byCell = ArchiveFixtures.rowsByCell(archive, generated);
        assertTrue(byCell.size() >= 2, "two cells at least: " + byCell.keySet());
        ArchiveWriter writer = new ArchiveWriter(archive);
        for (Map.Entry<String, List<Group>> cell : byCell.entrySet()) {
            List<DeltaRow> rows = cell.getValue().stream().map(DeltaRow::upsert).toList();
            writer.apply(PartitionDelta.prepare(archive, cell.getKey(), WriteMode.APPEND, rows, null));
        }
        List<String> cells = List.copyOf(byCell.keySet());
        String verified = cells.get(0);
        String other = cells.get(1);
        VerifyOptions justOne = new VerifyOptions(List.of(verified), java.util.OptionalLong.empty(), 10);
        assertTrue(verify(root, justOne).consistent(), "no false alarm before the damage");

        // A row of the verified partition written into the other one as well, and indexed there: what a lost
        // move-out would leave.
        Group stray = byCell.get(verified).get(0);
        FeatureKey key = archive.keyExtractor().keyOf(stray);
        archive.committer().commit(other, "stray-copy", OperationType.APPEND, (current, stager) -> {
            try (RollingFileWriter out = new RollingFileWriter(
                    stager,
                    archive.schema(),
                    archive.canonicalFooter(),
                    archive.descriptor().writer())) {
                out.write(stray);
                return new PartitionChange(out.finish(), List.of());
            }
        });
        new KeyIndex(archive).record(Map.of(key, other), Map.of());

        VerificationReport report = verify(root, justOne);
        List<Problem> duplicates = report.problemsOf(ProblemKind.DUPLICATE_KEY);
        assertEquals(1, duplicates.size(), report.problems().toString());
        assertTrue(
                duplicates.get(0).file().startsWith(ArchiveLayout.partitionDirectory(other) + "/"),
                duplicates.toString());
        assertTrue(
                duplicates.get(0).message().contains(key.toString()),
                duplicates.get(0).message());
        assertEquals(1, report.partitions(), "only the partition asked for was verified");
    }

    private static VerificationReport verify(Path root, VerifyOptions options) throws IOException {
        return new ArchiveVerifier(GeoParquetArchive.open(new LocalArchiveStorage(root))).verify(options);
    }
}
