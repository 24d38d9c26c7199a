package dev.nifigeoparquet.archive.format;

import java.time.Duration;

/**
 * Settings of the commit protocol, recorded in the archive descriptor so every writer of an archive agrees.
 *
 * @param operationIdRetention how many operation ids each partition remembers for replay detection.
 *                             Defaults to 256: a nightly delta per partition is recognised when replayed
 *                             within the following eight months.
 * @param logEntryRetention    how many commit entries each partition keeps; older ones are pruned after each
 *                             commit. Every entry holds the full state, so 1 would suffice; defaults to 10 for
 *                             history and for readers that listed the log a moment ago.
 * @param writerLeaseSeconds   how old a staged or temporary object must be before recovery may delete it.
 *                             Defaults to 3600: longer than any single partition rewrite.
 * @param maxCommitAttempts    how often an operation is redone after losing a commit race before giving up.
 *                             Defaults to 8.
 */
public record ProtocolSettings(int operationIdRetention, int logEntryRetention, long writerLeaseSeconds, int maxCommitAttempts) {

    public static final ProtocolSettings DEFAULT = new ProtocolSettings(256, 10, 3600, 8);

    public ProtocolSettings {
        requirePositive("operationIdRetention", operationIdRetention);
        requirePositive("logEntryRetention", logEntryRetention);
        requirePositive("maxCommitAttempts", maxCommitAttempts);
        if (writerLeaseSeconds < 0) {
            throw new IllegalArgumentException("writerLeaseSeconds must not be negative, was " + writerLeaseSeconds);
        }
    }

    public WriterLease lease() {
        return new WriterLease(Duration.ofSeconds(writerLeaseSeconds));
    }

    public ProtocolSettings withWriterLeaseSeconds(long seconds) {
        return new ProtocolSettings(operationIdRetention, logEntryRetention, seconds, maxCommitAttempts);
    }

    private static void requirePositive(String name, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(name + " must be at least 1, was " + value);
        }
    }
}
