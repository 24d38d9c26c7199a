package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;

/**
 * How scenarios 4, 6, 7, 8 and 9 run their approaches: in rounds, interleaved in an order that turns each round, each
 * run on a fresh copy, the wall seconds reported as median, least and most, and every measured copy checked against a
 * reference copy.
 */
final class Rounds {

    private Rounds() {}

    /** The {@code k}th approach of a round: each round starts one further along, so that none always runs first. */
    static <A> A inTurn(A[] approaches, int round, int k) {
        return approaches[Math.floorMod(round + k, approaches.length)];
    }

    /** Runs' wall seconds as the results give them: the median, the least and the most, and every run in order. */
    static void putWallSeconds(ObjectNode approach, List<Double> seconds) {
        approach.put("medianWallSeconds", Probe.median(seconds, Double::doubleValue));
        approach.put("minWallSeconds", Collections.min(seconds));
        approach.put("maxWallSeconds", Collections.max(seconds));
        ArrayNode each = approach.putArray("wallSecondsOfEachRun");
        seconds.forEach(each::add);
    }

    /**
     * The copies of one archive and delta: the first copy offered as a reference has its rows counted by DuckDB
     * against the archive's rows plus the delta's net rows, one per key; every measured copy's digest (rows, and the
     * sum of every row's hash with its cell) must equal the reference's.
     */
    static final class Copies {
        private final DuckDb referee;
        private final long expectedRows;
        private DuckDb.Digest reference;
        private ObjectNode verification;
        private long verified;
        private long differing;

        Copies(DuckDb referee, long expectedRows) {
            this.referee = referee;
            this.expectedRows = expectedRows;
        }

        /** Checks the copy at {@code root}, which must still exist. */
        void check(Path root, boolean mayBeReference, boolean measured) throws Exception {
            DuckDb.Digest digest = referee.digest(root);
            if (reference == null && mayBeReference) {
                reference = digest;
                long rows = referee.countRows(root);
                long keys =
                        referee.count("SELECT count(DISTINCT parcel_id) FROM read_parquet(" + DuckDb.glob(root) + ")");
                verification = JsonNodeFactory.instance.objectNode();
                verification.put("expectedRows", expectedRows);
                verification.put("rowsCountedByDuckDb", rows);
                verification.put("distinctKeysCountedByDuckDb", keys);
                verification.put("referenceHolds", rows == expectedRows && keys == expectedRows);
            }
            if (measured) {
                verified++;
                differing += digest.equals(reference) ? 0 : 1;
            }
        }

        long verified() {
            return verified;
        }

        long differing() {
            return differing;
        }

        boolean holds() {
            return verification.path("referenceHolds").asBoolean() && differing == 0;
        }

        /** The reference's counts and the measured copies' check, as {@code verification} in the results. */
        ObjectNode verification() {
            ObjectNode out = verification.deepCopy();
            out.put("measuredCopiesVerified", verified);
            out.put("measuredCopiesDifferingFromTheReference", differing);
            out.put("holds", holds());
            return out;
        }
    }
}
