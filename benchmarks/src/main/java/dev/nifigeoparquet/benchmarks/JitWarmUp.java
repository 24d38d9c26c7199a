package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Warms the JVM up as a NiFi that has run for a while is warm: repeats a pass of the work to be measured until the
 * JIT compilers have settled, that is until two passes in a row each cost them less than {@value #SETTLED_SHARE} of
 * the pass's wall time.
 *
 * <p>A fixed number of passes was not enough. The nightly delta's runs stop getting faster after about four passes,
 * but the compilers then still spend 0.8 to 2.5 s per pass of 6 to 7 s for ten more: time they take from the cores a
 * run on every core needs, so the measured runs were timed beside them. A tenth of a pass was not settled either:
 * the passes after it still cost the compilers 2 to 15% of their time, and the measured runs that followed it spent
 * 0.03 to 0.35 s of a 0.3 to 0.7 s run compiling, on the core a second worker needs and a one-thread run leaves them.
 * Methods called a few dozen times a run (footers, commit entries, page writers) take tens of passes to reach the
 * compilers' thresholds; after 40 to 60 passes a pass costs them 1 to 3%, with a spike now and then.
 */
final class JitWarmUp {

    static final int MIN_PASSES = 4;
    static final int MAX_PASSES = 80;
    static final double SETTLED_SHARE = 0.03;

    /** One pass of the work, on throwaway copies. */
    @FunctionalInterface
    interface Pass {
        void run() throws Exception;
    }

    /** How the warm-up ended: the passes it took and what the last one cost the compilers. */
    record Settled(int passes, double lastPassSeconds, double lastPassCompileSeconds, boolean settled) {

        void putInto(ObjectNode json) {
            ObjectNode node = json.putObject("jitWarmUp");
            node.put("passes", passes);
            node.put("lastPassSeconds", lastPassSeconds);
            node.put("lastPassJitCompileSeconds", lastPassCompileSeconds);
            node.put("settled", settled);
        }
    }

    private JitWarmUp() {}

    static Settled untilSettled(Pass pass) throws Exception {
        boolean measurable = Probe.jitCompileMillis() >= 0;
        double seconds = 0;
        double compileSeconds = 0;
        int settledInARow = 0;
        for (int passes = 1; ; passes++) {
            long compile0 = Probe.jitCompileMillis();
            long start = System.nanoTime();
            pass.run();
            seconds = (System.nanoTime() - start) / 1e9;
            compileSeconds = measurable ? (Probe.jitCompileMillis() - compile0) / 1e3 : 0;
            settledInARow = measurable && compileSeconds < SETTLED_SHARE * seconds ? settledInARow + 1 : 0;
            boolean settled = settledInARow >= 2;
            if (passes >= MIN_PASSES && (settled || passes == MAX_PASSES || !measurable)) {
                return new Settled(passes, seconds, compileSeconds, settled);
            }
        }
    }
}
