package dev.nifigeoparquet.archive.cells;

import com.uber.h3core.H3Core;
import dev.nifigeoparquet.archive.error.InvalidCellException;
import dev.nifigeoparquet.archive.error.InvalidCellException.Rule;
import dev.nifigeoparquet.archive.error.RejectedInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.regex.Pattern;

/**
 * The one home for H3 cell-name rules. A cell name is canonical when it is exactly what H3 itself
 * prints for a cell index: lower-case hex, no leading zeros, no sign, no whitespace. Untrusted
 * {@code h3.cell} values must pass {@link #requireCanonical} before any path is built from them.
 */
public final class H3Cells {

    public static final int MIN_RESOLUTION = 0;
    public static final int MAX_RESOLUTION = 15;

    /** A 64-bit index is at most 16 hex digits; the bound also keeps parsing from overflowing. */
    private static final Pattern LOWER_HEX = Pattern.compile("[0-9a-f]{1,16}");

    private static final Pattern ANY_CASE_HEX = Pattern.compile("[0-9a-fA-F]{1,16}");

    private H3Cells() {}

    /** Fails unless {@code resolution} is an H3 resolution (0..15). */
    public static int requireResolution(int resolution) {
        if (resolution < MIN_RESOLUTION || resolution > MAX_RESOLUTION) {
            throw new RejectedInputException("H3 resolution must be between " + MIN_RESOLUTION + " and "
                    + MAX_RESOLUTION + ", got " + resolution);
        }
        return resolution;
    }

    /** The resolution of a canonical cell name; fails with the broken rule otherwise. */
    public static int resolutionOf(String cell) {
        return h3().getResolution(requireCanonicalCell(cell));
    }

    /**
     * Returns {@code cell} unchanged if it is a canonical cell name at {@code expectedResolution};
     * otherwise throws {@link InvalidCellException} naming the first rule it breaks.
     */
    public static String requireCanonical(String cell, int expectedResolution) {
        requireResolution(expectedResolution);
        int actual = h3().getResolution(requireCanonicalCell(cell));
        if (actual != expectedResolution) {
            throw new InvalidCellException(
                    Rule.WRONG_RESOLUTION,
                    Quoted.of(cell) + " is a cell at resolution " + actual + ", expected resolution "
                            + expectedResolution);
        }
        return cell;
    }

    /** Shared by the keyer; H3Core holds no mutable state, so one instance serves all threads. */
    static H3Core h3() {
        return Holder.H3;
    }

    private static long requireCanonicalCell(String cell) {
        if (cell == null || cell.isEmpty()) {
            throw new InvalidCellException(Rule.MISSING, "no cell name given");
        }
        if (!LOWER_HEX.matcher(cell).matches()) {
            if (ANY_CASE_HEX.matcher(cell).matches()) {
                throw new InvalidCellException(Rule.UPPER_CASE, Quoted.of(cell) + " has upper-case hex digits");
            }
            throw new InvalidCellException(Rule.NOT_HEX, Quoted.of(cell) + " is not 1 to 16 lower-case hex digits");
        }
        long index = Long.parseUnsignedLong(cell, 16);
        if (!h3().isValidCell(index)) {
            throw new InvalidCellException(Rule.NOT_A_CELL, Quoted.of(cell) + " is not an H3 cell index");
        }
        String canonical = h3().h3ToString(index);
        if (!canonical.equals(cell)) {
            throw new InvalidCellException(
                    Rule.NOT_CANONICAL, Quoted.of(cell) + " is not canonical; H3 writes it as " + Quoted.of(canonical));
        }
        return index;
    }

    private static final class Holder {
        private static final H3Core H3 = load();

        private static H3Core load() {
            try {
                return H3Core.newInstance();
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot load the H3 native library", e);
            }
        }
    }
}
