package dev.nifigeoparquet.archive;

import dev.nifigeoparquet.archive.parquet.WriterSettings;

import java.util.List;

/**
 * How to adopt an existing archive.
 *
 * @param keyColumns         the stable feature key; empty for an append-only archive
 * @param versionColumn      optional version column; null when not used
 * @param expectedResolution the resolution the operator expects; null to accept the one the partition names encode
 * @param referenceFile      path (relative to the root) of the file whose schema and footer become canonical; null
 *                           for a file carrying the most common {@code geo} block
 * @param writer             writer settings; null to take the codec and row-group size from the reference file
 *                           (the ZSTD level is not recorded in Parquet files, so it is the default, 3)
 */
public record AdoptionOptions(List<String> keyColumns, String versionColumn, Integer expectedResolution,
                              String referenceFile, WriterSettings writer) {

    public AdoptionOptions {
        keyColumns = List.copyOf(keyColumns);
    }

    public static AdoptionOptions withKey(String... keyColumns) {
        return new AdoptionOptions(List.of(keyColumns), null, null, null, null);
    }

    public AdoptionOptions expectingResolution(int resolution) {
        return new AdoptionOptions(keyColumns, versionColumn, resolution, referenceFile, writer);
    }

    public AdoptionOptions withReferenceFile(String path) {
        return new AdoptionOptions(keyColumns, versionColumn, expectedResolution, path, writer);
    }
}
