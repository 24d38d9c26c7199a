/**
 * How the writes of one feature key are ordered (docs/archive-format.md, sections 6.3 and 6.4): by the archive's
 * version column, and for deltas that carry a sequence, by the key's stamp in the key index, so that a backlog of
 * deltas applied in any order converges.
 */
package dev.nifigeoparquet.archive.order;
