/**
 * Compaction (docs/archive-format.md, section 11): planning groups of small files by the archive's policy and
 * rewriting each group as one commit with the archive's writer settings. API: {@link
 * dev.nifigeoparquet.archive.compaction.Compactor}, {@link dev.nifigeoparquet.archive.compaction.CompactionOptions},
 * {@link dev.nifigeoparquet.archive.compaction.CompactionPolicy}, {@link
 * dev.nifigeoparquet.archive.compaction.PartitionCompaction}, {@link dev.nifigeoparquet.archive.compaction.RowOrder},
 * {@link dev.nifigeoparquet.archive.compaction.SweepResult}, {@link dev.nifigeoparquet.archive.compaction.PartitionPlan}.
 */
package dev.nifigeoparquet.archive.compaction;
