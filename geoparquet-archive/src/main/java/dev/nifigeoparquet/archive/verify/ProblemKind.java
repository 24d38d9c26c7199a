package dev.nifigeoparquet.archive.verify;

/** What verification found wrong with a file (or, for {@link #TOTAL_MISMATCH}, with the archive). */
public enum ProblemKind {
    /** The {@code geo} entry's bytes differ from the canonical block; the detail holds a JSON-level diff. */
    GEO_MISMATCH,
    /** Another canonical footer entry is missing or different, or the file carries an entry the archive does not. */
    FOOTER_MISMATCH,
    /** The geometry column's CRS differs from the archive's or cannot be identified. */
    CRS_MISMATCH,
    /** The Parquet schema differs from the descriptor's. */
    SCHEMA_MISMATCH,
    /** The file's row count differs from its commit entry. */
    ROW_COUNT_MISMATCH,
    /** The file's size differs from its commit entry. */
    SIZE_MISMATCH,
    /** A committed file is neither published nor staged. */
    MISSING_FILE,
    /** A committed file is still only staged: plain readers do not see its rows until the next writer publishes it. */
    UNPUBLISHED_FILE,
    /** A file the latest commit superseded is still in the partition directory: plain readers see its rows too. */
    SUPERSEDED_FILE,
    /** A {@code .parquet} file in a partition directory that no commit lists: plain readers read it, the engine does not. */
    UNTRACKED_FILE,
    /** The file cannot be read: truncated, corrupt, or not Parquet. */
    CORRUPT_FILE,
    /** A partition's commit log cannot be read. */
    CORRUPT_LOG,
    /** A feature key occurs more than once in the archive. */
    DUPLICATE_KEY,
    /** A row's geometry keys to another cell than the partition holding it (placement check, format section 6.1). */
    MISPLACED_ROW,
    /** A row's geometry cannot be keyed at all: null, empty, non-finite or off the globe (placement check). */
    UNKEYABLE_ROW,
    /** The archive's total row count differs from the expected count. */
    TOTAL_MISMATCH,
    /**
     * The commit records do not add up: an entry's recorded row changes do not explain its row count, an entry does not
     * follow from the one before, or an operation's entries do not add up to the net change it reported.
     */
    COUNTS_DO_NOT_RECONCILE;

    /**
     * Whether the problem is a commit whose publishing has not finished (format section 5.6): its writer is still
     * publishing, or stopped after committing and left the publishing to the partition's next writer.
     */
    public boolean publishingUnfinished() {
        return this == UNPUBLISHED_FILE || this == SUPERSEDED_FILE;
    }
}
