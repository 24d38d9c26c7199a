package dev.nifigeoparquet.archive.adoption;

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
 * @param rehomeMisplacedRows what to do with rows that lie in another partition than the cell of their geometry
 *                           (docs/archive-format.md, section 8): false (the default) refuses the directory, naming
 *                           examples; true moves them to their cells while adopting, before the archive exists
 */
public record AdoptionOptions(
        List<String> keyColumns,
        String versionColumn,
        Integer expectedResolution,
        String referenceFile,
        WriterSettings writer,
        boolean rehomeMisplacedRows) {

    public AdoptionOptions {
        keyColumns = List.copyOf(keyColumns);
    }

    /** Refusing misplaced rows. */
    public AdoptionOptions(
            List<String> keyColumns,
            String versionColumn,
            Integer expectedResolution,
            String referenceFile,
            WriterSettings writer) {
        this(keyColumns, versionColumn, expectedResolution, referenceFile, writer, false);
    }

    public static AdoptionOptions withKey(String... keyColumns) {
        return new AdoptionOptions(List.of(keyColumns), null, null, null, null, false);
    }

    public AdoptionOptions expectingResolution(int resolution) {
        return new AdoptionOptions(keyColumns, versionColumn, resolution, referenceFile, writer, rehomeMisplacedRows);
    }

    public AdoptionOptions withReferenceFile(String path) {
        return new AdoptionOptions(keyColumns, versionColumn, expectedResolution, path, writer, rehomeMisplacedRows);
    }

    /** Moves rows that lie outside the partition of their cell into it instead of refusing the directory. */
    public AdoptionOptions rehomingMisplacedRows() {
        return new AdoptionOptions(keyColumns, versionColumn, expectedResolution, referenceFile, writer, true);
    }
}
