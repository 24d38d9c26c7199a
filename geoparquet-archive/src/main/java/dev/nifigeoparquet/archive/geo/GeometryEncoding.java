package dev.nifigeoparquet.archive.geo;

import java.util.Arrays;

/** How a GeoParquet column stores its geometries: WKB, or one of the GeoArrow "native" layouts. */
public enum GeometryEncoding {
    WKB("WKB", 0),
    POINT("point", 0),
    LINESTRING("linestring", 1),
    POLYGON("polygon", 2),
    MULTIPOINT("multipoint", 1),
    MULTILINESTRING("multilinestring", 2),
    MULTIPOLYGON("multipolygon", 3);

    private final String jsonName;
    private final int listDepth;

    GeometryEncoding(String jsonName, int listDepth) {
        this.jsonName = jsonName;
        this.listDepth = listDepth;
    }

    /** The value of the {@code encoding} field in the {@code geo} metadata. */
    public String jsonName() {
        return jsonName;
    }

    /** How many list levels wrap the x/y[/z] coordinate struct in the native layout. */
    public int listDepth() {
        return listDepth;
    }

    public boolean isNative() {
        return this != WKB;
    }

    public static GeometryEncoding fromJson(String name) {
        return Arrays.stream(values())
                .filter(encoding -> encoding.jsonName.equalsIgnoreCase(name))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Unknown GeoParquet encoding '" + name + "'"));
    }
}
