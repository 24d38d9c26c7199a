package dev.nifigeoparquet.processors.geoparquet;

import org.apache.nifi.components.DescribedValue;

/** How a geometry appears in a NiFi record: ISO WKB bytes or WKT text. */
public enum RecordGeometryEncoding implements DescribedValue {
    WKB("WKB", "Well-Known Binary: the geometry is an array of bytes (ISO WKB, little-endian when re-encoded)."),
    WKT("WKT", "Well-Known Text: the geometry is a string such as POINT (30 10) or POLYGON Z ((...)).");

    private final String displayName;
    private final String description;

    RecordGeometryEncoding(String displayName, String description) {
        this.displayName = displayName;
        this.description = description;
    }

    @Override
    public String getValue() {
        return displayName;
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
