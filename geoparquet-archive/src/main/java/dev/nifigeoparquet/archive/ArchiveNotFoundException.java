package dev.nifigeoparquet.archive;

import java.io.IOException;

/** The location holds no archive descriptor: nothing was created or adopted there. */
public final class ArchiveNotFoundException extends IOException {

    public ArchiveNotFoundException(String location) {
        super("No GeoParquet archive at " + location
                + " (no _geoparquet_archive/descriptor.json); create or adopt one first");
    }
}
