package dev.nifigeoparquet.cli;

import java.io.PrintWriter;

/**
 * Progress of long work on stderr (so stdout stays the command's result), silenced by {@code --quiet}. A counter
 * reports at most every tenth of its total and never more than once a second.
 */
final class Progress {

    private static final long MIN_INTERVAL_NANOS = 1_000_000_000L;

    private final PrintWriter err;
    private final boolean quiet;

    Progress(PrintWriter err, boolean quiet) {
        this.err = err;
        this.quiet = quiet;
    }

    static Progress silent() {
        return new Progress(new PrintWriter(PrintWriter.nullWriter()), true);
    }

    void note(String message) {
        if (!quiet) {
            err.println(message);
            err.flush();
        }
    }

    Counter counter(String what, long total) {
        return new Counter(what, total);
    }

    /** Counts work done out of a known total. */
    final class Counter {
        private final String what;
        private final long total;
        private final long started = System.nanoTime();
        private long done;
        private long lastDecile;
        private long lastReport = started;

        private Counter(String what, long total) {
            this.what = what;
            this.total = total;
        }

        void add(long count) {
            done += count;
            long decile = total == 0 ? 10 : done * 10 / total;
            long now = System.nanoTime();
            if (decile > lastDecile && now - lastReport >= MIN_INTERVAL_NANOS && done < total) {
                lastDecile = decile;
                lastReport = now;
                note(String.format("  %s: %,d of %,d (%d%%)", what, done, total, done * 100 / Math.max(1, total)));
            }
        }

        void finish() {
            finish(null);
        }

        /** Reports the end; {@code detail}, when given, says what the steps counted were. */
        void finish(String detail) {
            note(String.format(
                    "  %s: %,d done in %.1f s%s",
                    what, done, (System.nanoTime() - started) / 1e9, detail == null ? "" : " (" + detail + ")"));
        }
    }
}
