package dev.nifigeoparquet.processors.geometry;

import dev.nifigeoparquet.processors.migration.StoredChoice;

/** How a record carries its geometry. */
public enum GeometryFormat implements StoredChoice {
    WKB(
            "WKB",
            "The geometry field holds Well-Known Binary: bytes (as Avro, Parquet and most binary formats deliver them), an"
                    + " array of byte values, or a hexadecimal string. ISO and extended (PostGIS) WKB are both read."),
    WKT("WKT", "The geometry field holds a Well-Known Text string, such as POINT (13.4 52.5)."),
    GEOJSON(
            "GeoJSON",
            "The geometry field holds a GeoJSON geometry, either as a JSON string or as a nested record with 'type' and"
                    + " 'coordinates' (or 'geometries'), as a JSON reader delivers it. A GeoJSON Feature is accepted and its geometry used."),
    LON_LAT(
            "Longitude and Latitude Fields",
            "Two numeric fields hold a point's x (longitude, or easting) and y (latitude, or northing).");

    private final String displayName;
    private final String description;

    GeometryFormat(String displayName, String description) {
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
