package dev.nifigeoparquet.processors;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Content streams of a session whose writers run on other threads. A NiFi session and its streams belong to the task's
 * thread, and a failed write rolls the session back from whichever thread made it; so what a writer writes on another
 * thread is held, and reaches the session's stream only when the task's thread {@linkplain #passOn() passes it on}.
 * What is written on the task's thread goes straight through, after whatever its stream holds.
 *
 * <p>Made on the task's thread, which alone passes bytes on and closes the session's streams; one other thread at a time
 * may write to each stream. Bytes wait for the task's thread in memory: at most what the writers write between two
 * passes, which for a GeoParquet cell is its file as it finishes, or a row group as it fills.
 */
final class TaskThreadStreams {

    private final Thread taskThread = Thread.currentThread();
    private final ConcurrentLinkedQueue<Held> holding = new ConcurrentLinkedQueue<>();

    /** A stream for a writer on any thread, whose bytes reach {@code target} on the task's thread. */
    OutputStream wrap(OutputStream target) {
        return new Held(target);
    }

    /** Passes every byte held now on to its stream. The task's thread only. */
    void passOn() throws IOException {
        requireTaskThread();
        Held held;
        while ((held = holding.poll()) != null) {
            held.passOn();
        }
    }

    private void requireTaskThread() {
        if (Thread.currentThread() != taskThread) {
            throw new IllegalStateException("Only the task's thread may write to the session's streams");
        }
    }

    /** One stream: the bytes it holds, in the order they were written. */
    private final class Held extends OutputStream {
        private final OutputStream target;
        private ByteArrayOutputStream held = new ByteArrayOutputStream(); // guarded by this

        Held(OutputStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) throws IOException {
            if (Thread.currentThread() == taskThread) {
                passOn();
                target.write(bytes, offset, length);
                return;
            }
            boolean first;
            synchronized (this) {
                first = held.size() == 0;
                held.write(bytes, offset, length);
            }
            if (first) {
                holding.add(this);
            }
        }

        /** A flush on another thread has nothing to flush to yet; the task's thread flushes the session's stream. */
        @Override
        public void flush() throws IOException {
            if (Thread.currentThread() == taskThread) {
                passOn();
                target.flush();
            }
        }

        /**
         * On the task's thread, passes on what is held and closes the session's stream. A writer that closes its stream
         * on another thread leaves both to the task's thread, which closes every cell's stream when the cell is done.
         */
        @Override
        public void close() throws IOException {
            if (Thread.currentThread() != taskThread) {
                return;
            }
            try {
                passOn();
            } finally {
                target.close();
            }
        }

        /** Writes what is held to the session's stream; a new buffer takes the next bytes, so none is kept grown. */
        void passOn() throws IOException {
            ByteArrayOutputStream taken;
            synchronized (this) {
                if (held.size() == 0) {
                    return;
                }
                taken = held;
                held = new ByteArrayOutputStream();
            }
            taken.writeTo(target);
        }
    }
}
