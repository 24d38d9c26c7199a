package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.processors.geometry.GeometryFormat;
import dev.nifigeoparquet.processors.testing.JsonRecordWriterService;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An input spanning thousands of cells. The build runs this class in its own JVM with a small heap (see the
 * module's pom), and the test asserts that no more than Maximum Open Writers cell writers were ever open at once.
 */
class RouteByH3CellManyCellsTest {

    private static final int FEATURES = 6_000;
    private static final int MAX_OPEN_WRITERS = 64;

    @TempDir
    Path dir;

    @Test
    void thousandsOfCellsAreWrittenWithABoundedNumberOfOpenWriters() throws Exception {
        TestRunner runner = RouteByH3CellTest.newRunner(dir);
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.LON_LAT);
        runner.setProperty(RouteByH3Cell.MAX_OPEN_WRITERS, String.valueOf(MAX_OPEN_WRITERS));
        JsonRecordWriterService writer = RouteByH3CellTest.writerOf(runner);

        // A grid of points far enough apart (about 1.5 degrees) that every point lands in its own resolution-7 cell.
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        json.writeBytes("[".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < FEATURES; i++) {
            int column = i % 200;
            int row = i / 200;
            double lon = -179.0 + column * 1.7;
            double lat = -60.0 + row * 4.0;
            String record =
                    (i == 0 ? "" : ",") + "{\"id\":\"f" + i + "\",\"longitude\":" + lon + ",\"latitude\":" + lat + "}";
            json.writeBytes(record.getBytes(StandardCharsets.UTF_8));
        }
        json.writeBytes("]".getBytes(StandardCharsets.UTF_8));
        runner.enqueue(json.toByteArray());
        runner.run();

        runner.assertTransferCount(RouteByH3Cell.REL_FAILURE, 0);
        runner.assertTransferCount(RouteByH3Cell.REL_ORIGINAL, 1);
        List<MockFlowFile> cells = runner.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS);
        assertEquals(FEATURES, cells.size(), "one FlowFile per cell");
        Set<String> distinct = new HashSet<>();
        long records = 0;
        for (MockFlowFile cell : cells) {
            distinct.add(cell.getAttribute("h3.cell"));
            records += Long.parseLong(cell.getAttribute("record.count"));
            cell.assertAttributeEquals("fragment.count", String.valueOf(FEATURES));
        }
        assertEquals(FEATURES, distinct.size());
        assertEquals(FEATURES, records);
        assertTrue(
                writer.maxOpenWriters() <= MAX_OPEN_WRITERS,
                "at most " + MAX_OPEN_WRITERS + " writers open, saw " + writer.maxOpenWriters());
        assertEquals(0, writer.openWriters(), "every writer closed");
        assertEquals((long) FEATURES, runner.getCounterValue(RouteByH3Cell.COUNTER_CELLS_TOUCHED));
    }
}
