package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.cli.GeoParquetArchiveCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 * {@code templates/append-only.json} in NiFi: JSON deltas with WKT geometries, read by the JsonTreeReader of the
 * runtime's own record-serialization-services NAR, appended to an archive the command-line tool adopted. One input
 * holds new parcels in two cells, a parcel the archive already holds (in a third cell) and a record that cannot be
 * keyed. It is dropped as a file into the flow's input directory for the flow's ListFile and FetchFile; what fails is
 * read from the files the flow's PutFile wrote into the quarantine directory, with their attributes from provenance.
 */
@ExtendWith(NiFiExtension.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AppendOnlyFlowIT {

    static final String ROUTE = "Route delta by H3 cell";
    static final String APPEND = "Append cell to archive";
    static final String VERIFY = "Verify appended partitions";
    static final String QUARANTINE = "Quarantine";
    static final String REPORTS = "Write reports";
    static final String JSON_READER = "JSON delta reader";
    /** JsonTreeReader's properties as NiFi 2.7 and later name them; NiFi 2.0 to 2.6 know them only by their old names. */
    static final List<String> RENAMED_IN_2_7 = List.of("Schema Access Strategy", "Starting Field Strategy");

    static final String FILE = "new-parcels.json";

    RunningNiFi nifi;
    Parcels parcels;
    Path archive;
    FlowGroup flow;
    FileIntake intake;
    Path quarantine;
    Path reports;
    String valid;
    long expectedRows;

    @BeforeAll
    void importAdoptAndStart(RunningNiFi nifi, @TempDir Path dir) throws Exception {
        this.nifi = nifi;
        archive = dir.resolve("parcels");
        parcels = Parcels.writeDataset(archive, 600, 1, 23);
        adopt(archive);

        intake = FileIntake.under(dir);
        quarantine = dir.resolve("quarantine");
        reports = dir.resolve("reports");

        flow = FlowGroup.upload(nifi.api(), NiFiRuntimeIT.flowDefinition("append-only.json"), "append only");
        Map<String, String> parameters = new HashMap<>(intake.parameters());
        parameters.put("archive.root", archive.toString());
        parameters.put("archive.allowed.roots", dir.toString());
        parameters.put("h3.resolution", String.valueOf(Parcels.RESOLUTION));
        parameters.put("delta.geometry.field", "wkt");
        parameters.put("quarantine.directory", quarantine.toString());
        parameters.put("reports.directory", reports.toString());
        flow.setParameters(parameters);
        intake.prepare(flow);
        FileIntake.requireValid(flow, QUARANTINE);
        FileIntake.requireValid(flow, REPORTS);
        flow.setAutoTerminated(VERIFY, List.of());
        valid = flow.observe(VERIFY, "valid");
    }

    @AfterAll
    void stop() throws Exception {
        if (flow != null) {
            flow.stopAll();
        }
    }

    @Test
    @Order(1)
    void onNiFiBefore27TheJsonReaderNeedsItsRenamedPropertiesRemoved() throws Exception {
        JsonNode reader = flow.service(JSON_READER).path("component");
        String errors = reader.path("validationErrors").toString();
        for (String property : RENAMED_IN_2_7) {
            assertTrue(
                    errors.contains("'" + property + "' is not a supported property"),
                    "this runtime does not know " + property + ": " + errors);
        }
        // What templates/README.md tells an operator on NiFi 2.0 to 2.6 to do: remove the two properties, whose values
        // are the reader's defaults there (infer the schema, start at the root node).
        Map<String, String> removed = new HashMap<>();
        RENAMED_IN_2_7.forEach(property -> removed.put(property, null));
        flow.setServiceProperties(JSON_READER, removed);
        JsonNode fixed = nifi.api()
                .await(
                        "the JSON reader to be validated",
                        () -> flow.service(JSON_READER).path("component"),
                        component -> !"VALIDATING"
                                .equals(component.path("validationStatus").asText()));
        assertEquals(
                "infer-schema",
                fixed.path("properties").path("schema-access-strategy").asText());
        assertEquals(
                "ROOT_NODE",
                fixed.path("properties").path("starting-field-strategy").asText());
        assertEquals(
                "VALID",
                fixed.path("validationStatus").asText(),
                "the reader is valid once they are removed: " + fixed.path("validationErrors"));

        flow.verifyServices();
        flow.enableServices();
        flow.start(FileIntake.LIST, FileIntake.FETCH, ROUTE, APPEND, VERIFY, QUARANTINE, REPORTS);
        flow.startPorts();
    }

    @Test
    @Order(2)
    void newParcelsAreAppendedAKeyTheArchiveHoldsFailsItsCellAndAnUnkeyableRecordIsQuarantined() throws Exception {
        List<String> cells = parcels.cellsBySize();
        List<Group> rows = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int cell = 0; cell < 2; cell++) {
            for (int i = 0; i < 3; i++) {
                rows.add(parcels.byCell.get(cells.get(cell)).get(i));
                ids.add("appended-" + cell + "-" + i);
            }
        }
        Group held = parcels.byCell.get(cells.get(2)).get(0);
        rows.add(held);
        ids.add(Parcels.key(held));
        byte[] json = withUnkeyableRecord(Parcels.json(rows, ids));
        Map<String, String> heldPartitionBefore = partition(cells.get(2));
        long mark = flow.lastBulletinId();

        intake.drop(FILE, json);
        intake.awaitFetched(FILE);
        flow.awaitIdle(FileIntake.FETCH, ROUTE, APPEND, VERIFY, QUARANTINE);
        assertTrue(Arrays.equals(json, Files.readAllBytes(intake.processed(FILE))), "FetchFile moved the delta");

        // Two FlowFiles of the file were quarantined: RouteByH3Cell's failure (before any cell) and one refused cell.
        List<Written> quarantined =
                IncrementalUpsertFlowIT.withFilename(Written.in(flow, QUARANTINE, quarantine), FILE);
        assertEquals(2, quarantined.size(), quarantined.toString());
        List<Written> unkeyable = quarantined.stream()
                .filter(written -> written.attribute("h3.cell") == null)
                .toList();
        List<Written> refused = quarantined.stream()
                .filter(written -> written.attribute("h3.cell") != null)
                .toList();

        // The record that cannot be keyed reaches failure with its reason although the writer is GeoParquet.
        assertEquals(1, unkeyable.size(), "one failure FlowFile from RouteByH3Cell");
        assertEquals("application/json", unkeyable.get(0).attribute("mime.type"));
        assertTrue(
                unkeyable.get(0).attribute("error.message").startsWith("1 of 8 records could not be keyed"),
                unkeyable.get(0).attributes().toString());
        JsonNode failed = NiFiApi.JSON.readTree(unkeyable.get(0).content());
        assertEquals("broken-wkt", failed.get(0).path(SyntheticParcels.KEY).asText());
        assertEquals("POINT (13.4", failed.get(0).path("wkt").asText());
        assertTrue(failed.get(0).path("h3_keying_error").asText().startsWith("INVALID_GEOMETRY"), failed.toString());

        // The cell holding a parcel the archive already has fails as a whole, naming the key; its partition is
        // untouched.
        assertEquals(1, refused.size());
        assertEquals(cells.get(2), refused.get(0).attribute("h3.cell"));
        assertTrue(
                refused.get(0).attribute("error.message").contains(Parcels.key(held)),
                refused.get(0).attribute("error.message"));
        assertEquals(heldPartitionBefore, partition(cells.get(2)), "the refused cell's partition is exactly as it was");

        List<FlowGroup.Queued> appended = IncrementalUpsertFlowIT.withFilename(flow.queued(valid), FILE);
        assertEquals(2, appended.size(), "the two cells of new parcels were appended and verified");
        assertEquals(
                List.of(),
                IncrementalUpsertFlowIT.verifyReports(quarantined),
                "no verification report was quarantined as invalid");
        Counts.requireNonNegative(appended);
        assertEquals(6, Counts.sum(appended, "geoparquet.rows.inserted"));

        Map<String, ArchiveChecks.Parcel> after = ArchiveChecks.parcels(archive);
        assertEquals(parcels.rows() + 6, after.size());
        for (int i = 0; i < 6; i++) {
            ArchiveChecks.Parcel parcel = after.get(ids.get(i));
            assertEquals(cells.get(i / 3), parcel == null ? null : parcel.cell(), ids.get(i));
            assertEquals(rows.get(i).getDouble("area_m2", 0), parcel.area(), 0.0, ids.get(i));
        }
        VerificationReport report = ArchiveChecks.verify(archive, parcels.rows() + 6);
        assertTrue(report.consistent(), report.toString());
        expectedRows = parcels.rows() + 6;
        assertEquals(
                2,
                IncrementalUpsertFlowIT.withFilename(Written.in(flow, REPORTS, reports), FILE)
                        .size(),
                "the reports port led both verification reports to the reports directory");

        List<FlowGroup.Bulletin> bulletins = flow.bulletins(mark);
        assertTrue(
                bulletins.stream()
                        .anyMatch(b -> b.sourceName().equals(APPEND)
                                && b.level().equals("ERROR")
                                && b.message().contains(Parcels.key(held))),
                "the append's error names the key: " + bulletins);
        assertTrue(
                bulletins.stream()
                        .anyMatch(b -> b.sourceName().equals(ROUTE)
                                && b.level().equals("WARNING")
                                && b.message().contains("could not be keyed")),
                "RouteByH3Cell warns about the record: " + bulletins);
        Bulletins.requireNoErrors(bulletins, List.of(FileIntake.LIST, FileIntake.FETCH, ROUTE, VERIFY, QUARANTINE));
    }

    /**
     * The archive work behind another source: NiFi's ListenHTTP in the flow's top group, connected to the inner group's
     * "deltas" port, the sequence from a request header. New parcels posted to it are appended and verified.
     */
    @Test
    @Order(3)
    void newParcelsPostedToAnHttpListenerConnectedToTheDeltasPortAreAppended() throws Exception {
        HttpIntake http = HttpIntake.addTo(flow);
        flow.setParameters(Map.of("delta.sequence", "${" + HttpIntake.SEQUENCE + "}"));
        List<String> cells = parcels.cellsBySize();
        List<Group> rows = List.of(
                parcels.byCell.get(cells.get(3)).get(0),
                parcels.byCell.get(cells.get(4)).get(0));
        List<String> ids = List.of("posted-0", "posted-1");
        String posted = "posted.json";
        long mark = flow.lastBulletinId();

        http.post(posted, Parcels.json(rows, ids), System.currentTimeMillis());
        flow.awaitIdle(ROUTE, APPEND, VERIFY, QUARANTINE, REPORTS);

        assertEquals(List.of(), IncrementalUpsertFlowIT.withFilename(Written.in(flow, QUARANTINE, quarantine), posted));
        List<FlowGroup.Queued> appended = IncrementalUpsertFlowIT.withFilename(flow.queued(valid), posted);
        assertEquals(2, appended.size(), "both cells were appended and verified");
        assertEquals(2, Counts.sum(appended, "geoparquet.rows.inserted"));
        Map<String, ArchiveChecks.Parcel> after = ArchiveChecks.parcels(archive);
        assertEquals(expectedRows + 2, after.size());
        for (int i = 0; i < 2; i++) {
            assertEquals(cells.get(3 + i), after.get(ids.get(i)).cell(), ids.get(i));
        }
        VerificationReport report = ArchiveChecks.verify(archive, expectedRows + 2);
        assertTrue(report.consistent(), report.toString());
        assertEquals(
                2,
                IncrementalUpsertFlowIT.withFilename(Written.in(flow, REPORTS, reports), posted)
                        .size());
        Bulletins.requireNoErrors(flow.bulletins(mark), List.of(ROUTE, APPEND, VERIFY, QUARANTINE, REPORTS));
    }

    /** The JSON array with one more record, whose WKT is cut short. */
    private static byte[] withUnkeyableRecord(byte[] json) throws Exception {
        ArrayNode array = (ArrayNode) NiFiApi.JSON.readTree(json);
        array.addObject()
                .put(SyntheticParcels.KEY, "broken-wkt")
                .put("land_use", "residential")
                .put("area_m2", 100.0)
                .put(SyntheticParcels.VERSION, "2026-02-01T00:00:00Z")
                .put("wkt", "POINT (13.4");
        return NiFiApi.JSON.writeValueAsBytes(array);
    }

    private Map<String, String> partition(String cell) throws Exception {
        return ArchiveChecks.snapshot(archive.resolve("h3_cell=" + cell));
    }

    /** Adopts the dataset with the command-line tool, as an operator would before pointing the append-only flow at it. */
    static void adopt(Path root) {
        StringWriter err = new StringWriter();
        int exit = GeoParquetArchiveCli.run(
                new String[] {"adopt", "--archive", root.toString(), "--key", SyntheticParcels.KEY, "--quiet"},
                new PrintWriter(new StringWriter()),
                new PrintWriter(err, true));
        assertEquals(0, exit, "geoparquet-archive adopt: " + err);
    }
}
