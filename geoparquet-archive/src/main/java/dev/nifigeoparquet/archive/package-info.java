/**
 * The engine's entry points (docs/archive-format.md, sections 1, 3 and 7): {@link
 * dev.nifigeoparquet.archive.GeoParquetArchive} opens an archive and holds what every operation shares (descriptor,
 * canonical footer, keyer, key index, workers); {@link dev.nifigeoparquet.archive.ArchiveCreator} creates one from an
 * {@link dev.nifigeoparquet.archive.ArchiveSpec}, and says when there is none ({@link
 * dev.nifigeoparquet.archive.error.ArchiveNotFoundException}). The command line, the NiFi processors and the S3 module use the
 * packages below through the classes each package-info names as API; the other public classes are public only for
 * the engine's own packages.
 */
package dev.nifigeoparquet.archive;
