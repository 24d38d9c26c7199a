package dev.nifigeoparquet.archive.cells;

import com.fasterxml.jackson.core.io.JsonStringEncoder;

/** Puts untrusted text (file metadata, FlowFile attributes) into messages escaped and truncated. */
final class Quoted {

    private static final int MAX_LENGTH = 60;

    private Quoted() {}

    static String of(String value) {
        if (value == null) {
            return "null";
        }
        String shown = value.length() > MAX_LENGTH ? value.substring(0, MAX_LENGTH) + "..." : value;
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(shown)) + '"';
    }
}
