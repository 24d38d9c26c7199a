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
        List<Integer> scalingPartitionCounts,
        int scalingRowsPerPartition,
        int scalingDeltaRows,
        int scalingRepeats) {

    /** The archive of the operations guide. */
    static final int GUIDE_ARCHIVE_ROWS = 4_821_736;

    static final int GUIDE_DELTA_ROWS = 12_400;

    /** The partitions of the archive at the guide's scale (H3 resolution 4 over the parcels' towns). */
    static final int GUIDE_PARTITIONS = 586;

    /** The scaling scenario's archive sizes: four times as many partitions each, up to the guide archive's count. */
    static final List<Integer> SCALING_PARTITIONS = List.of(9, 37, 147, GUIDE_PARTITIONS);

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
                        5,
                        2_000_000,
                        SCALING_PARTITIONS,
                        GUIDE_ARCHIVE_ROWS / GUIDE_PARTITIONS,
                        1_000,
                        5);
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
                        5,
                        2_000_000,
                        SCALING_PARTITIONS,
                        GUIDE_ARCHIVE_ROWS / 16 / GUIDE_PARTITIONS,
                        400,
                        5);
            case "smoke" ->
                new Scale(
                        "smoke",
                        20_240_101L,
                        40,
                        20_000,
                        100,
                        50,
                        List.of(2, 4),
                        200,
                        5_000,
                        1,
                        20_000,
                        List.of(1, 4),
                        400,
                        40,
                        1);
            default -> throw new IllegalArgumentException("Unknown scale '" + name + "'; use small, full or smoke");
        };
    }
}
