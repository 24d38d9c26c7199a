package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Counts the files and directories forced to disk (fsync) while some work runs, by what they are, from the JDK's own
 * {@code jdk.FileForce} events (JDK 25 and later): every {@code FileChannel.force} the engine or a baseline makes,
 * without any counter in the code measured. Counted on an unmeasured run, since a recording costs time. Forces made
 * in native code (DuckDB's own, if any) are not seen.
 */
final class FileForces {

    private static final String EVENT = "jdk.FileForce";

    /** Commit entries, transaction decisions and leases are JSON files (docs/archive-format.md, section 3). */
    private static final String JSON_SUFFIX = ".json";

    private FileForces() {}

    /**
     * Forces by kind of path: data files (staged {@code .parquet} content, under any name it is staged by),
     * key-index files ({@code .keys}), JSON records (commit log entries, transaction decisions, leases; each written
     * under a temporary name beside its own), directories.
     */
    record Counts(
            long dataFiles,
            long indexFiles,
            long records,
            long directories,
            long other,
            Map<String, Long> directoriesByRole) {

        long total() {
            return dataFiles + indexFiles + records + directories + other;
        }

        void putInto(ObjectNode out, int partitionsTouched) {
            out.put("total", total());
            out.put("dataFiles", dataFiles);
            out.put("keyIndexFiles", indexFiles);
            out.put("records", records);
            out.put("directories", directories);
            out.put("other", other);
            ObjectNode roles = out.putObject("directoriesByRole");
            directoriesByRole.forEach(roles::put);
            out.put("perTouchedPartition", (double) total() / Math.max(1, partitionsTouched));
        }
    }

    /** Whether this JDK records file forces. */
    static boolean available() {
        return FlightRecorder.isAvailable()
                && FlightRecorder.getFlightRecorder().getEventTypes().stream()
                        .map(EventType::getName)
                        .anyMatch(EVENT::equals);
    }

    /** The forces made while {@code work} ran; null when this JDK does not record them. */
    static Counts during(Callable<?> work) throws Exception {
        if (!available()) {
            work.call();
            return null;
        }
        Path dump = Files.createTempFile("file-forces", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable(EVENT).withThreshold(Duration.ZERO).withoutStackTrace();
            recording.start();
            try {
                work.call();
            } finally {
                recording.stop();
            }
            recording.dump(dump);
            return count(dump);
        } finally {
            Files.deleteIfExists(dump);
        }
    }

    private static Counts count(Path dump) throws IOException {
        long data = 0, index = 0, records = 0, directories = 0, other = 0;
        Map<String, Long> roles = new TreeMap<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(dump)) {
            String path = event.getString("path");
            String name = path == null ? "" : Path.of(path).getFileName().toString();
            if (name.contains(ArchiveLayout.DATA_FILE_SUFFIX)) {
                data++;
            } else if (name.contains(ArchiveLayout.INDEX_FILE_SUFFIX)) {
                index++;
            } else if (name.contains(JSON_SUFFIX)) {
                records++;
            } else if (path != null && (Files.isDirectory(Path.of(path)) || !name.contains("."))) {
                directories++;
                roles.merge(roleOf(path), 1L, Long::sum);
            } else {
                other++;
            }
        }
        return new Counts(data, index, records, directories, other, roles);
    }

    /** The archive's directories by role (docs/archive-format.md, section 3), the metadata ones first. */
    private static final Map<String, String> ROLES = roles();

    private static Map<String, String> roles() {
        Map<String, String> roles = new LinkedHashMap<>();
        roles.put(ArchiveLayout.STAGING_DIRECTORY, "staging");
        roles.put(ArchiveLayout.LOG_DIRECTORY, "log");
        roles.put(ArchiveLayout.INDEX_DIRECTORY, "index");
        roles.put(ArchiveLayout.TRANSACTION_DIRECTORY, "txn");
        roles.put(ArchiveLayout.LEASE_DIRECTORY, "leases");
        return roles;
    }

    /** What a directory is to the archive: one of {@link #ROLES}, a partition's directory, or other. */
    private static String roleOf(String path) {
        for (Map.Entry<String, String> role : ROLES.entrySet()) {
            if (path.contains("/" + role.getKey() + "/") || path.endsWith("/" + role.getKey())) {
                return role.getValue();
            }
        }
        return path.contains("/" + ArchiveLayout.PARTITION_PREFIX) ? "partition" : "other";
    }
}
