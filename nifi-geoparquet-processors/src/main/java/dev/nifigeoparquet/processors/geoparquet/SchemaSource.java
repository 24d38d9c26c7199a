package dev.nifigeoparquet.processors.geoparquet;

import dev.nifigeoparquet.processors.migration.StoredChoice;

/** Where {@link GeoParquetRecordSetWriter} takes the Parquet schema and footer entries it writes from. */
public enum SchemaSource implements StoredChoice {
    RECORD_SCHEMA(
            "Record Schema",
            "Derived from the records' schema. Records read by GeoParquetReader whose fields "
                    + "are unchanged keep the source file's exact Parquet schema and footer entries ('geo' included); otherwise "
                    + "each field gets a Parquet column and the geometry columns are written as WKB."),
    PARQUET_SCHEMA(
            "Parquet Schema",
            "The Parquet schema given in the Parquet Schema property, in Parquet's text "
                    + "form (message ... { ... }); use it for GeoArrow native layouts or exact column types."),
    ARCHIVE_SERVICE(
            "GeoParquet Archive Service",
            "The schema and canonical footer entries the GeoParquet Archive "
                    + "Service has pinned and cached, byte for byte, so the file can be upserted into that archive unchanged."),
    ARCHIVE(
            "Archive Directory",
            "The schema and canonical footer entries of the archive at Archive Directory, "
                    + "byte for byte, for flows without an archive service.");

    private final String displayName;
    private final String description;

    SchemaSource(String displayName, String description) {
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
