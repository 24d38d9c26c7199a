package dev.nifigeoparquet.archive.error;

import java.util.Objects;

/**
 * An H3 cell name failed one of the rules in {@link H3Cells}. Cell names become partition
 * directory names, so the message says exactly which rule failed and never echoes raw control
 * characters from the untrusted input.
 */
public final class InvalidCellException extends RejectedInputException {

    /** The rule a cell name broke, in the order {@link H3Cells} checks them. */
    public enum Rule {
        /** Null or the empty string. */
        MISSING,
        /** Hexadecimal but with upper-case digits; partition names are lower case only. */
        UPPER_CASE,
        /** Contains something other than hex digits (whitespace, path separators, dots), or is too long. */
        NOT_HEX,
        /** Parses as a number but is not an H3 cell index (an edge, a vertex, or garbage). */
        NOT_A_CELL,
        /** A valid cell written non-canonically, e.g. with leading zeros. */
        NOT_CANONICAL,
        /** A valid cell, but not at the archive's resolution. */
        WRONG_RESOLUTION
    }

    private final Rule rule;

    public InvalidCellException(Rule rule, String message) {
        super(rule + ": " + message);
        this.rule = Objects.requireNonNull(rule);
    }

    public Rule rule() {
        return rule;
    }
}
