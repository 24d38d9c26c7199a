package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.processors.geometry.GeometryFormat;
import dev.nifigeoparquet.processors.testing.JsonRecordWriterService;
import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.nifi.flowfile.FlowFile;
import org.apache.nifi.processor.Processor;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.MockProcessSession;
import org.apache.nifi.util.SharedSessionState;
import org.apache.nifi.util.TestRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * RouteByH3Cell writes its cells on cell-writing threads, several at once, while the session and its streams are used
 * only on the task's thread: NiFi's session is not thread-safe, and a failed write rolls it back from the thread that
 * made it.
 */
class RouteByH3CellThreadsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int FEATURES = 3_000;
    private static final int PLACES = 40;

    @TempDir
    Path dir;

    /** A session whose content streams remember every thread that wrote to, flushed or closed them. */
    private static final class ThreadRecordingSession extends MockProcessSession {
        final Set<Thread> streamThreads = ConcurrentHashMap.newKeySet();

        ThreadRecordingSession(SharedSessionState state, Processor processor) {
            super(state, processor);
        }

        @Override
        public OutputStream write(FlowFile flowFile) {
            return new FilterOutputStream(super.write(flowFile)) {
                @Override
                public void write(int b) throws IOException {
                    streamThreads.add(Thread.currentThread());
                    out.write(b);
                }

                @Override
                public void write(byte[] bytes, int offset, int length) throws IOException {
                    streamThreads.add(Thread.currentThread());
                    out.write(bytes, offset, length);
                }

                @Override
                public void flush() throws IOException {
                    streamThreads.add(Thread.currentThread());
                    out.flush();
                }

                @Override
                public void close() throws IOException {
                    streamThreads.add(Thread.currentThread());
                    out.close();
                }
            };
        }
    }

    @Test
    void cellsAreWrittenBesideTheTaskThreadAndTheSessionStreamsOnlyOnIt() throws Exception {
        TestRunner runner = RouteByH3CellTest.newRunner(dir);
        runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.LON_LAT);
        JsonRecordWriterService writer = RouteByH3CellTest.writerOf(runner);
        runner.run(1, false, true); // scheduled; nothing queued yet

        // Features at 40 places far apart (one cell each), in turn, so that every cell's records arrive interleaved.
        Map<Integer, List<String>> idsAtPlace = new LinkedHashMap<>();
        ByteArrayOutputStream json = new ByteArrayOutputStream();
        json.writeBytes("[".getBytes(StandardCharsets.UTF_8));
        for (int i = 0; i < FEATURES; i++) {
            int place = i % PLACES;
            double lon = -170.0 + place * 8.0 + i * 1e-8; // the same cell for every feature of a place
            double lat = -50.0 + place * 2.5;
            idsAtPlace.computeIfAbsent(place, p -> new ArrayList<>()).add("f" + i);
            String record =
                    (i == 0 ? "" : ",") + "{\"id\":\"f" + i + "\",\"longitude\":" + lon + ",\"latitude\":" + lat + "}";
            json.writeBytes(record.getBytes(StandardCharsets.UTF_8));
        }
        json.writeBytes("]".getBytes(StandardCharsets.UTF_8));
        RouteByH3Cell processor = (RouteByH3Cell) runner.getProcessor();
        SharedSessionState state = new SharedSessionState(processor, new AtomicLong());
        MockFlowFile input = new MockFlowFile(state.nextFlowFileId());
        input.setData(json.toByteArray());
        state.getFlowFileQueue().offer(input);
        ThreadRecordingSession session = new ThreadRecordingSession(state, processor);

        processor.onTrigger(runner.getProcessContext(), () -> session);
        processor.onStopped();

        List<MockFlowFile> cells = session.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS);
        assertEquals(PLACES, cells.size(), "one FlowFile per place's cell");
        assertEquals(
                0,
                session.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE).size());
        List<List<String>> written = new ArrayList<>();
        for (MockFlowFile cell : cells) {
            List<String> ids = new ArrayList<>();
            for (JsonNode record : JSON.readTree(cell.getContent())) {
                ids.add(record.path("id").asText());
            }
            assertEquals(String.valueOf(ids.size()), cell.getAttribute("record.count"));
            written.add(ids);
        }
        assertEquals(Set.copyOf(idsAtPlace.values()), Set.copyOf(written), "every cell's records, in input order");

        Thread task = Thread.currentThread();
        assertEquals(Set.of(task), session.streamThreads, "the session's streams are used on the task's thread only");
        Set<Thread> recordThreads = writer.recordThreads();
        assertFalse(recordThreads.isEmpty());
        for (Thread thread : recordThreads) {
            assertTrue(thread != task && thread.getName().contains("cell writing"), thread.getName());
        }
    }
}
