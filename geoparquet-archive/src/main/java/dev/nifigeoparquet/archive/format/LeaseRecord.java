package dev.nifigeoparquet.archive.format;

import java.time.Instant;
import java.util.Objects;

/**
 * One record of a lease ({@code _geoparquet_archive/leases/<lease>/<version>.json}, docs/archive-format.md, section
 * 5.12), created exclusively once: a holder took or renewed the lease until {@code expiresAt}, or released it, its work
 * done or given up.
 *
 * @param lease      the lease's name, for example {@code adoption} or {@code sweep-compaction}
 * @param version    the record's version, one above the record it follows
 * @param holder     who holds (or held) the lease: a process and host, for operators
 * @param state      whether the lease is held, or was released with its work done or given up
 * @param acquiredAt when the holder took the lease (kept by its renewals and its release)
 * @param expiresAt  when a held lease lapses if its holder neither renews nor releases it
 */
public record LeaseRecord(
        String lease, long version, String holder, State state, Instant acquiredAt, Instant expiresAt) {

    /** The lease record format this implementation writes and reads up to. */
    public static final int FORMAT_VERSION = 1;

    public enum State {
        /** Held until {@code expiresAt}. */
        HELD,
        /** Released, its work done: a schedule counts the next run from {@code acquiredAt}. */
        RELEASED,
        /** Released, its work given up (it failed): the work is due again at once. */
        ABANDONED
    }

    public LeaseRecord {
        Objects.requireNonNull(lease, "lease");
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(acquiredAt, "acquiredAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (version < 1) {
            throw new IllegalArgumentException("A lease record's version is at least 1, not " + version);
        }
    }

    /** Whether someone holds the lease at {@code now}: held, and not lapsed. */
    public boolean heldAt(Instant now) {
        return state == State.HELD && expiresAt.isAfter(now);
    }
}
