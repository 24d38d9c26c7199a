package dev.nifigeoparquet.archive.error;

/**
 * A metadata file written under a newer format version than this implementation reads. Nothing of it is
 * interpreted: a newer version may change what any field means (docs/archive-format.md, section 13.3).
 */
public final class UnsupportedFormatVersionException extends ArchiveFormatException {

    private final int found;
    private final int supported;

    public UnsupportedFormatVersionException(String file, String what, int found, int supported) {
        super(
                file,
                what + " has format version " + found + ", and this implementation reads format version "
                        + supported
                        + " at most; a newer implementation is needed to read or write it (plain Parquet readers"
                        + " still read the data files)");
        this.found = found;
        this.supported = supported;
    }

    /** The version the file declares. */
    public int found() {
        return found;
    }

    /** The highest version this implementation reads. */
    public int supported() {
        return supported;
    }

    @Override
    public String advice() {
        return "Upgrade the bundle (or the command-line tool) to a release that reads format version " + found
                + " (see the compatibility table of its release notes); a newer implementation wrote this archive.";
    }
}
