package dev.nifigeoparquet.archive.verify;

import dev.nifigeoparquet.archive.error.RejectedInputException;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What to verify.
 *
 * @param cells        the partitions to verify; empty for the whole archive (which also looks for partition
 *                     directories that have no commit log). Key uniqueness is checked across these partitions, and
 *                     their keys are looked for in the partitions the key index names outside them.
 * @param expectedRows the total the archive should hold (baseline + inserted - deleted), or empty to skip the
 *                     reconciliation
 * @param maxDuplicateKeysReported duplicate keys (and misplaced rows) listed one by one before the rest are
 *                     summarised. Defaults to {@link #DEFAULT_MAX_DUPLICATE_KEYS_REPORTED}.
 * @param placement    whether to key rows again and report those outside the partition of their centroid
 *                     ({@link Placement#NONE} by default: it decodes every checked geometry)
 * @param operations   operations to reconcile from the commit records (see {@link CommittedOperation})
 */
public record VerifyOptions(
        List<String> cells,
        OptionalLong expectedRows,
        int maxDuplicateKeysReported,
        Placement placement,
        List<CommittedOperation> operations) {

    /**
     * Which rows the placement check keys again (format section 6.1): none, all, or a sample of about
     * {@code sampleRows} rows spread evenly over the verified partitions (every k-th row, k the committed rows
     * divided by the sample size, rounded up).
     *
     * @param enabled    whether to check at all
     * @param sampleRows 0 for every row; otherwise about how many rows to check
     */
    public record Placement(boolean enabled, long sampleRows) {

        /** No placement check. */
        public static final Placement NONE = new Placement(false, 0);
        /** Every row is keyed again. */
        public static final Placement ALL = new Placement(true, 0);

        public Placement {
            if (sampleRows < 0 || (!enabled && sampleRows != 0)) {
                throw new RejectedInputException("A placement sample is a positive number of rows, was " + sampleRows);
            }
        }

        /**
         * The check a text asks for, as the command line and the processor take it: {@code none} (or null), {@code all},
         * or a positive number of rows to sample; case and surrounding white space do not matter.
         *
         * @throws RejectedInputException for any other text
         */
        public static Placement parse(String text) {
            String value = text == null ? "none" : text.strip();
            if (value.equalsIgnoreCase("none")) {
                return NONE;
            }
            if (value.equalsIgnoreCase("all")) {
                return ALL;
            }
            try {
                long rows = Long.parseLong(value);
                if (rows > 0) {
                    return sample(rows);
                }
            } catch (NumberFormatException notANumber) {
                // refused below
            }
            throw new RejectedInputException(
                    "A placement check is 'none', 'all' or a positive number of rows to sample, not '" + value + "'");
        }

        /** About {@code rows} rows, spread evenly. */
        public static Placement sample(long rows) {
            if (rows <= 0) {
                throw new RejectedInputException("A placement sample must have at least one row, was " + rows);
            }
            return new Placement(true, rows);
        }

        /** Check every {@code stride()}-th row of {@code totalRows}. */
        public long stride(long totalRows) {
            return sampleRows == 0 ? 1 : Math.max(1, (totalRows + sampleRows - 1) / sampleRows);
        }
    }

    /** Enough to see a pattern without a report of millions of lines. */
    public static final int DEFAULT_MAX_DUPLICATE_KEYS_REPORTED = 100;

    public VerifyOptions(List<String> cells, OptionalLong expectedRows, int maxDuplicateKeysReported) {
        this(cells, expectedRows, maxDuplicateKeysReported, Placement.NONE, List.of());
    }

    public VerifyOptions {
        cells = List.copyOf(cells);
        Objects.requireNonNull(placement, "placement");
        operations = operations == null ? List.of() : List.copyOf(operations);
        Objects.requireNonNull(expectedRows, "expectedRows");
        if (maxDuplicateKeysReported < 0) {
            throw new RejectedInputException(
                    "maxDuplicateKeysReported must not be negative, was " + maxDuplicateKeysReported);
        }
    }

    public static VerifyOptions wholeArchive() {
        return new VerifyOptions(List.of(), OptionalLong.empty(), DEFAULT_MAX_DUPLICATE_KEYS_REPORTED);
    }

    public static VerifyOptions partitions(List<String> cells) {
        if (cells.isEmpty()) {
            throw new RejectedInputException("No partitions given; use wholeArchive() to verify every partition");
        }
        return new VerifyOptions(cells, OptionalLong.empty(), DEFAULT_MAX_DUPLICATE_KEYS_REPORTED);
    }

    public boolean wholeArchiveSelected() {
        return cells.isEmpty();
    }

    public VerifyOptions expectingRows(long rows) {
        if (rows < 0) {
            throw new RejectedInputException("Expected row count must not be negative, was " + rows);
        }
        return new VerifyOptions(cells, OptionalLong.of(rows), maxDuplicateKeysReported, placement, operations);
    }

    /** Reconciles against {@code baseline + inserted - deleted}. */
    public VerifyOptions expectingRows(long baseline, long inserted, long deleted) {
        long expected = baseline + inserted - deleted;
        if (expected < 0) {
            throw new RejectedInputException(
                    "baseline " + baseline + " + inserted " + inserted + " - deleted " + deleted + " is negative");
        }
        return expectingRows(expected);
    }

    /** Also reconciles these operations from the commit records. */
    public VerifyOptions reconciling(List<CommittedOperation> committed) {
        return new VerifyOptions(cells, expectedRows, maxDuplicateKeysReported, placement, committed);
    }

    public VerifyOptions reportingAtMostDuplicateKeys(int count) {
        return new VerifyOptions(cells, expectedRows, count, placement, operations);
    }

    /** Also keys rows again and reports those that lie outside their partition (format section 6.1). */
    public VerifyOptions checkingPlacement(Placement check) {
        return new VerifyOptions(cells, expectedRows, maxDuplicateKeysReported, check, operations);
    }
}
