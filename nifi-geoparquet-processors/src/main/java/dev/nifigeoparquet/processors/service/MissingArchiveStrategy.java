package dev.nifigeoparquet.processors.service;

import dev.nifigeoparquet.processors.migration.StoredChoice;

/** What the archive service does when the root directory holds no archive descriptor. */
public enum MissingArchiveStrategy implements StoredChoice {
    FAIL(
            "Require Existing Archive",
            "The root must already hold an archive (a _geoparquet_archive/descriptor.json); otherwise the service is invalid."),
    ADOPT(
            "Adopt Existing Partitions",
            "The root holds h3_cell=<cell>/*.parquet files written by another tool (GeoPandas, pyarrow, DuckDB): adopt them"
                    + " once, pinning the resolution their cell names encode and the schema and geo block of their files."),
    CREATE(
            "Create From Template",
            "Create a new, empty archive whose schema and canonical footer (geo block included) are those of the"
                    + " Template GeoParquet File, at the configured H3 Resolution.");

    private final String displayName;
    private final String description;

    MissingArchiveStrategy(String displayName, String description) {
        this.displayName = displayName;
        this.description = description;
    }

    @Override
    public String getDisplayName() {
        return displayName;
    }

    @Override
    public String getDescription() {
        return description;
    }
}
