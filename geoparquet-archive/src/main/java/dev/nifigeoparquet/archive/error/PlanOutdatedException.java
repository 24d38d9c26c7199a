package dev.nifigeoparquet.archive.error;

import java.io.IOException;

/** The files a plan meant to rewrite changed under it; the partition is left for the next run to plan again. */
public final class PlanOutdatedException extends IOException {
    public PlanOutdatedException(String message) {
        super(message);
    }
}
