package dev.nifigeoparquet.archive.error;

/** The location holds no archive descriptor: nothing was created or adopted there. */
public final class ArchiveNotFoundException extends ArchiveException {

    public ArchiveNotFoundException(String location) {
        super("No GeoParquet archive at " + location
                + " (no _geoparquet_archive/descriptor.json); create or adopt one first");
    }

    @Override
    public FailureKind kind() {
        return FailureKind.OPERATOR_ACTION;
    }

    @Override
    public String advice() {
        return "Create the archive (geoparquet-archive init) or adopt the directory (geoparquet-archive adopt, or the "
                + "archive service's Missing Archive Strategy), or point the archive root at an existing archive.";
    }
}
