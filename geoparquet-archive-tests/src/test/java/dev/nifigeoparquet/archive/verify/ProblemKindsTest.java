package dev.nifigeoparquet.archive.verify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.compaction.Compactor;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each kind of problem the verifier reports, caused once on a consistent archive: the verifier reports exactly that
 * kind, so no check can go quiet without a test failing. Kinds other tests cause the same way are listed in
 * {@link #damages()} too, so this table is the one place that shows every kind found.
 */
class ProblemKindsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    Path root;
    GeoParquetArchive archive;
    /** The largest partition, with two files. */
    String cell;

    @FunctionalInterface
    interface Damage {
        void apply(ProblemKindsTest archive) throws Exception;
    }

    static Stream<Arguments> damages() {
        return Stream.of(
                Arguments.of(ProblemKind.CORRUPT_LOG, (Damage) t -> Files.writeString(t.latestEntry(), "{\"formatVe")),
                Arguments.of(ProblemKind.COUNTS_DO_NOT_RECONCILE, (Damage) t -> t.editLatestEntry(entry -> {
                    ObjectNode rows =
                            (ObjectNode) entry.path("operations").get(0).path("rows");
                    rows.put("inserted", rows.path("inserted").asLong() + 1);
                })),
                Arguments.of(ProblemKind.ROW_COUNT_MISMATCH, (Damage) t -> t.editLatestEntry(entry -> {
                    // A consistent entry that claims one row more in its file than the file holds.
                    ObjectNode file = (ObjectNode) entry.path("files").get(0);
                    file.put("rows", file.path("rows").asLong() + 1);
                    entry.put("rowCount", entry.path("rowCount").asLong() + 1);
                    ObjectNode rows =
                            (ObjectNode) entry.path("operations").get(0).path("rows");
                    rows.put("inserted", rows.path("inserted").asLong() + 1);
                })),
                Arguments.of(ProblemKind.SIZE_MISMATCH, (Damage) t -> t.editLatestEntry(entry -> {
                    // The file stays readable and whole; only the size its entry records differs.
                    ObjectNode file = (ObjectNode) entry.path("files").get(0);
                    file.put("bytes", file.path("bytes").asLong() + 1);
                })),
                Arguments.of(ProblemKind.MISSING_FILE, (Damage) t -> Files.delete(t.liveFile())),
                Arguments.of(ProblemKind.UNTRACKED_FILE, (Damage)
                        t -> Files.copy(t.liveFile(), t.liveFile().resolveSibling("stray.parquet"))),
                Arguments.of(ProblemKind.SUPERSEDED_FILE, (Damage) ProblemKindsTest::leaveACompactedFileBehind),
                Arguments.of(ProblemKind.SCHEMA_MISMATCH, (Damage) ProblemKindsTest::rewriteWithAnExtraColumn),
                Arguments.of(ProblemKind.UNKEYABLE_ROW, (Damage) t ->
                        t.rewriteLiveFile(rows -> rows.set(0, withGeometry(rows.get(0), new byte[] {1, 2, 3})))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("damages")
    void eachDamageIsReportedAsExactlyItsKind(ProblemKind kind, Damage damage) throws Exception {
        create();
        VerificationReport before = verify();
        assertTrue(before.consistent(), before.toString());

        damage.apply(this);

        VerificationReport after = verify();
        Set<ProblemKind> found = new TreeSet<>();
        after.problems().forEach(problem -> found.add(problem.kind()));
        assertEquals(Set.of(kind), found, after.problems().toString());
        assertTrue(!after.consistent(), after.toString());
    }

    @Test
    void rowsBeyondTheReportsCapAreSummarisedAsTheirOwnKind() throws Exception {
        create();
        rewriteLiveFile(rows -> rows.set(0, withGeometry(rows.get(0), new byte[] {1, 2, 3})));

        VerificationReport report = new ArchiveVerifier(GeoParquetArchive.open(new LocalArchiveStorage(root)))
                .verify(VerifyOptions.wholeArchive()
                        .checkingPlacement(VerifyOptions.Placement.ALL)
                        .reportingAtMostDuplicateKeys(0));

        assertEquals(1, report.problems().size(), report.problems().toString());
        Problem summary = report.problems().get(0);
        assertEquals(ProblemKind.UNKEYABLE_ROW, summary.kind(), summary.toString());
        assertTrue(summary.message().contains("1 more unkeyable rows not listed"), summary.message());
    }

    private VerificationReport verify() throws IOException {
        return new ArchiveVerifier(GeoParquetArchive.open(new LocalArchiveStorage(root)))
                .verify(VerifyOptions.wholeArchive().checkingPlacement(VerifyOptions.Placement.ALL));
    }

    /** Parcels in their cells, then a second file in the largest partition. */
    private void create() throws IOException {
        root = temp.resolve("archive");
        archive = ArchiveCreator.create(
                new LocalArchiveStorage(root),
                SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "problem kinds"),
                Clock.systemUTC());
        SyntheticParcels parcels = new SyntheticParcels(3, 1);
        Instant time = Instant.parse("2026-01-01T00:00:00Z");
        List<Group> generated = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            generated.add(parcels.next("p-" + i, time));
        }
        Map<String, List<Group>> byCell = ArchiveFixtures.rowsByCell(archive, generated);
        cell = byCell.entrySet().stream()
                .max((a, b) -> a.getValue().size() - b.getValue().size())
                .orElseThrow()
                .getKey();
        ArchiveWriter writer = new ArchiveWriter(archive);
        for (Map.Entry<String, List<Group>> rows : byCell.entrySet()) {
            writer.apply(PartitionDelta.prepare(
                    archive,
                    rows.getKey(),
                    WriteMode.APPEND,
                    rows.getValue().stream().map(DeltaRow::upsert).toList(),
                    null));
        }
        List<DeltaRow> more = new ArrayList<>();
        for (int i = 0; more.size() < 20 && i < 10_000; i++) {
            Group row = parcels.next("q-" + i, time);
            if (cell.equals(ArchiveFixtures.cellOf(archive, row))) {
                more.add(DeltaRow.upsert(row));
            }
        }
        writer.apply(PartitionDelta.prepare(archive, cell, WriteMode.APPEND, more, null));
    }

    private PartitionCommit state() throws IOException {
        return GeoParquetArchive.open(new LocalArchiveStorage(root)).partitionState(cell);
    }

    private Path latestEntry() throws IOException {
        return root.resolve(ArchiveLayout.logEntry(cell, state().version()));
    }

    private void editLatestEntry(java.util.function.Consumer<ObjectNode> edit) throws IOException {
        Path entry = latestEntry();
        ObjectNode json = (ObjectNode) JSON.readTree(entry.toFile());
        edit.accept(json);
        Files.write(entry, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json));
    }

    /** The first file of the partition's latest entry. */
    private Path liveFile() throws IOException {
        return root.resolve(ArchiveLayout.dataFile(cell, state().files().get(0).name()));
    }

    /** Rewrites the first live file with its rows changed, and records the new size in the entry. */
    private void rewriteLiveFile(java.util.function.Consumer<List<Group>> change) throws IOException {
        rewriteLiveFile(null, change);
    }

    private void rewriteLiveFile(MessageType schema, java.util.function.Consumer<List<Group>> change)
            throws IOException {
        Path file = liveFile();
        ParquetRows.Contents contents = ParquetRows.read(file);
        List<Group> rows = new ArrayList<>(contents.rows());
        change.accept(rows);
        Files.delete(file);
        ArchiveFixtures.writeFile(
                file, schema == null ? contents.footer().schema() : schema, archive.canonicalFooter(), rows);
        long bytes = Files.size(file);
        editLatestEntry(entry -> ((ObjectNode) entry.path("files").get(0)).put("bytes", bytes));
    }

    private static void rewriteWithAnExtraColumn(ProblemKindsTest t) throws IOException {
        MessageType schema = Types.buildMessage()
                .addFields(SyntheticParcels.schema().getFields().toArray(new org.apache.parquet.schema.Type[0]))
                .optional(PrimitiveTypeName.INT32)
                .named("extra")
                .named(SyntheticParcels.schema().getName());
        t.rewriteLiveFile(schema, rows -> rows.replaceAll(row -> copy(row, schema)));
    }

    /**
     * Compacts the partition, then puts the file the compaction superseded back in its place (the merged file takes the
     * first file's name, so the second is the one that goes).
     */
    private static void leaveACompactedFileBehind(ProblemKindsTest t) throws IOException {
        PartitionCommit before = t.state();
        Path superseded = t.root.resolve(
                ArchiveLayout.dataFile(t.cell, before.files().get(1).name()));
        byte[] content = Files.readAllBytes(superseded);
        new Compactor(GeoParquetArchive.open(new LocalArchiveStorage(t.root))).compact(t.cell);
        assertTrue(t.state().removed().contains(superseded.getFileName().toString()), "the compaction superseded it");
        Files.write(superseded, content);
    }

    /** A copy of {@code row} with other geometry bytes. */
    private static Group withGeometry(Group row, byte[] geometry) {
        Group copy = copy(row, row.getType(), SyntheticParcels.GEOMETRY);
        copy.add(SyntheticParcels.GEOMETRY, Binary.fromConstantByteArray(geometry));
        return copy;
    }

    private static Group copy(Group row, MessageType schema) {
        return copy(row, schema, null);
    }

    /** A copy of {@code row} in {@code schema}, which holds the row's fields first, without the field {@code left}. */
    private static Group copy(Group row, GroupType schema, String left) {
        Group copy = new SimpleGroup(schema);
        for (int field = 0; field < row.getType().getFieldCount(); field++) {
            if (row.getType().getFieldName(field).equals(left)) {
                continue;
            }
            for (int i = 0; i < row.getFieldRepetitionCount(field); i++) {
                switch (row.getType().getType(field).asPrimitiveType().getPrimitiveTypeName()) {
                    case INT64 -> copy.add(field, row.getLong(field, i));
                    case DOUBLE -> copy.add(field, row.getDouble(field, i));
                    default -> copy.add(field, row.getBinary(field, i));
                }
            }
        }
        return copy;
    }
}
