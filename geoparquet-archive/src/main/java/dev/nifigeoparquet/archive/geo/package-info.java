/**
 * GeoParquet's {@code geo} metadata, geometry encodings (WKB and native), CRS and covering boxes (docs/archive-format.md,
 * sections 3 and 4; the GeoParquet specification). API: {@link dev.nifigeoparquet.archive.geo.GeoMetadata}, {@link
 * dev.nifigeoparquet.archive.geo.GeoColumn}, {@link dev.nifigeoparquet.archive.geo.GeometryCodec}, {@link
 * dev.nifigeoparquet.archive.geo.GeometryEncoding}, {@link dev.nifigeoparquet.archive.geo.Wkb}.
 */
package dev.nifigeoparquet.archive.geo;
