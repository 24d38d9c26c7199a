package dev.nifigeoparquet.archive.compaction;

import dev.nifigeoparquet.archive.error.RejectedInputException;
import java.util.Arrays;
import java.util.Locale;

/**
 * The order compaction writes a partition's rows in. A spatial order also ranks larger groups of small files together
 * ({@link CompactionPlanner}), so each output file covers its own part of the partition.
 */
public enum RowOrder {
    /** The input files' order, file after file: compaction changes where rows are stored, nothing else. */
    INPUT,
    /**
     * Along a Hilbert curve over the rows' envelope centres, one row group after another (see {@link SpatialChunks}):
     * each row group then covers a compact area, so readers that prune row groups by the covering {@code bbox}
     * statistics skip most of them for a small query box. Reads the geometry column once more, and the input files
     * once per output row group.
     */
    HILBERT,
    /**
     * In tiles (sort-tile-recursive packing, see {@link SpatialChunks}): rows sorted into vertical slabs by the x of
     * their envelope centre, then by y inside each slab, each row group one tile. Tiles overlap less than the pieces of
     * a Hilbert curve, so a small query box meets fewer row groups. Costs as {@link #HILBERT}.
     */
    TILES;

    /** The option's text: {@code input}, {@code hilbert} or {@code tiles}. */
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
