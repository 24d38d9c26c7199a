package dev.nifigeoparquet.archive.testing;

import dev.nifigeoparquet.archive.testing.FaultInjectingStorage.Fault;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which storage calls of an operation a fault test fails, and with which fault.
 *
 * <p>The default test run takes a deterministic sample: every exclusive creation (the commit points of data, index and
 * transaction decisions) and an even spread of the other calls, the fault kind rotating over the chosen calls so that
 * every kind is exercised. The heavy profile ({@code -Pheavy}, system property {@value #PROPERTY} = {@code every}) runs
 * the full product: every call with every fault kind. The sample is a function of the call list and the rotation only
 * (system property {@value #ROTATION_PROPERTY}, 0 unless set), so a failure reproduces on every run with the same
 * rotation; another rotation shifts the spread, the capped commit points and the kinds over the calls, so successive
 * rotations cover calls the default leaves out.
 */
public final class FaultPoints {

    /** System property choosing the full product ({@code every}) or the sample (anything else). */
    public static final String PROPERTY = "fault.points";

    /** System property shifting the sample over the calls: a non-negative integer, 0 when unset. */
    public static final String ROTATION_PROPERTY = "fault.rotation";

    /** One fault to inject: the 1-based call that fails, how, and what that call was in the healthy run. */
    public record Point(int failAt, Fault fault, String call) {
        @Override
        public String toString() {
            return fault + " at call " + failAt + " (" + call + ")";
        }
    }

    private FaultPoints() {}

    /** Whether this run exercises every call with every fault kind. */
    public static boolean everyPoint() {
        return "every".equals(System.getProperty(PROPERTY));
    }

    /**
     * The points to exercise for an operation whose healthy run made {@code calls}: the full product in the heavy
     * profile, otherwise {@link #sample(List, int)}.
     */
    public static List<Point> of(List<String> calls, int spread) {
        return everyPoint() ? every(calls) : sample(calls, spread);
    }

    /** Every call with every fault kind. */
    public static List<Point> every(List<String> calls) {
        List<Point> points = new ArrayList<>();
        for (Fault fault : Fault.values()) {
            for (int failAt = 1; failAt <= calls.size(); failAt++) {
                points.add(new Point(failAt, fault, calls.get(failAt - 1)));
            }
        }
        return points;
    }

    /**
     * Every exclusive creation and about {@code spread} other calls evenly spaced (always including the first and the
     * last call), one fault kind each, the kind rotating in call order; when fewer points are chosen than there are
     * kinds, the missing kinds are added at the commit points (or the last call), so no kind is ever left out.
     */
    public static List<Point> sample(List<String> calls, int spread) {
        return sample(calls, spread, Integer.MAX_VALUE);
    }

    /**
     * As {@link #sample(List, int)}, with at most {@code maxCommitPoints} of the exclusive creations, evenly spaced and
     * always the first and the last: for storages where every point is slow and an operation commits many alike
     * (one entry per key-index shard).
     */
    public static List<Point> sample(List<String> calls, int spread, int maxCommitPoints) {
        return sample(calls, spread, maxCommitPoints, rotation());
    }

    /** As {@link #sample(List, int, int)}, shifted by {@code rotation} (see {@link #ROTATION_PROPERTY}). */
    public static List<Point> sample(List<String> calls, int spread, int maxCommitPoints, int rotation) {
        int total = calls.size();
        Set<Integer> commitPoints = commitPoints(calls, maxCommitPoints, rotation);
        int stride = Math.max(1, (total + spread - 1) / Math.max(1, spread));
        Fault[] kinds = Fault.values();
        List<Point> points = new ArrayList<>();
        Set<Fault> used = EnumSet.noneOf(Fault.class);
        int chosen = rotation;
        for (int failAt = 1; failAt <= total; failAt++) {
            String call = calls.get(failAt - 1);
            if (commitPoints.contains(failAt) || (failAt + rotation) % stride == 0 || failAt == 1 || failAt == total) {
                Fault fault = kinds[chosen++ % kinds.length];
                points.add(new Point(failAt, fault, call));
                used.add(fault);
            }
        }
        int lastCommitPoint = lastCommitPoint(calls);
        for (Fault fault : kinds) {
            if (!used.contains(fault) && total > 0) {
                points.add(new Point(lastCommitPoint, fault, calls.get(lastCommitPoint - 1)));
            }
        }
        return points;
    }

    /** The rotation this run samples with: {@value #ROTATION_PROPERTY}, 0 when unset. */
    public static int rotation() {
        String value = System.getProperty(ROTATION_PROPERTY, "");
        if (value.isBlank()) {
            return 0;
        }
        int rotation = Integer.parseInt(value.strip());
        if (rotation < 0) {
            throw new IllegalArgumentException(ROTATION_PROPERTY + " must not be negative: " + rotation);
        }
        return rotation;
    }

    /** A one-line account of what a run exercised, for the test output. */
    public static String describe(List<Point> points, int calls) {
        return points.size() + " fault points over " + calls + " calls ("
                + (everyPoint() ? "every call x every kind" : "sampled, kinds rotating, rotation " + rotation()) + ")";
    }

    private static Set<Integer> commitPoints(List<String> calls, int max, int rotation) {
        List<Integer> all = new ArrayList<>();
        for (int failAt = 1; failAt <= calls.size(); failAt++) {
            if (isCommitPoint(calls.get(failAt - 1))) {
                all.add(failAt);
            }
        }
        if (all.size() <= max) {
            return new HashSet<>(all);
        }
        // The first and the last always; the ones between evenly spaced, shifted by the rotation among the inner ones.
        Set<Integer> chosen = new HashSet<>();
        chosen.add(all.get(all.size() - 1));
        if (max > 1) {
            chosen.add(all.get(0));
        }
        int inner = all.size() - 2;
        for (int i = 1; i < max - 1; i++) {
            int evenly = (int) Math.round(i * (all.size() - 1) / (double) (max - 1));
            chosen.add(all.get(1 + Math.floorMod(evenly - 1 + rotation, inner)));
        }
        return chosen;
    }

    private static boolean isCommitPoint(String call) {
        return call.startsWith("createExclusive ");
    }

    private static int lastCommitPoint(List<String> calls) {
        for (int i = calls.size(); i >= 1; i--) {
            if (isCommitPoint(calls.get(i - 1))) {
                return i;
            }
        }
        return calls.size();
    }
}
