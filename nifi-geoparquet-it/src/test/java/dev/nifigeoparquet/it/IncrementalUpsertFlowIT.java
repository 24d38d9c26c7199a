package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.concurrent.Workers;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
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
 * that cannot be keyed; a corrupt file; a night of 12,000 new parcels whose cells' FlowFiles span several pages; a night
 * of 150,000 whose route and upsert are terminated midway. Every delta is dropped as a file into the flow's input
 * directory, where the flow's own ListFile and FetchFile pick it up; what fails is read from the files the flow's PutFile
 * wrote into the quarantine directory, with their attributes from provenance.
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

    static final String TERMINATED = "terminated-night.parquet";
    /** Enough rows that RouteByH3Cell reads and writes them for seconds each. */
    static final int TERMINATED_NIGHT = 150_000;
    /** How long a processor may take to start the step it is terminated in, and a terminated task to end. */
    static final Duration TERMINATION_TIMEOUT = Duration.ofSeconds(30);

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
        NewParcels night = NewParcels.of(12, "large-", LARGE_NIGHT, Instant.parse("2026-02-05T00:00:00Z"));
        List<Group> rows = night.rows();
        apply(LARGE, rows, LARGE_NIGHT, night.cells(), (filename, content) -> {
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
     * An operator stops a processor in the middle of a large night and terminates the task that still runs (the
     * canvas's "Stop", then "Terminate"): RouteByH3Cell while it reads and keys the night and while it writes the cells,
     * then the upsert while the engine rewrites the partitions. NiFi interrupts the task's thread and rolls its session
     * back: the task ends, and with it all the work it handed to other threads; what it was given waits in front of it
     * as it came and nothing it made went on; readers see the archive as it was, or with the whole night should the
     * upsert have committed before it was interrupted. Started again, the flow applies the night once, with every check
     * of the other nights.
     */
    @Test
    @Order(9)
    void aNightWhoseRouteAndUpsertAreTerminatedMidwayIsAppliedOnceWhenStartedAgain() throws Exception {
        NewParcels night = NewParcels.of(13, "terminated-", TERMINATED_NIGHT, Instant.parse("2026-02-06T00:00:00Z"));
        String input = flow.connectionInto(ROUTE);
        String routed = flow.connection(ROUTE, "success");
        apply(TERMINATED, night.rows(), TERMINATED_NIGHT, night.cells(), (filename, content) -> {
            flow.stop(ROUTE, UPSERT);
            intake.drop(filename, content);
            intake.awaitFetched(filename);
            // RouteByH3Cell reads the night twice: to key it and count each cell's records, then to write the cells.
            for (String step : List.of("scan", "writeCells")) {
                String frame = "dev.nifigeoparquet.processors.RouteByH3Cell." + step + "(";
                terminateOnce(
                        ROUTE,
                        "a thread runs " + frame,
                        () -> nifi.threads().values().stream().anyMatch(stack -> stack.contains(frame)));
                List<FlowGroup.Queued> waiting = withFilename(flow.queued(input), filename);
                assertEquals(1, waiting.size(), "terminated in " + step + ", the night waits in front of the route");
                assertTrue(Arrays.equals(content, flow.content(waiting.get(0))), "as it came");
                assertEquals(List.of(), withFilename(flow.queued(routed), filename), "no cell of it was routed");
            }
            flow.start(ROUTE);
            flow.awaitIdle(FileIntake.FETCH, ROUTE);
            int cells = withFilename(flow.queued(routed), filename).size();

            // The engine stages a partition's new files for about a second before it commits them all: terminated once
            // it has staged one, the upsert is interrupted long before its commit.
            Map<String, String> before = ArchiveChecks.snapshot(archive);
            Path staging = archive.resolve(ArchiveLayout.STAGING_DIRECTORY);
            terminateOnce(UPSERT, "the engine staged a file", () -> holdsAFile(staging));
            assertEquals(
                    cells,
                    withFilename(flow.queued(routed), filename).size(),
                    "terminated while the engine rewrote the partitions, the night's cells wait in front of Upsert");
            // Should a slow machine have let it commit first, the whole night is in, and the replay changes nothing.
            if (ArchiveChecks.parcels(archive).size() != expectedRows + TERMINATED_NIGHT) {
                assertEquals(before, ArchiveChecks.snapshot(archive), "the upsert left the archive as it was");
            }

            flow.start(ROUTE, UPSERT);
            flow.awaitIdle(DOWNSTREAM);
        });
    }

    /** A night of new parcels around a town of their own: its delta rows, and each key with the cell it must end in. */
    record NewParcels(List<Group> rows, Map<String, String> cells) {
        static NewParcels of(long seed, String keyPrefix, int count, Instant time) {
            SyntheticParcels town = new SyntheticParcels(seed, 1);
            List<Group> rows = new ArrayList<>();
            Map<String, String> cells = new HashMap<>();
            for (int i = 0; i < count; i++) {
                Group parcel = town.next(keyPrefix + i, time);
                rows.add(Parcels.deltaRow(parcel, "new", Parcels.wkb(Parcels.geometry(parcel)), time, false));
                cells.put(Parcels.key(parcel), Parcels.cellOf(parcel));
            }
            return new NewParcels(rows, cells);
        }
    }

    /** Whether the directory or one below it holds a file now; a directory removed while it is listed holds none. */
    private static boolean holdsAFile(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            return paths.anyMatch(Files::isRegularFile);
        } catch (NoSuchFileException | UncheckedIOException e) {
            return false;
        }
    }

    /** Whether a step of a processor has begun, as the test sees it from outside. */
    @FunctionalInterface
    interface Step {
        boolean begun() throws Exception;
    }

    /**
     * Starts the processor named, and once {@code step} has begun, stops it and terminates its task. Returns when the
     * task has ended, and fails if any thread the task handed work to is still at work then: one named after the
     * processor (its id) or one of the engine's workers, neither ended nor idle in its pool. NiFi does not call a
     * terminated processor's {@code @OnStopped}, so its pools are not shut down; their idle threads end on their own.
     */
    private void terminateOnce(String processorName, String what, Step step) throws Exception {
        flow.start(processorName);
        Instant deadline = Instant.now().plus(TERMINATION_TIMEOUT);
        while (!step.begun()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(processorName + ": not seen within " + TERMINATION_TIMEOUT + " that " + what);
            }
            Thread.sleep(1); // not spinning on a core that NiFi needs
        }
        flow.stop(processorName);
        flow.terminate(processorName);

        deadline = Instant.now().plus(TERMINATION_TIMEOUT);
        while (flow.tasksRunning(processorName) > 0) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(processorName + " still runs a task " + TERMINATION_TIMEOUT
                        + " after it was terminated: " + nifi.threads().values());
            }
            Thread.sleep(20);
        }
        String id = flow.processorId(processorName);
        List<String> working = nifi.threads().entrySet().stream()
                .filter(thread ->
                        thread.getKey().contains(id) || thread.getKey().startsWith(Workers.THREAD_NAME_PREFIX))
                .map(Map.Entry::getValue)
                .filter(stack -> !stack.contains("java.util.concurrent.ThreadPoolExecutor.getTask"))
                .toList();
        assertEquals(
                List.of(), working, "no thread is at work for " + processorName + " once its terminated task ended");
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
