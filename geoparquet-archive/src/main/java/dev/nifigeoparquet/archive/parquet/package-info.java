/**
 * Reading and writing Parquet with parquet-java (docs/archive-format.md, sections 4 and 14): data files with the
 * canonical footer byte for byte, the archive's writer settings, footers and schemas as JSON. API: {@link
 * dev.nifigeoparquet.archive.parquet.GeoParquetFileReader}, {@link dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter},
 * {@link dev.nifigeoparquet.archive.parquet.WriterSettings}, {@link dev.nifigeoparquet.archive.parquet.FooterEntries},
 * {@link dev.nifigeoparquet.archive.parquet.ParquetFooter}, {@link dev.nifigeoparquet.archive.parquet.ParquetSchemaJson},
 * {@link dev.nifigeoparquet.archive.parquet.ColumnEncodings}, {@link dev.nifigeoparquet.archive.parquet.ArrowSchemaEntry}.
 */
package dev.nifigeoparquet.archive.parquet;
