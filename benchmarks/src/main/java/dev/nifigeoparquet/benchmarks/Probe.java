package dev.nifigeoparquet.benchmarks;

import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;

/**
 * Measures one phase of a scenario in this process: wall time, peak heap, peak RSS, and the bytes moved through
 * read/write system calls.
 *
 * <ul>
 *   <li>Peak heap is the largest heap occupancy seen by a sampler polling every 2 ms during the phase (garbage
 *       not yet collected included, so in a large heap it reflects the allocation rate as much as the live set;
 *       the small-heap proof, a child JVM under {@code -Xmx256m}, is the figure to trust). The sum of the heap
 *       pools' peaks, an upper bound, is kept too.</li>
 *   <li>CPU time is the whole process's (every thread, DuckDB's native workers included), so on a machine shared
 *       with other builds it says what the work cost even when the wall clock says mostly how long it waited.</li>
 *   <li>JIT compilation time is what the JVM's compiler threads spent during the phase: on two cores it is work the
 *       phase's own threads compete with, so it says how far the JVM was from warm.</li>
 *   <li>Peak RSS is {@code VmHWM} from {@code /proc/self/status}, reset at the start by writing 5 to
 *       {@code /proc/self/clear_refs}; it includes DuckDB's native memory, which the heap does not.</li>
 *   <li>Stolen CPU time is what the hypervisor gave other guests while this machine's CPUs wanted to run (the
 *       {@code steal} column of {@code /proc/stat}, every CPU): on a shared host it says why one run of a phase took
 *       longer than its repeats, and a run on every core suffers it more than a run on one.</li>
 *   <li>CPU time by thread group, from {@code /proc/self/task/<tid>/stat} (user plus system time, in ticks of 10 ms):
 *       the threads' names without their numbers, as the kernel keeps them (15 characters), so a run's workers, its
 *       calling thread, the JIT compilers and the collector show apart. The compilers and the collector take the
 *       second core a one-thread run leaves idle, but compete with a run on every core.</li>
 *   <li>{@code rchar}/{@code wchar} from {@code /proc/self/io}: bytes through read and write calls, page cache
 *       hits included, so they count what a reader asked for even when the disk was not touched.</li>
 * </ul>
 */
final class Probe {

    /** What one phase cost. Values that could not be read on this platform are -1. */
    record Measurement(
            double seconds,
            double cpuSeconds,
            long heapPeakBytes,
            long heapPoolPeakSumBytes,
            long rssPeakBytes,
            boolean rssPeakReset,
            long syscallBytesRead,
            long syscallBytesWritten,
            double jitCompileSeconds,
            double stolenCpuSeconds,
            Map<String, Double> cpuSecondsByThreadGroup) {}

    /** The run of median wall time among an odd number of runs (the later middle one of an even number). */
    static <T> T median(List<T> runs, ToDoubleFunction<T> seconds) {
        List<T> sorted = new ArrayList<>(runs);
        sorted.sort(Comparator.comparingDouble(seconds));
        return sorted.get(sorted.size() / 2);
    }

    /** A phase's result and its measurement. */
    record Timed<T>(T value, Measurement measurement) {}

    private Probe() {}

    static <T> Timed<T> measure(Callable<T> phase) throws Exception {
        System.gc();
        boolean reset = resetPeaks();
        long[] io0 = io();
        HeapSampler sampler = new HeapSampler();
        sampler.start();
        long cpu0 = processCpuNanos();
        long jit0 = jitCompileMillis();
        long steal0 = stolenTicks();
        Map<String, ThreadTicks> threads0 = threadTicks();
        long start = System.nanoTime();
        T value;
        try {
            value = phase.call();
        } finally {
            sampler.stopSampling();
        }
        long nanos = System.nanoTime() - start;
        long cpu1 = processCpuNanos();
        long jit1 = jitCompileMillis();
        long steal1 = stolenTicks();
        Map<String, ThreadTicks> threads1 = threadTicks();
        long[] io1 = io();
        Measurement m = new Measurement(
                nanos / 1e9,
                cpu0 < 0 ? -1 : (cpu1 - cpu0) / 1e9,
                sampler.max(),
                heapPeak(),
                rssPeak(),
                reset,
                io0[0] < 0 ? -1 : io1[0] - io0[0],
                io0[1] < 0 ? -1 : io1[1] - io0[1],
                jit0 < 0 ? -1 : (jit1 - jit0) / 1e3,
                steal0 < 0 || steal1 < 0 ? -1 : (steal1 - steal0) / (double) TICKS_PER_SECOND,
                groupSecondsBetween(threads0, threads1));
        return new Timed<>(value, m);
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : -1;
    }

