package dev.nifigeoparquet.archive.format;

/** One canonical footer key-value entry as the descriptor records it: the exact string every data file carries. */
public record FooterEntry(String key, String value) {}
