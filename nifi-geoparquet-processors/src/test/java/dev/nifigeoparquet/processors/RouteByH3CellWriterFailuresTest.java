package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.processors.geometry.GeometryFormat;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetRecordSetWriter;
import dev.nifigeoparquet.processors.testing.RefusingRecordWriterService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.apache.parquet.example.data.Group;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.io.WKTReader;

/**
 * RouteByH3Cell with Record Writers that cannot write what it hands them. Records that cannot be keyed must reach
 * 'failure' with their reason whatever the writer, and no failure may leave a FlowFile's stream open (an open stream
 * makes the session roll back and the input stall in its queue).
 */
class RouteByH3CellWriterFailuresTest {

    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    TestRunner runner;

    @BeforeEach
    void setUp() throws Exception {
        runner = RouteByH3CellTest.newRunner(dir);
    }

    @Test
    void anUnkeyableRecordReachesFailureWithItsReasonWhenTheWriterIsGeoParquet() throws Exception {
        useGeoParquetWriter();
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.WKT);
        runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, "wkt");
        ArrayNode input = JSON.createArrayNode();
        input.add(JSON.createObjectNode().put("id", "good").put("wkt", "POINT (13.4 52.5)"));
        input.add(JSON.createObjectNode().put("id", "bad").put("wkt", "POINT (13.4"));
        runner.enqueue(input.toString());
        runner.run();

        runner.assertTransferCount(RouteByH3Cell.REL_SUCCESS, 1);
        runner.assertTransferCount(RouteByH3Cell.REL_FAILURE, 1);
        runner.assertTransferCount(RouteByH3Cell.REL_ORIGINAL, 1);
        assertEquals(
                List.of("good"),
                idsInGeoParquet(runner.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS)
                        .get(0)));

        MockFlowFile failure =
                runner.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE).get(0);
        failure.assertAttributeEquals("mime.type", "application/json");
        failure.assertAttributeEquals("record.count", "1");
        String message = failure.getAttribute("error.message");
        assertTrue(message.startsWith("1 of 2 records could not be keyed"), message);
        assertTrue(message.contains("INVALID_GEOMETRY"), message);
        assertTrue(
                message.contains("written as JSON"),
                "says why the failure FlowFile is not in the writer's format: " + message);
        JsonNode failed = JSON.readTree(failure.getContent());
        assertEquals(1, failed.size());
        assertEquals("bad", failed.get(0).get("id").asText());
        assertEquals("POINT (13.4", failed.get(0).get("wkt").asText(), "the record keeps its original fields");
        assertTrue(
                failed.get(0).get(RouteByH3Cell.KEYING_ERROR_FIELD).asText().startsWith("INVALID_GEOMETRY"),
                failed.toString());
    }

    @Test
    void aFailedRecordTheWriterRejectsWhileWritingStillReachesFailure() throws Exception {
        useGeoParquetWriter();
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.WKB);
        runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, "geometry");
        String goodWkb = HexFormat.of().formatHex(Wkb.write(new WKTReader().read("POINT (13.4 52.5)")));
        String truncatedWkb =
                goodWkb.substring(0, 20); // parses as neither WKB for keying nor for the GeoParquet column
        ArrayNode input = JSON.createArrayNode();
        input.add(JSON.createObjectNode().put("id", "good").put("geometry", goodWkb));
        input.add(JSON.createObjectNode().put("id", "truncated").put("geometry", truncatedWkb));
        runner.enqueue(input.toString());
        runner.run();

        runner.assertTransferCount(RouteByH3Cell.REL_SUCCESS, 1);
        runner.assertTransferCount(RouteByH3Cell.REL_FAILURE, 1);
        assertEquals(
                List.of("good"),
                idsInGeoParquet(runner.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS)
                        .get(0)));
        MockFlowFile failure =
                runner.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE).get(0);
        JsonNode failed = JSON.readTree(failure.getContent());
        assertEquals("truncated", failed.get(0).get("id").asText());
        assertEquals(truncatedWkb, failed.get(0).get("geometry").asText());
        assertTrue(
                failed.get(0).get(RouteByH3Cell.KEYING_ERROR_FIELD).asText().startsWith("INVALID_GEOMETRY"),
                failed.toString());
    }

    @Test
    void aWriterThatRefusesTheCellsSendsTheInputToFailureUnchanged() throws Exception {
        RefusingRecordWriterService refusing = new RefusingRecordWriterService();
        runner.addControllerService("refusing", refusing);
        runner.enableControllerService(refusing);
        runner.setProperty(RouteByH3Cell.RECORD_WRITER, "refusing");
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.WKT);
        runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, "wkt");
        String input = JSON.createArrayNode()
                .add(JSON.createObjectNode().put("id", "good").put("wkt", "POINT (13.4 52.5)"))
                .add(JSON.createObjectNode().put("id", "bad").putNull("wkt"))
                .toString();
        runner.enqueue(input);
        runner.run();

        runner.assertAllFlowFilesTransferred(RouteByH3Cell.REL_FAILURE, 1);
        MockFlowFile failed =
                runner.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE).get(0);
        failed.assertContentEquals(input);
        assertTrue(
                failed.getAttribute("error.message").contains(RefusingRecordWriterService.REFUSAL),
                failed.getAttribute("error.message"));
        assertEquals(0, runner.getQueueSize().getObjectCount(), "nothing is left in the queue to be retried");
    }

    private void useGeoParquetWriter() {
        GeoParquetRecordSetWriter geoParquet = new GeoParquetRecordSetWriter();
        try {
            runner.addControllerService("geoparquet", geoParquet);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        runner.setProperty(geoParquet, GeoParquetRecordSetWriter.DICTIONARY_ENCODING, "false");
        runner.enableControllerService(geoParquet);
        runner.setProperty(RouteByH3Cell.RECORD_WRITER, "geoparquet");
    }

    private List<String> idsInGeoParquet(MockFlowFile flowFile) throws Exception {
        flowFile.assertAttributeEquals("mime.type", "application/vnd.apache.parquet");
        Path file = Files.write(dir.resolve(flowFile.getAttribute("uuid") + ".parquet"), flowFile.toByteArray());
        List<String> ids = new ArrayList<>();
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
            for (Iterator<Group> rows = reader.rows(); rows.hasNext(); ) {
                ids.add(rows.next().getString("id", 0));
            }
        }
        return ids;
    }
}
