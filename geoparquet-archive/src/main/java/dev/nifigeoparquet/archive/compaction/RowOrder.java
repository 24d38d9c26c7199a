package dev.nifigeoparquet.archive.compaction;

import dev.nifigeoparquet.archive.error.RejectedInputException;
import java.util.Arrays;
import java.util.Locale;

/** The order compaction writes a partition's rows in. */
public enum RowOrder {
    /** The input files' order, file after file: compaction changes where rows are stored, nothing else. */
    INPUT,
    /**
     * Along a Hilbert curve over the rows' envelope centres, one row group after another (see {@link HilbertChunks}):
     * each row group then covers a compact area, so readers that prune row groups by the covering {@code bbox}
     * statistics skip most of them for a small query box. Reads the geometry column once more, and the input files
     * once per output row group.
     */
    HILBERT;

    /** The option's text: {@code input} or {@code hilbert}. */
    public String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** Parses {@link #optionValue()}, any case. */
    public static RowOrder fromOption(String value) {
        for (RowOrder order : values()) {
            if (order.optionValue().equalsIgnoreCase(value.strip())) {
                return order;
            }
        }
        throw new RejectedInputException("Unknown row order '" + value + "'; known: "
                + Arrays.stream(values()).map(RowOrder::optionValue).toList());
    }
}
