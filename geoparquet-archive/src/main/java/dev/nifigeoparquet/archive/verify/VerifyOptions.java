package dev.nifigeoparquet.archive.verify;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What to verify.
 *
 * @param cells        the partitions to verify; empty for the whole archive (which also looks for partition
 *                     directories that have no commit log). Key uniqueness is checked across these partitions.
 * @param expectedRows the total the archive should hold (baseline + inserted - deleted), or empty to skip the
 *                     reconciliation
 * @param maxDuplicateKeysReported duplicate keys listed one by one before the rest are summarised. Defaults to
 *                     {@link #DEFAULT_MAX_DUPLICATE_KEYS_REPORTED}.
 * @param operations   operations to reconcile from the commit records (see {@link CommittedOperation})
 */
public record VerifyOptions(List<String> cells, OptionalLong expectedRows, int maxDuplicateKeysReported,
                            List<CommittedOperation> operations) {

    /** Enough to see a pattern without a report of millions of lines. */
    public static final int DEFAULT_MAX_DUPLICATE_KEYS_REPORTED = 100;

    public VerifyOptions {
        cells = List.copyOf(cells);
        operations = operations == null ? List.of() : List.copyOf(operations);
        Objects.requireNonNull(expectedRows, "expectedRows");
        if (maxDuplicateKeysReported < 0) {
            throw new IllegalArgumentException("maxDuplicateKeysReported must not be negative, was " + maxDuplicateKeysReported);
        }
    }

    public static VerifyOptions wholeArchive() {
        return new VerifyOptions(List.of(), OptionalLong.empty(), DEFAULT_MAX_DUPLICATE_KEYS_REPORTED, List.of());
    }

    public static VerifyOptions partitions(List<String> cells) {
        if (cells.isEmpty()) {
            throw new IllegalArgumentException("No partitions given; use wholeArchive() to verify every partition");
        }
        return new VerifyOptions(cells, OptionalLong.empty(), DEFAULT_MAX_DUPLICATE_KEYS_REPORTED, List.of());
    }

    public boolean wholeArchiveSelected() {
        return cells.isEmpty();
    }

    public VerifyOptions expectingRows(long rows) {
        if (rows < 0) {
            throw new IllegalArgumentException("Expected row count must not be negative, was " + rows);
        }
        return new VerifyOptions(cells, OptionalLong.of(rows), maxDuplicateKeysReported, operations);
    }

    /** Reconciles against {@code baseline + inserted - deleted}. */
    public VerifyOptions expectingRows(long baseline, long inserted, long deleted) {
        long expected = baseline + inserted - deleted;
        if (expected < 0) {
            throw new IllegalArgumentException("baseline " + baseline + " + inserted " + inserted + " - deleted " + deleted
                    + " is negative");
        }
        return expectingRows(expected);
    }

    /** Also reconciles these operations from the commit records. */
    public VerifyOptions reconciling(List<CommittedOperation> committed) {
        return new VerifyOptions(cells, expectedRows, maxDuplicateKeysReported, committed);
    }

    public VerifyOptions reportingAtMostDuplicateKeys(int count) {
        return new VerifyOptions(cells, expectedRows, count, operations);
    }
}
