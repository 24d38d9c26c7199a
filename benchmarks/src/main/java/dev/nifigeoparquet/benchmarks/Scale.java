package dev.nifigeoparquet.benchmarks;

import java.util.List;

/**
 * The sizes of one run. {@code full} is the operations guide's scale for the nightly delta (and the append and
 * memory scenarios that reuse its archive); {@code small} is the same shape at a sixteenth, for minutes on two
 * cores; {@code smoke} only proves that everything runs and reconciles.
 */
record Scale(
        String name,
        long seed,
        int towns,
        int archiveRows,
        int deltaRows,
        int appendRows,
        List<Integer> compactionFileCounts,
        int compactionRowsPerFile,
        int routingRows,
        int routingRepeats,
        int singlePartitionRows,
        int scalingBasePartitions,
        int scalingRowsPerPartition,
        int scalingDeltaRows,
        int scalingRepeats) {

    /** The archive of the operations guide. */
    static final int GUIDE_ARCHIVE_ROWS = 4_821_736;

    static final int GUIDE_DELTA_ROWS = 12_400;

    static Scale named(String name) {
        return switch (name) {
            case "full" ->
                new Scale(
                        "full",
                        20_240_101L,
                        400,
                        GUIDE_ARCHIVE_ROWS,
                        GUIDE_DELTA_ROWS,
                        GUIDE_DELTA_ROWS,
                        List.of(8, 32, 128),
                        5_000,
                        1_000_000,
                        3,
                        2_000_000,
                        4,
                        50_000,
                        1_000,
                        3);
            case "small" ->
                new Scale(
                        "small",
                        20_240_101L,
                        400,
                        GUIDE_ARCHIVE_ROWS / 16,
                        GUIDE_DELTA_ROWS / 16,
                        GUIDE_DELTA_ROWS / 16,
                        List.of(8, 32, 128),
                        1_000,
                        200_000,
                        3,
                        2_000_000,
                        2,
                        8_000,
                        400,
                        3);
            case "smoke" ->
                new Scale(
                        "smoke", 20_240_101L, 40, 20_000, 100, 50, List.of(2, 4), 200, 5_000, 1, 20_000, 1, 400, 40, 1);
            default -> throw new IllegalArgumentException("Unknown scale '" + name + "'; use small, full or smoke");
        };
    }
}
