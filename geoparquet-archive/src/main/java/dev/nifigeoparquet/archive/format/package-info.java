/**
 * The archive's records and its commit protocol (docs/archive-format.md, sections 3, 5 and 13): the descriptor, commit
 * entries, transaction decisions and leases with their JSON parsers, the layout of names, and the committer that
 * stages, publishes and recovers partitions. API: {@link dev.nifigeoparquet.archive.format.ArchiveDescriptor}, {@link dev.nifigeoparquet.archive.format.ArchiveLayout}, {@link
 * dev.nifigeoparquet.archive.format.ArchiveJson}, {@link dev.nifigeoparquet.archive.format.ArchiveLease}, {@link
 * dev.nifigeoparquet.archive.format.LeaseRecord}, {@link dev.nifigeoparquet.archive.format.AdoptionRecord}, {@link
 * dev.nifigeoparquet.archive.format.PartitionCommit}.
 */
package dev.nifigeoparquet.archive.format;
