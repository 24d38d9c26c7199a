package dev.nifigeoparquet.archive.format;

import java.time.Duration;

/**
 * Settings of the commit protocol, recorded in the archive descriptor so every writer of an archive agrees.
 *
 * @param operationIdRetention       how many operation ids each partition remembers for replay detection.
 *                                   Defaults to 256: a nightly delta per partition is recognised when replayed
 *                                   within the following eight months.
 * @param logEntryRetention          how many commit entries each partition keeps; older ones are pruned after each
 *                                   commit. Every entry holds the full state, so 1 would suffice; defaults to 10 for
 *                                   history and for readers that listed the log a moment ago.
 * @param writerLeaseSeconds         how old a staged or temporary object must be before recovery may delete it.
 *                                   Defaults to 3600: longer than any single partition rewrite.
 * @param maxCommitAttempts          how often an operation is redone after losing a commit race before giving up.
 *                                   Defaults to 8.
 * @param transactionTimeoutSeconds  how long a transaction's entries may stay undecided before another writer gives
 *                                   the transaction up. A writer creates its entries only once everything is staged,
 *                                   so they are decided within moments unless it died. Defaults to 60; the writer lease
 *                                   caps it. Absent (0) in descriptors written before it existed, which means the default.
 * @param tombstoneRetentionSeconds  how long the key index keeps the stamp of a deleted key (its tombstone, section 6.4)
 *                                   after it was recorded: a delta sequenced before the deletion that arrives later than
 *                                   this may bring the key back. Defaults to 30 days, longer than any backlog of nights
 *                                   an operator lets build up. Absent (0) in descriptors written before it existed, which
 *                                   means the default.
 */
public record ProtocolSettings(
        int operationIdRetention,
        int logEntryRetention,
        long writerLeaseSeconds,
        int maxCommitAttempts,
        long transactionTimeoutSeconds,
        long tombstoneRetentionSeconds) {

    public static final long DEFAULT_TRANSACTION_TIMEOUT_SECONDS = 60;
    public static final long DEFAULT_TOMBSTONE_RETENTION_SECONDS =
            Duration.ofDays(30).toSeconds();
    public static final ProtocolSettings DEFAULT = new ProtocolSettings(
            256, 10, 3600, 8, DEFAULT_TRANSACTION_TIMEOUT_SECONDS, DEFAULT_TOMBSTONE_RETENTION_SECONDS);

    public ProtocolSettings {
        requirePositive("operationIdRetention", operationIdRetention);
        requirePositive("logEntryRetention", logEntryRetention);
        requirePositive("maxCommitAttempts", maxCommitAttempts);
        if (writerLeaseSeconds < 0) {
            throw new IllegalArgumentException("writerLeaseSeconds must not be negative, was " + writerLeaseSeconds);
        }
        if (transactionTimeoutSeconds < 0) {
            throw new IllegalArgumentException(
                    "transactionTimeoutSeconds must not be negative, was " + transactionTimeoutSeconds);
        }
        if (transactionTimeoutSeconds == 0) {
            transactionTimeoutSeconds = DEFAULT_TRANSACTION_TIMEOUT_SECONDS;
        }
        if (tombstoneRetentionSeconds < 0) {
            throw new IllegalArgumentException(
                    "tombstoneRetentionSeconds must not be negative, was " + tombstoneRetentionSeconds);
        }
        if (tombstoneRetentionSeconds == 0) {
            tombstoneRetentionSeconds = DEFAULT_TOMBSTONE_RETENTION_SECONDS;
        }
    }

    public WriterLease lease() {
        return new WriterLease(Duration.ofSeconds(writerLeaseSeconds));
    }

    /** How long an undecided transaction entry is waited for before it is given up: the timeout, at most the lease. */
    public WriterLease pendingTransactionLease() {
        return new WriterLease(Duration.ofSeconds(Math.min(writerLeaseSeconds, transactionTimeoutSeconds)));
    }

    public ProtocolSettings withWriterLeaseSeconds(long seconds) {
        return new ProtocolSettings(
                operationIdRetention,
                logEntryRetention,
                seconds,
                maxCommitAttempts,
                transactionTimeoutSeconds,
                tombstoneRetentionSeconds);
    }

    private static void requirePositive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + value);
        }
    }
}
