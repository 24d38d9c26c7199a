package dev.nifigeoparquet.archive.format;

import java.time.Duration;
import java.time.Instant;

/**
 * How long a writer may take between creating a staged or temporary object and committing it. Recovery removes
 * such objects only once they are older than the lease, so a concurrent writer on shared storage never loses
 * the files it is still working with.
 */
public record WriterLease(Duration duration) {

    public static final WriterLease DEFAULT = new WriterLease(Duration.ofHours(1));

    public WriterLease {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("Writer lease must not be negative: " + duration);
        }
    }

    public boolean expired(Instant lastModified, Instant now) {
        return !lastModified.plus(duration).isAfter(now);
    }
}
