/**
 * The engine's threads and retries, which no section of docs/archive-format.md specifies: the archive's worker pool
 * ({@link dev.nifigeoparquet.archive.concurrent.Workers}, API), work computed a block ahead on a helper thread ({@link
 * dev.nifigeoparquet.archive.concurrent.ComputeAhead}, API), the daemon thread pools helpers run on ({@link
 * dev.nifigeoparquet.archive.concurrent.DaemonThreadPools}, API) and the one retry loop of a commit that lost a race.
 */
package dev.nifigeoparquet.archive.concurrent;
