/**
 * Adopting an existing Hive-partitioned GeoParquet dataset as an archive (docs/archive-format.md, section 8). API:
 * {@link dev.nifigeoparquet.archive.adoption.ArchiveAdopter}, {@link dev.nifigeoparquet.archive.adoption.AdoptionOptions},
 * {@link dev.nifigeoparquet.archive.adoption.AdoptionReport}.
 */
package dev.nifigeoparquet.archive.adoption;
