/**
 * Reading delta files (GeoParquet, GeoJSON) into delta rows in the archive's schema (docs/archive-format.md, section
 * 6.3). API: {@link dev.nifigeoparquet.archive.delta.DeltaReader}.
 */
package dev.nifigeoparquet.archive.delta;
