package dev.nifigeoparquet.archive.parquet;

/** What a finished write produced: rows, row groups and the file's size in bytes. */
public record WrittenFile(long rows, int rowGroups, long bytes) {}
