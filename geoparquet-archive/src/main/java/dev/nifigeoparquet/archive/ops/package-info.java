/**
 * Applying deltas (docs/archive-format.md, sections 5.7, 5.8, 5.11, 6.3 and 6.4): routing a delta to its partitions,
 * validating each partition's delta and deriving its id, planning a run over the key index and rewriting the touched
 * partitions. API: {@link dev.nifigeoparquet.archive.ops.ArchiveWriter}, {@link dev.nifigeoparquet.archive.ops.DeltaRouter},
 * {@link dev.nifigeoparquet.archive.ops.DeltaRow}, {@link dev.nifigeoparquet.archive.ops.PartitionDelta}, {@link
 * dev.nifigeoparquet.archive.ops.OperationResult}, {@link dev.nifigeoparquet.archive.ops.SchemaHandling}, {@link
 * dev.nifigeoparquet.archive.ops.WriteMode}.
 */
package dev.nifigeoparquet.archive.ops;
