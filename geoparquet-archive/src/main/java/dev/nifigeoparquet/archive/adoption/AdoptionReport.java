package dev.nifigeoparquet.archive.adoption;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.AdoptionRecord;

/**
 * The outcome of adopting an existing archive.
 *
 * @param archive    the adopted archive, ready for operations
 * @param partitions partitions found
 * @param files      data files found
 * @param rows       rows in them
 * @param record     what adoption found and derived (also kept in the descriptor)
 */
public record AdoptionReport(GeoParquetArchive archive, int partitions, int files, long rows, AdoptionRecord record) {}
