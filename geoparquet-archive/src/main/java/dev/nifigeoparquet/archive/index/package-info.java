/**
 * The key index (docs/archive-format.md, section 10): which partition holds each feature key, in sharded Parquet
 * files with their own commit logs, so a write finds the old partition of a key without opening any other partition.
 * Used by the engine only.
 */
package dev.nifigeoparquet.archive.index;
