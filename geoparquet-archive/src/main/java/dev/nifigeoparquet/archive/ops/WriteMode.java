package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.format.OperationType;

/** How a delta changes its partition. */
public enum WriteMode {
    /** The delta rows become a new file; existing files are untouched. */
    APPEND(OperationType.APPEND),
    /** Merge on the feature key: the delta wins on a collision, new keys are added, rows marked deleted are removed. */
    UPSERT(OperationType.UPSERT),
    /** Remove the delta's keys; rows need only the key columns. */
    DELETE(OperationType.DELETE),
    /** The delta becomes the whole partition. */
    REPLACE(OperationType.REPLACE);

    private final OperationType operationType;

    WriteMode(OperationType operationType) {
        this.operationType = operationType;
    }

    public OperationType operationType() {
        return operationType;
    }

    public boolean needsKey() {
        return this == UPSERT || this == DELETE;
    }
}
