package dev.nifigeoparquet.archive.error;

import java.util.Collection;

/** A Parquet compression codec the archive cannot read or write, e.g. BROTLI or Hadoop's LZO. */
public final class UnsupportedCodecException extends IllegalArgumentException {
    public UnsupportedCodecException(Object codec, Collection<?> supported) {
        super("Unsupported Parquet compression codec " + codec + "; supported: " + supported);
    }
}
