package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code templates/incremental-upsert.json} in NiFi, on a GeoPandas-style dataset the archive service adopts when it is
 * enabled: a nightly delta of edits, new parcels, deletions and parcels moving between cells; a delta with a record
 * that cannot be keyed; a corrupt file; a night of 12,000 new parcels whose cells' FlowFiles span several pages.
 * Every delta is dropped as a file into the flow's input directory, where the flow's own ListFile and FetchFile pick
 * it up; what fails is read from the files the flow's PutFile wrote into the
 * quarantine directory, with their attributes from provenance.
 */
@ExtendWith(NiFiExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IncrementalUpsertFlowIT {

    static final String ROUTE = "Route delta by H3 cell";
    static final String UPSERT = "Upsert cell into archive";
    static final String COMPACT = "Compact touched partitions";
    static final String VERIFY = "Verify touched partitions";
    static final String QUARANTINE = "Quarantine";
    static final String REPORTS = "Write reports";
    static final List<String> OURS = List.of(ROUTE, UPSERT, COMPACT, VERIFY);
    /** The processors a delta passes through after FetchFile, the quarantine and the reports included. */
    static final String[] DOWNSTREAM = {FileIntake.FETCH, ROUTE, UPSERT, COMPACT, VERIFY, QUARANTINE, REPORTS};
    /** Every processor of the flow, NiFi's standard ones included: none raises an error on a good path. */
    static final List<String> ALL =
            List.of(FileIntake.LIST, FileIntake.FETCH, ROUTE, UPSERT, COMPACT, VERIFY, QUARANTINE, REPORTS);

    static final String NIGHTLY = "nightly-1.parquet";
    static final String CROSS = "keys-cross-cells.parquet";
    static final String LARGE = "large-night.parquet";
    /** Enough rows that a cell's geometry fills several 64 KB pages. */
    static final int LARGE_NIGHT = 12_000;

    Path dir;
    RunningNiFi nifi;
    Parcels parcels;
    Path archive;
    FlowGroup flow;
    FileIntake intake;
    Path quarantine;
    Path reports;
    String valid;
    long expectedRows;
    /** Each delta sent so far by file name, with the change of row count it makes. */
    final Map<String, Long> netRows = new LinkedHashMap<>();
    /** Each key the deltas so far changed, with the cell it must now be stored in (null: deleted). */
    final Map<String, String> applied = new HashMap<>();

    @BeforeAll
    void importAndStart(RunningNiFi nifi, @TempDir Path dir) throws Exception {
        this.nifi = nifi;
        this.dir = dir;
        archive = dir.resolve("parcels");
        parcels = Parcels.writeDataset(archive, 1500, 1, 11);
        expectedRows = parcels.rows();

        intake = FileIntake.under(dir);
        quarantine = dir.resolve("quarantine");
        reports = dir.resolve("reports");

        flow = FlowGroup.upload(
                nifi.api(), NiFiRuntimeIT.flowDefinition("incremental-upsert.json"), "incremental upsert");
        Map<String, String> parameters = new HashMap<>(intake.parameters());
        parameters.put("archive.root", archive.toString());
        parameters.put("archive.allowed.roots", dir.toString());
        parameters.put("archive.key.columns", SyntheticParcels.KEY);
        parameters.put("h3.resolution", String.valueOf(Parcels.RESOLUTION));
        parameters.put("delta.geometry.field", SyntheticParcels.GEOMETRY);
        parameters.put("delta.delete.marker", NightlyDelta.DELETE_MARKER);
        parameters.put("quarantine.directory", quarantine.toString());
        parameters.put("reports.directory", reports.toString());
        flow.setParameters(parameters);
        intake.prepare(flow);
        FileIntake.requireValid(flow, QUARANTINE);
        FileIntake.requireValid(flow, REPORTS);
        flow.setAutoTerminated(VERIFY, List.of());
        valid = flow.observe(VERIFY, "valid");

        flow.verifyServices();
        flow.enableServices();
        flow.start(ALL.toArray(String[]::new));
        flow.startPorts();
    }

    @AfterAll
    void stop() throws Exception {
        if (flow != null) {
            flow.stopAll();
        }
    }

    @Test
    @Order(1)
    void aNightlyDeltaIsAppliedAndEveryTouchedPartitionVerified() throws Exception {
        NightlyDelta.Delta delta = parcels.nightlyDelta(240, Instant.parse("2026-02-01T00:00:00Z"));
        assertTrue(
                delta.moves() > 0 && delta.deletes() > 0 && delta.inserts() > 0 && delta.updates() > 0,
                "the delta has every kind of change");
        Map<String, String> expected = new HashMap<>();
        for (Group row : delta.rows()) {
            expected.put(Parcels.key(row), row.getBoolean(NightlyDelta.DELETE_MARKER, 0) ? null : Parcels.cellOf(row));
        }
        apply(NIGHTLY, delta.rows(), delta.netRows(), expected);
    }

    @Test
    @Order(2)
    void keysSwappingCellsAndADeleteFromAnotherCellAreApplied() throws Exception {
        // Two parcels trade cells, and a parcel is deleted by a row whose geometry lies in another cell than the one
        // that stores it: every fragment of this delta changes a partition other than its own.
        List<String> cells = parcels.cellsBySize();
        Set<String> touched = new HashSet<>(applied.keySet());
        Group first = untouched(cells.get(0), touched, 0);
        Group second = untouched(cells.get(1), touched, 0);
        Group deleted = untouched(cells.get(3), touched, 0);
        Instant time = Instant.parse("2026-02-01T12:00:00Z");
        List<Group> rows = List.of(
                Parcels.deltaRow(
                        first,
                        "swapped",
                        Parcels.wkb(Parcels.geometry(untouched(cells.get(1), touched, 1))),
                        time,
                        false),
                Parcels.deltaRow(
                        second,
                        "swapped",
                        Parcels.wkb(Parcels.geometry(untouched(cells.get(0), touched, 1))),
                        time,
                        false),
                Parcels.deltaRow(
                        deleted,
                        "gone",
                        Parcels.wkb(Parcels.geometry(untouched(cells.get(0), touched, 2))),
                        time,
                        true));
        Map<String, String> expected = new HashMap<>();
        expected.put(Parcels.key(first), cells.get(1));
        expected.put(Parcels.key(second), cells.get(0));
        expected.put(Parcels.key(deleted), null);
        // One FlowFile per run, so the fragments commit one after the other, each seeing the other's change.
        flow.stop(UPSERT);
        flow.setProcessorProperties(UPSERT, Map.of("Batch Size", "1"));
        flow.start(UPSERT);
        try {
            apply(CROSS, rows, -1, expected);
        } finally {
            flow.stop(UPSERT);
            flow.setProcessorProperties(UPSERT, Map.of("Batch Size", "50"));
            flow.start(UPSERT);
        }
    }

    @Test
    @Order(3)
    void verifyingTheTouchedPartitionsFindsTheConsistentArchiveValid() throws Exception {
        // The archive is consistent (the tests above check it with DuckDB and the verifier), so no report may say
        // otherwise, whatever order the commits of a delta's fragments took.
        List<String> invalid = new ArrayList<>();
        for (Written report : verifyReports(quarantined())) {
            invalid.add(report.filename() + " " + report.attribute("h3.cell") + ": "
                    + new String(report.content(), StandardCharsets.UTF_8));
        }
        assertEquals(List.of(), invalid, "Verify reported the consistent archive invalid");
    }

    @Test
    @Order(4)
    void theUpsertsRowCountsAreNeverNegativeAndAddUpToEachDelta() throws Exception {
        for (Map.Entry<String, Long> delta : netRows.entrySet()) {
            List<FlowFileView> verified = verified(delta.getKey());
            Counts.requireNonNegative(verified);
            assertEquals(
                    delta.getValue(),
                    Counts.sum(verified, "geoparquet.rows.net"),
                    delta.getKey() + ": the fragments' net changes add up to the delta's");
        }
    }

    /**
     * Sends a delta and checks what became of it: every cell FlowFile went through Upsert, Compact and Verify, nothing
     * failed, and the archive read by DuckDB holds each key of the delta in the expected cell (or not at all), with the
     * row count the verifier reconciles.
     */
    private void apply(String filename, List<Group> rows, long net, Map<String, String> expectedCells)
            throws Exception {
        apply(filename, rows, net, expectedCells, this::send);
    }

    /** How a test hands a delta to the flow and waits until the flow has done all it can with it. */
    interface Sender {
        void send(String filename, byte[] content) throws Exception;
    }

    private void apply(String filename, List<Group> rows, long net, Map<String, String> expectedCells, Sender sender)
            throws Exception {
        long mark = flow.lastBulletinId();
        sender.send(filename, Parcels.geoParquet(dir.resolve(filename), rows));
        expectedRows += net;
        netRows.put(filename, net);
        applied.putAll(expectedCells);

        // Nothing of the delta was quarantined: no failure of Fetch, Route, Upsert or Compact, no invalid report.
        assertEquals(List.of(), withFilename(quarantined(), filename));
        List<FlowFileView> verified = verified(filename);
        assertFalse(verified.isEmpty(), "verified partitions reach Verify's output");
        int cells = Integer.parseInt(verified.get(0).attribute("fragment.count"));
        assertTrue(cells >= 2, "the delta spans several cells, keys move between them");
        assertEquals(
                cells,
                verified.size(),
                "every cell FlowFile the delta was split into was upserted, compacted and verified");
        List<Written> kept = withFilename(Written.in(flow, REPORTS, reports), filename);
        assertEquals(cells, kept.size(), "the reports port led every verification report to the reports directory");
        for (Written report : kept) {
            assertEquals("true", report.attribute("geo.consistent"), report.toString());
            assertTrue(NiFiApi.JSON.readTree(report.content()).isObject(), report + ": the file is the JSON report");
        }

        Map<String, ArchiveChecks.Parcel> after = ArchiveChecks.parcels(archive);
        assertEquals(expectedRows, after.size(), "DuckDB reads baseline + net delta rows");
        for (Map.Entry<String, String> key : expectedCells.entrySet()) {
            ArchiveChecks.Parcel parcel = after.get(key.getKey());
            if (key.getValue() == null) {
                assertNull(parcel, key.getKey() + " was deleted");
            } else {
                assertNotNull(parcel, key.getKey() + " is in the archive");
                assertEquals(
                        key.getValue(),
                        parcel.cell(),
                        key.getKey() + " is stored in the cell of its new geometry, and only there");
            }
        }
        for (Group row : rows) {
            if (after.containsKey(Parcels.key(row))) {
                assertEquals(
                        row.getString("land_use", 0),
                        after.get(Parcels.key(row)).landUse(),
                        Parcels.key(row));
            }
        }
        VerificationReport report = ArchiveChecks.verify(archive, expectedRows);
        assertTrue(report.consistent(), report.toString());
        Bulletins.requireNoErrors(flow.bulletins(mark), ALL);
    }

    /** The {@code index}-th parcel of the cell that no delta sent so far has touched. */
    private Group untouched(String cell, Set<String> touched, int index) {
        return parcels.byCell.get(cell).stream()
                .filter(row -> !touched.contains(Parcels.key(row)))
                .skip(index)
                .findFirst()
                .orElseThrow(() -> new AssertionError("cell " + cell + " has too few parcels"));
    }

    @Test
    @Order(5)
    void aRecordThatCannotBeKeyedGoesToQuarantineWithItsReasonAndTheRestIsApplied() throws Exception {
        List<String> cells = parcels.cellsBySize();
        Group edited = untouched(cells.get(2), applied.keySet(), 0);
        Group broken = untouched(cells.get(2), applied.keySet(), 1);
        Instant time = Instant.parse("2026-02-02T00:00:00Z");
        List<Group> rows = List.of(
                Parcels.deltaRow(edited, "resurveyed", Parcels.wkb(Parcels.geometry(edited)), time, false),
                Parcels.deltaRow(broken, "resurveyed", new byte[] {1, 2, 3}, time, false));
        long mark = flow.lastBulletinId();

        send("unkeyable.parquet", Parcels.geoParquet(dir.resolve("unkeyable.parquet"), rows));

        List<Written> failed = withFilename(quarantined(), "unkeyable.parquet");
        assertEquals(1, failed.size(), "one quarantined file with the record that could not be keyed");
        Written failure = failed.get(0);
        assertNull(failure.attribute("h3.cell"), "RouteByH3Cell's failure, before any cell: " + failure.attributes());
        assertEquals("1", failure.attribute("record.count"));
        assertTrue(
                failure.attribute("error.message").startsWith("1 of 2 records could not be keyed"),
                failure.attribute("error.message"));
        JsonNode records = NiFiApi.JSON.readTree(failure.content());
        assertEquals(1, records.size(), records.toString());
        assertEquals(
                Parcels.key(broken), records.get(0).path(SyntheticParcels.KEY).asText());
        assertTrue(records.get(0).path("h3_keying_error").asText().startsWith("INVALID_GEOMETRY"), records.toString());

        assertEquals(
                1,
                withFilename(flow.queued(valid), "unkeyable.parquet").size(),
                "the keyable record's cell was applied and verified");
        Map<String, ArchiveChecks.Parcel> after = ArchiveChecks.parcels(archive);
        assertEquals(expectedRows, after.size());
        assertEquals("resurveyed", after.get(Parcels.key(edited)).landUse());
        assertEquals(
                broken.getString("land_use", 0),
                after.get(Parcels.key(broken)).landUse(),
                "the unkeyable record changed nothing");

        List<FlowGroup.Bulletin> bulletins = flow.bulletins(mark);
        Bulletins.requireNoErrors(bulletins, ALL);
        assertTrue(
                bulletins.stream()
                        .anyMatch(b -> b.sourceName().equals(ROUTE)
                                && b.level().equals("WARNING")
                                && b.message().contains("could not be keyed")),
                "RouteByH3Cell warns about the record: " + bulletins);
    }

    @Test
    @Order(6)
    void aCorruptFileGoesToQuarantineUnchangedAndLeavesTheArchiveAsItWas() throws Exception {
        byte[] whole = Parcels.geoParquet(
                dir.resolve("whole.parquet"),
                parcels.nightlyDelta(40, Instant.parse("2026-02-03T00:00:00Z")).rows());
        byte[] corrupt = Arrays.copyOf(whole, whole.length / 2);
        Map<String, String> before = ArchiveChecks.snapshot(archive);
        long mark = flow.lastBulletinId();

        send("corrupt.parquet", corrupt);

        List<Written> failed = withFilename(quarantined(), "corrupt.parquet");
        assertEquals(1, failed.size());
        assertTrue(Arrays.equals(corrupt, failed.get(0).content()), "the file is quarantined as it came");
        assertTrue(
                Arrays.equals(corrupt, Files.readAllBytes(intake.processed("corrupt.parquet"))),
                "FetchFile moved the delta, as it came, to the processed directory");
        assertNull(
                failed.get(0).attribute("h3.cell"),
                "RouteByH3Cell's failure: " + failed.get(0).attributes());
        assertTrue(
                failed.get(0).attribute("error.message").contains("corrupt.parquet"),
                "the reason names the file: " + failed.get(0).attributes());
        assertEquals(List.of(), withFilename(flow.queued(valid), "corrupt.parquet"));
        assertEquals(before, ArchiveChecks.snapshot(archive), "not one file of the archive changed");

        List<FlowGroup.Bulletin> bulletins = flow.bulletins(mark);
        assertTrue(
                bulletins.stream()
                        .anyMatch(b -> b.sourceName().equals(ROUTE)
                                && b.level().equals("ERROR")
                                && b.message().contains("corrupt.parquet")),
                "RouteByH3Cell raises an error naming the file: " + bulletins);
        Bulletins.requireNoErrors(
                bulletins, List.of(FileIntake.LIST, FileIntake.FETCH, UPSERT, COMPACT, VERIFY, QUARANTINE));
    }

    /**
     * The archive work behind another source, as an operator puts it behind one: NiFi's ListenHTTP added to the flow's
     * top group and connected to the inner group's "deltas" input port, the sequence that orders the deltas taken from
     * a request header (the delta.sequence parameter pointed at that attribute). A night posted to it is applied exactly
     * as one dropped into the input directory: every check of the file-borne nights holds.
     */
    @Test
    @Order(7)
    void aNightPostedToAnHttpListenerConnectedToTheDeltasPortIsApplied() throws Exception {
        HttpIntake http = HttpIntake.addTo(flow);
        flow.setParameters(Map.of("delta.sequence", "${" + HttpIntake.SEQUENCE + "}"));
        NightlyDelta.Delta delta = parcels.nightlyDelta(120, Instant.parse("2026-02-04T00:00:00Z"));
        Map<String, String> expected = new HashMap<>();
        for (Group row : delta.rows()) {
            expected.put(Parcels.key(row), row.getBoolean(NightlyDelta.DELETE_MARKER, 0) ? null : Parcels.cellOf(row));
        }
        // Later than every file-borne night, whose sequence is its file's modification time in milliseconds.
        long sequence = System.currentTimeMillis();
        apply("posted.parquet", delta.rows(), delta.netRows(), expected, (filename, content) -> {
            http.post(filename, content, sequence);
            flow.awaitIdle(DOWNSTREAM);
        });
        assertFalse(Files.exists(intake.processed("posted.parquet")), "the file intake never saw it");
    }

    /**
     * A large night: 12,000 new parcels in the archive's cells, each cell's FlowFile several of the flow's 64 KB pages
     * of geometry, written by RouteByH3Cell's cell-writing threads and passed on to the session on the task's thread.
     * Held in front of Upsert, every routed FlowFile is read by DuckDB (its rows, against its record.count) and by
     * parquet-java (its pages); then the night is applied with every check of the other nights.
     */
    @Test
    @Order(8)
    void aLargeNightIsRoutedInPagesCellByCellAndApplied() throws Exception {
        Instant time = Instant.parse("2026-02-05T00:00:00Z");
        SyntheticParcels more = new SyntheticParcels(12, 1);
        List<Group> rows = new ArrayList<>();
        Map<String, String> expected = new HashMap<>();
        for (int i = 0; i < LARGE_NIGHT; i++) {
            Group parcel = more.next("large-" + i, time);
            rows.add(Parcels.deltaRow(parcel, "new", Parcels.wkb(Parcels.geometry(parcel)), time, false));
            expected.put(Parcels.key(parcel), Parcels.cellOf(parcel));
        }
        apply(LARGE, rows, LARGE_NIGHT, expected, (filename, content) -> {
            flow.stop(UPSERT);
            try {
                intake.drop(filename, content);
                intake.awaitFetched(filename);
                flow.awaitIdle(FileIntake.FETCH, ROUTE);
                requireRoutedInPages(filename, rows);
            } finally {
                flow.start(UPSERT);
            }
            flow.awaitIdle(DOWNSTREAM);
        });
    }

    /**
     * The cells' FlowFiles of {@code filename} waiting for Upsert: DuckDB reads in each every key of the cell once and
     * every byte of their geometries, and the large ones hold their geometry in several pages.
     */
    private void requireRoutedInPages(String filename, List<Group> rows) throws Exception {
        Map<String, Set<String>> keysByCell = new HashMap<>();
        Map<String, Long> geometryBytesByCell = new HashMap<>();
        for (Group row : rows) {
            String cell = Parcels.cellOf(row);
            keysByCell.computeIfAbsent(cell, c -> new HashSet<>()).add(Parcels.key(row));
            geometryBytesByCell.merge(
                    cell, (long) row.getBinary(SyntheticParcels.GEOMETRY, 0).length(), Long::sum);
        }
        List<FlowGroup.Queued> routed = withFilename(flow.queued(flow.connection(ROUTE, "success")), filename);
        assertEquals(keysByCell.size(), routed.size(), "one FlowFile per cell: " + keysByCell.keySet());
        int paged = 0;
        for (FlowGroup.Queued cell : routed) {
            String h3 = cell.attribute("h3.cell");
            Path file = dir.resolve("routed-" + h3 + ".parquet");
            Files.write(file, flow.content(cell));
            // The geometry as the WKB bytes written, not converted.
            List<Object> read = DuckDb.query(
                            "SET enable_geoparquet_conversion = false; SELECT count(DISTINCT " + SyntheticParcels.KEY
                                    + "), sum(octet_length(" + SyntheticParcels.GEOMETRY + ")) FROM read_parquet(?)",
                            file.toString())
                    .get(0);
            long keys = ((Number) read.get(0)).longValue();
            assertEquals(keysByCell.get(h3).size(), keys, h3 + ": DuckDB reads every key of the cell once");
            assertEquals(
                    geometryBytesByCell.get(h3),
                    ((Number) read.get(1)).longValue(),
                    h3 + ": and every byte of their geometries");
            assertEquals(String.valueOf(keys), cell.attribute("record.count"), h3);
            try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
                for (int rowGroup = 0; rowGroup < reader.footer().rowGroups().size(); rowGroup++) {
                    if (reader.pageIndex(rowGroup, SyntheticParcels.GEOMETRY)
                                    .pages()
                                    .getPageCount()
                            > 1) {
                        paged++;
                    }
                }
            }
        }
        assertTrue(paged > 0, "some cell's geometry spans several pages");
    }

    /**
     * Drops a delta into the flow's input directory and waits until the flow has done all it can with it: ListFile
     * listed it, FetchFile took it, and nothing is left in front of any processor after FetchFile.
     */
    private void send(String filename, byte[] content) throws Exception {
        intake.drop(filename, content);
        intake.awaitFetched(filename);
        flow.awaitIdle(DOWNSTREAM);
    }

    /** What the flow's PutFile wrote into the quarantine directory so far. */
    private List<Written> quarantined() throws Exception {
        return Written.in(flow, QUARANTINE, quarantine);
    }

    static <T extends FlowFileView> List<T> withFilename(List<T> flowFiles, String filename) {
        return flowFiles.stream()
                .filter(flowFile -> filename.equals(flowFile.attribute("filename")))
                .toList();
    }

    /** The quarantined FlowFiles VerifyGeoMetadata sent there (its reports carry {@code geo.consistent}). */
    static List<Written> verifyReports(List<Written> quarantined) {
        return quarantined.stream()
                .filter(written -> written.attribute("geo.consistent") != null)
                .toList();
    }

    /** A delta's cell FlowFiles after VerifyGeoMetadata: valid ones in their queue, invalid ones in the quarantine. */
    private List<FlowFileView> verified(String filename) throws Exception {
        List<FlowFileView> verified = new ArrayList<>(withFilename(flow.queued(valid), filename));
        verified.addAll(withFilename(verifyReports(quarantined()), filename));
        return verified;
    }
}
