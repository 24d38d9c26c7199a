/**
 * The archive's records (docs/archive-format.md, sections 2, 3, 5.2 and 13): the descriptor, commit entries,
 * transaction decisions, leases and adoption records with their JSON parsers, and the layout of names. The protocol
 * that writes them is {@code commit}. API: {@link dev.nifigeoparquet.archive.format.ArchiveDescriptor}, {@link
 * dev.nifigeoparquet.archive.format.ArchiveLayout}, {@link dev.nifigeoparquet.archive.format.ArchiveJson}, {@link
 * dev.nifigeoparquet.archive.format.LeaseRecord}, {@link dev.nifigeoparquet.archive.format.AdoptionRecord}, {@link
 * dev.nifigeoparquet.archive.format.PartitionCommit}.
 */
package dev.nifigeoparquet.archive.format;
