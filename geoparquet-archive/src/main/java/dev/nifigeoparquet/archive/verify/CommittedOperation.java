package dev.nifigeoparquet.archive.verify;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * An operation to reconcile from the archive's own commit records: the commit entries it created (partition and
 * version) and the net row change it reported (inserted minus deleted). Verification checks that those entries record
 * the operation, that its recorded changes add up to that net, and that every commit of those partitions since then
 * explains its row count, so the partitions' rows now are accounted for commit by commit however other operations
 * interleaved.
 *
 * @param operationId the operation's id as its commit entries record it
 * @param commits     partition -> the version of the entry the operation created there
 * @param netRows     the net change the operation reported
 */
public record CommittedOperation(String operationId, Map<String, Long> commits, long netRows) {

    public CommittedOperation {
        Objects.requireNonNull(operationId, "operationId");
        commits = new TreeMap<>(commits);
        if (commits.isEmpty()) {
            throw new IllegalArgumentException("An operation to reconcile names at least one commit");
        }
    }

    /**
     * Parses the {@code cell@version} list an operation's result gives (comma-separated), as UpsertGeoParquetPartition
     * writes it into {@code geoparquet.commits}.
     */
    public static Map<String, Long> parseCommits(String text) {
        Map<String, Long> commits = new TreeMap<>();
        for (String item : text.split(",", -1)) {
            String trimmed = item.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            int at = trimmed.lastIndexOf('@');
            if (at <= 0 || at == trimmed.length() - 1) {
                throw new IllegalArgumentException("'" + trimmed + "' is not a commit of the form <cell>@<version>");
            }
            try {
                commits.put(trimmed.substring(0, at), Long.parseLong(trimmed.substring(at + 1)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + trimmed + "' is not a commit of the form <cell>@<version>", e);
            }
        }
        return commits;
    }
}
