package dev.nifigeoparquet.archive.geo;

/** A bounding box; {@code zmin}/{@code zmax} are NaN when the geometry has no Z. */
public record Bbox(double xmin, double ymin, double xmax, double ymax, double zmin, double zmax) {

    /** The value for a covering key: xmin, ymin, xmax, ymax, zmin or zmax. */
    public double get(String key) {
        return switch (key) {
            case "xmin" -> xmin;
            case "ymin" -> ymin;
            case "xmax" -> xmax;
            case "ymax" -> ymax;
            case "zmin" -> zmin;
            case "zmax" -> zmax;
            default -> throw new IllegalArgumentException("Unknown bbox key '" + key + "'");
        };
    }
}
