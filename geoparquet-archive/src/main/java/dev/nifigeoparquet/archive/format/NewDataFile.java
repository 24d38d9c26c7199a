package dev.nifigeoparquet.archive.format;

/** A data file an operation staged, before the commit stamps it. */
public record NewDataFile(String name, long rows, long bytes) {
}
