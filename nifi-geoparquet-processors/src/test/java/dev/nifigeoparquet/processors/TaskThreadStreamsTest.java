package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TaskThreadStreamsTest {

    private final ExecutorService writer = Executors.newSingleThreadExecutor();

    @AfterEach
    void shutDown() throws InterruptedException {
        writer.shutdownNow();
        assertTrue(writer.awaitTermination(10, TimeUnit.SECONDS));
    }

    /** A session's stream as the tests see it: the bytes, and every thread that touched it. */
    private static final class SessionStream extends ByteArrayOutputStream {
        final Set<Thread> touchedOn = new HashSet<>();
        boolean closed;

        @Override
        public synchronized void write(byte[] bytes, int offset, int length) {
            touchedOn.add(Thread.currentThread());
            super.write(bytes, offset, length);
        }

        @Override
        public synchronized void write(int b) {
            touchedOn.add(Thread.currentThread());
            super.write(b);
        }

        @Override
        public void close() {
            touchedOn.add(Thread.currentThread());
            closed = true;
        }

        String text() {
            return toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void bytesWrittenOnAnotherThreadReachTheSessionStreamOnlyOnTheTaskThreadInOrder() throws Exception {
        Thread task = Thread.currentThread();
        TaskThreadStreams streams = new TaskThreadStreams();
        SessionStream first = new SessionStream();
        SessionStream second = new SessionStream();
        OutputStream toFirst = streams.wrap(first);
        OutputStream toSecond = streams.wrap(second);
        toFirst.write("PAR1".getBytes(StandardCharsets.UTF_8)); // on the task's thread: straight through
        assertEquals("PAR1", first.text());

        writer.submit(() -> {
                    toFirst.write("row group 1;".getBytes(StandardCharsets.UTF_8));
                    toSecond.write('x');
                    toFirst.write("row group 2;".getBytes(StandardCharsets.UTF_8), 0, 12);
                    toFirst.flush();
                    return null;
                })
                .get();
        assertEquals("PAR1", first.text(), "held until the task's thread passes it on");
        assertEquals("", second.text());

        streams.passOn();
        assertEquals("PAR1row group 1;row group 2;", first.text());
        assertEquals("x", second.text());

        writer.submit(() -> {
                    toFirst.write("footer".getBytes(StandardCharsets.UTF_8));
                    return null;
                })
                .get();
        toFirst.write("PAR1".getBytes(StandardCharsets.UTF_8)); // what is held goes first
        assertEquals("PAR1row group 1;row group 2;footerPAR1", first.text());
        toFirst.close();
        assertTrue(first.closed);
        assertEquals(Set.of(task), first.touchedOn, "only the task's thread touched the session's stream");
        assertEquals(Set.of(task), second.touchedOn);
    }

    @Test
    void manyWritesOnAnotherThreadArriveWholeAndInOrderWhilePassedOnMeanwhile() throws Exception {
        TaskThreadStreams streams = new TaskThreadStreams();
        SessionStream session = new SessionStream();
        OutputStream out = streams.wrap(session);
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        for (int i = 0; i < 20_000; i++) {
            expected.write(("chunk " + i + ";").getBytes(StandardCharsets.UTF_8));
        }
        var writing = writer.submit(() -> {
            for (int i = 0; i < 20_000; i++) {
                out.write(("chunk " + i + ";").getBytes(StandardCharsets.UTF_8));
            }
            return null;
        });
        while (!writing.isDone()) {
            streams.passOn(); // as the task's thread does while the cells' writers work
        }
        writing.get();
        streams.passOn();
        assertArrayEquals(expected.toByteArray(), session.toByteArray());
        assertEquals(Set.of(Thread.currentThread()), session.touchedOn);
    }

    @Test
    void aCloseOnAnotherThreadLeavesTheSessionStreamToTheTaskThreadWhichAloneMayPassOn() throws Exception {
        Thread task = Thread.currentThread();
        TaskThreadStreams streams = new TaskThreadStreams();
        SessionStream session = new SessionStream();
        OutputStream out = streams.wrap(session);
        writer.submit(() -> {
                    out.write("footer".getBytes(StandardCharsets.UTF_8));
                    out.close(); // a Record Writer closing its stream as it finishes, on its lane
                    return null;
                })
                .get();
        assertFalse(session.closed);
        assertTrue(session.touchedOn.isEmpty(), "the session's stream untouched off the task's thread");
        ExecutionException passing = assertThrows(
                ExecutionException.class,
                () -> writer.submit(() -> {
                            streams.passOn();
                            return null;
                        })
                        .get());
        assertTrue(passing.getCause() instanceof IllegalStateException, String.valueOf(passing.getCause()));

        out.close();
        assertEquals("footer", session.text());
        assertTrue(session.closed);
        assertEquals(Set.of(task), session.touchedOn);
    }

    @Test
    void theSessionStreamIsClosedEvenWhenPassingOnFails() {
        TaskThreadStreams streams = new TaskThreadStreams();
        boolean[] closed = {false};
        OutputStream out = streams.wrap(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("content repository full");
            }

            @Override
            public void close() {
                closed[0] = true;
            }
        });
        assertThrows(IOException.class, () -> {
            writer.submit(() -> {
                        out.write(7);
                        return null;
                    })
                    .get();
            out.close();
        });
        assertTrue(closed[0], "an open stream would keep the session from removing the FlowFile");
    }

    @Test
    void aFailureOfTheSessionStreamIsThrownOnTheTaskThread() throws Exception {
        TaskThreadStreams streams = new TaskThreadStreams();
        OutputStream out = streams.wrap(new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                throw new IOException("content repository full");
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                throw new IOException("content repository full");
            }
        });
        writer.submit(() -> {
                    out.write(new byte[] {1, 2, 3});
                    return null;
                })
                .get(); // held: the writer's thread never meets the repository
        IOException failure = assertThrows(IOException.class, streams::passOn);
        assertEquals("content repository full", failure.getMessage());
    }
}
