/**
 * Where an archive lives (docs/archive-format.md, sections 5.1 and 12): the few primitives the commit protocol needs
 * (exclusive create, atomic publish, ranged reads, listing) and their cost accounting. API: {@link
 * dev.nifigeoparquet.archive.storage.ArchiveStorage} (the S3 module implements it), {@link
 * dev.nifigeoparquet.archive.storage.LocalArchiveStorage}, {@link dev.nifigeoparquet.archive.storage.StoredObject}, {@link
 * dev.nifigeoparquet.archive.storage.StorageCost}, {@link dev.nifigeoparquet.archive.storage.StorageMeter}, {@link
 * dev.nifigeoparquet.archive.storage.CountingPositionOutputStream}, {@link
 * dev.nifigeoparquet.archive.storage.AbandonableStream} (what a storage's staged streams implement when closing one
 * publishes it).
 */
package dev.nifigeoparquet.archive.storage;
