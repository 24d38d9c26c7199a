package dev.nifigeoparquet.archive.error;

import java.io.IOException;
import java.util.Set;

/** Some of a batch's operation ids were committed already; the caller drops those operations and retries. */
public final class PartiallyCommittedException extends IOException {
    private final Set<String> committed;

    public PartiallyCommittedException(Set<String> committed) {
        super("Operations " + committed + " of this batch were committed already");
        this.committed = Set.copyOf(committed);
    }

    public Set<String> committed() {
        return committed;
    }
}
