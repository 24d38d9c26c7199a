package dev.nifigeoparquet.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * Measures one phase of a scenario in this process: wall time, peak heap, peak RSS, and the bytes moved through
 * read/write system calls.
 *
 * <ul>
 *   <li>Peak heap is the sum of the heap pools' peak usage since the phase began (pools are reset at the start).
 *       Pools peak at different moments, so this is an upper bound, and in a large heap it includes garbage not
 *       yet collected; the small-heap proof (a child JVM under {@code -Xmx256m}) is the figure to trust.</li>
 *   <li>Peak RSS is {@code VmHWM} from {@code /proc/self/status}, reset at the start by writing 5 to
 *       {@code /proc/self/clear_refs}; it includes DuckDB's native memory, which the heap does not.</li>
 *   <li>{@code rchar}/{@code wchar} from {@code /proc/self/io}: bytes through read and write calls, page cache
 *       hits included, so they count what a reader asked for even when the disk was not touched.</li>
 * </ul>
 */
final class Probe {

    /** What one phase cost. Values that could not be read on this platform are -1. */
    record Measurement(double seconds, long heapPeakBytes, long rssPeakBytes, boolean rssPeakReset,
                       long syscallBytesRead, long syscallBytesWritten) {
    }

    /** A phase's result and its measurement. */
    record Timed<T>(T value, Measurement measurement) {
    }

    private Probe() {
    }

    static <T> Timed<T> measure(Callable<T> phase) throws Exception {
        System.gc();
        boolean reset = resetPeaks();
        long[] io0 = io();
        long start = System.nanoTime();
        T value = phase.call();
        long nanos = System.nanoTime() - start;
        long[] io1 = io();
        Measurement m = new Measurement(nanos / 1e9, heapPeak(), rssPeak(), reset,
                io0[0] < 0 ? -1 : io1[0] - io0[0], io0[1] < 0 ? -1 : io1[1] - io0[1]);
        return new Timed<>(value, m);
    }

    private static boolean resetPeaks() {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                pool.resetPeakUsage();
            }
        }
        try {
            Files.writeString(Path.of("/proc/self/clear_refs"), "5");
            return true;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return false;
        }
    }

    static long heapPeak() {
        long sum = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                sum += pool.getPeakUsage().getUsed();
            }
        }
        return sum;
    }

    /** VmHWM in bytes, or -1 when /proc is not there. */
    static long rssPeak() {
        return procStatus("VmHWM:");
    }

    private static long procStatus(String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith(field)) {
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+")[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** rchar and wchar, or -1s. */
    private static long[] io() {
        long rchar = -1, wchar = -1;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/io"))) {
                if (line.startsWith("rchar:")) {
                    rchar = Long.parseLong(line.substring(6).trim());
                } else if (line.startsWith("wchar:")) {
                    wchar = Long.parseLong(line.substring(6).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return new long[] {-1, -1};
        }
        return new long[] {rchar, wchar};
    }
}