    /** The JIT compilers' accumulated time; -1 where the JVM does not say. */
    static long jitCompileMillis() {
        var compilation = ManagementFactory.getCompilationMXBean();
        return compilation != null && compilation.isCompilationTimeMonitoringSupported()
                ? compilation.getTotalCompilationTime()
                : -1;
    }

    /** Polls the heap's occupancy until stopped and keeps the largest value seen. */
    private static final class HeapSampler extends Thread {
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        private volatile boolean running = true;
        private volatile long max;

        HeapSampler() {
            super("heap-sampler");
            setDaemon(true);
            max = memory.getHeapMemoryUsage().getUsed();
        }

        @Override
        public void run() {
            while (running) {
                max = Math.max(max, memory.getHeapMemoryUsage().getUsed());
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        void stopSampling() throws InterruptedException {
            max = Math.max(max, memory.getHeapMemoryUsage().getUsed());
            running = false;
            join();
        }

        long max() {
            return max;
        }
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
                    return Long.parseLong(line.substring(field.length()).trim().split("\\s+", -1)[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    /** Linux's USER_HZ, the unit of /proc/stat, 100 on every architecture Java runs on. */
    private static final int TICKS_PER_SECOND = 100;

    /** The steal column of /proc/stat's all-CPU line, or -1. */
    private static long stolenTicks() {
        try (var lines = Files.lines(Path.of("/proc/stat"))) {
            String[] cpu = lines.findFirst().orElse("").trim().split("\\s+", -1);
            return cpu.length > 8 && cpu[0].equals("cpu") ? Long.parseLong(cpu[8]) : -1;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** A live thread's group (its name without digits) and CPU ticks so far. */
    private record ThreadTicks(String group, long ticks) {}

    /** The process's live threads by thread id; empty where /proc is absent. */
    private static Map<String, ThreadTicks> threadTicks() {
        Map<String, ThreadTicks> threads = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path task : tasks) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    // The name sits in parentheses and may hold spaces; the fields after it are space-separated.
                    int close = stat.lastIndexOf(')');
                    String name = stat.substring(stat.indexOf('(') + 1, close);
                    String[] fields = stat.substring(close + 2).split(" ", -1);
                    long used = Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
                    threads.put(
                            task.getFileName().toString(),
                            new ThreadTicks(
                                    THREAD_NUMBERS.matcher(name).replaceAll("").strip(), used));
                } catch (IOException | RuntimeException e) {
                    // The thread ended while the directory was read.
                }
            }
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
        return threads;
    }

    private static final Pattern THREAD_NUMBERS = Pattern.compile("[-#]?[0-9]+");

    /**
     * The seconds each group used between the two readings, thread by thread (a thread started meanwhile counts from
     * zero); a thread that ended between them loses its ticks, which the process's CPU time keeps.
     */
    private static Map<String, Double> groupSecondsBetween(
            Map<String, ThreadTicks> before, Map<String, ThreadTicks> after) {
        Map<String, Long> ticks = new TreeMap<>();
        after.forEach((tid, thread) -> {
            ThreadTicks earlier = before.get(tid);
            long used = thread.ticks() - (earlier == null ? 0 : earlier.ticks());
            if (used > 0) {
                ticks.merge(thread.group(), used, Long::sum);
            }
        });
        Map<String, Double> seconds = new TreeMap<>();
        ticks.forEach((group, used) -> seconds.put(group, used / (double) TICKS_PER_SECOND));
        return seconds;
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
