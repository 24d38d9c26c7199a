package dev.nifigeoparquet.processors.geoparquet;

import dev.nifigeoparquet.processors.migration.StoredChoice;

/** How a geometry appears in a NiFi record: ISO WKB bytes or WKT text. */
public enum RecordGeometryEncoding implements StoredChoice {
    WKB("WKB", "Well-Known Binary: the geometry is an array of bytes (ISO WKB, little-endian when re-encoded)."),
    WKT("WKT", "Well-Known Text: the geometry is a string such as POINT (30 10) or POLYGON Z ((...)).");

    private final String displayName;
    private final String description;

    RecordGeometryEncoding(String displayName, String description) {
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
