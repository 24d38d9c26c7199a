/**
 * GeoJSON deltas (docs/archive-format.md, section 6.3): features read into rows of the archive's schema. API: {@link
 * dev.nifigeoparquet.archive.geojson.GeoJsonGeometry}.
 */
package dev.nifigeoparquet.archive.geojson;
