/**
 * The commit protocol (docs/archive-format.md, sections 5.1 to 5.12): staging a partition's new data files, committing
 * them by creating its next log entry (one partition, or several under a transaction decision), publishing them,
 * recovering a partition a writer left part-way, and the writer leases that bound how long that takes. API: {@link
 * dev.nifigeoparquet.archive.commit.ArchiveLease}.
 */
package dev.nifigeoparquet.archive.commit;
