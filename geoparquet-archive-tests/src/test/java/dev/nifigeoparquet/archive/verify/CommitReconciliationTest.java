package dev.nifigeoparquet.archive.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reconciliation of an operation from the commit records (format section 9): an operation appends to one partition and
 * three more commits follow it there. A count that does not add up is found, in the operation's own entry and in the
 * chain of entries since, also once the operation's entry has been pruned.
 */
class CommitReconciliationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    private Path root;
    private String cell;
    private CommittedOperation operation;

    @BeforeEach
    void fourAppendsToOnePartition() throws IOException {
        root = temp.resolve("archive");
        GeoParquetArchive archive = ArchiveCreator.create(
                new LocalArchiveStorage(root),
                SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "reconciliation"),
                Clock.systemUTC());
        SyntheticParcels parcels = new SyntheticParcels(7, 1);
        Instant time = Instant.parse("2026-01-01T00:00:00Z");
        ArchiveWriter writer = new ArchiveWriter(archive);
        List<Group> first = new ArrayList<>();
        first.add(parcels.next("p-0", time));
        cell = ArchiveFixtures.cellOf(archive, first.get(0));
        List<List<DeltaRow>> appends = new ArrayList<>();
        for (int i = 1; appends.size() < 4 && i < 100_000; i++) {
            Group row = parcels.next("p-" + i, time);
            if (cell.equals(ArchiveFixtures.cellOf(archive, row))) {
                appends.add(List.of(DeltaRow.upsert(row)));
            }
        }
        assertEquals(4, appends.size(), "four rows of one cell");
        OperationResult result =
                writer.apply(PartitionDelta.prepare(archive, cell, WriteMode.APPEND, appends.get(0), null));
        PartitionCommit entry = archive.partitionState(cell);
        operation = new CommittedOperation(entry.operationId(), Map.of(cell, entry.version()), result.netRows());
        for (List<DeltaRow> rows : appends.subList(1, 4)) {
            writer.apply(PartitionDelta.prepare(archive, cell, WriteMode.APPEND, rows, null));
        }
    }

    @Test
    void anOperationWhoseCountsAddUpIsReconciled() throws IOException {
        VerificationReport report = verify(operation);
        assertTrue(report.consistent(), report.toString());
    }

    @Test
    void anOperationReportingAnotherNetChangeIsFound() throws IOException {
        VerificationReport report =
                verify(new CommittedOperation(operation.operationId(), operation.commits(), operation.netRows() + 1));
        assertEquals(1, report.problemsOf(ProblemKind.COUNTS_DO_NOT_RECONCILE).size(), report.toString());
    }

    @Test
    void aCountBrokenInTheChainSinceIsFound() throws IOException {
        long version = operation.commits().get(cell);
        String broken = tamperRowsBefore(version + 2);
        VerificationReport report = verify(operation);
        assertTrue(
                report.problemsOf(ProblemKind.COUNTS_DO_NOT_RECONCILE).stream()
                        .anyMatch(problem -> problem.file().equals(broken)),
                report.toString());
    }

    @Test
    void aCountBrokenInTheChainIsFoundAfterTheOperationsEntryWasPruned() throws IOException {
        long version = operation.commits().get(cell);
        Files.delete(root.resolve(ArchiveLayout.logEntry(cell, version)));
        String broken = tamperRowsBefore(version + 2);
        VerificationReport report = verify(operation);
        assertTrue(
                report.problemsOf(ProblemKind.COUNTS_DO_NOT_RECONCILE).stream()
                        .anyMatch(problem -> problem.file().equals(broken)),
                "the chain is checked from the oldest entry kept: " + report);
    }

    private VerificationReport verify(CommittedOperation committed) throws IOException {
        return new ArchiveVerifier(GeoParquetArchive.open(new LocalArchiveStorage(root)))
                .verify(VerifyOptions.wholeArchive().reconciling(List.of(committed)));
    }

    /** Makes a commit entry between the operation's and the latest start from one row more than it did. */
    private String tamperRowsBefore(long version) throws IOException {
        String path = ArchiveLayout.logEntry(cell, version);
        Path entry = root.resolve(path);
        ObjectNode json = (ObjectNode) JSON.readTree(entry.toFile());
        json.put("rowsBefore", json.path("rowsBefore").asLong() + 1);
        Files.write(entry, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json));
        return path;
    }
}
