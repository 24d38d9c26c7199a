/**
 * The partition of a feature (docs/archive-format.md, sections 6.1 and 6.2): its centroid in EPSG:4326, reprojected
 * from the source CRS when needed, and the H3 cell of that centroid at the archive's pinned resolution. API: {@link dev.nifigeoparquet.archive.cells.H3Keyer}, {@link
 * dev.nifigeoparquet.archive.cells.CellBatches}, {@link dev.nifigeoparquet.archive.cells.CellLanes}, {@link dev.nifigeoparquet.archive.cells.CrsReprojector}, {@link
 * dev.nifigeoparquet.archive.cells.DeclaredCrs}, {@link dev.nifigeoparquet.archive.cells.SourceCrs}; a feature that cannot be keyed is refused with a {@link
 * dev.nifigeoparquet.archive.error.KeyingException}.
 */
package dev.nifigeoparquet.archive.cells;
