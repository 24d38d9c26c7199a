package dev.nifigeoparquet.archive.ops;

/** How a delta whose schema is not exactly the archive's is treated. */
public enum SchemaHandling {
    /** Every archive field must be present in the delta with the same type. */
    STRICT,
    /** Archive fields that are nullable may be missing from the delta; they are written as null. */
    FILL_MISSING_NULLABLE
}
