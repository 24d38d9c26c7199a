package dev.nifigeoparquet.archive.format;

/** What a commit did to its partition; recorded in every commit entry. */
public enum OperationType {
    /** The state a partition had when an existing archive was adopted. */
    ADOPT,
    APPEND,
    UPSERT,
    DELETE,
    REPLACE,
    /** The partition lost rows whose keys moved into another partition. */
    MOVE_OUT,
    COMPACT,
    /** A key-index shard recorded which cells hold which keys. */
    INDEX
}
