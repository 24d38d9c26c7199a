package dev.nifigeoparquet.archive.format;

/**
 * When a partition qualifies for compaction, recorded in the descriptor so every scheduler of an archive agrees.
 *
 * @param minFiles            a partition with more live files than this qualifies. Defaults to 8, the
 *                            operations guide's small-file count.
 * @param smallFileFraction   a partition with at least two files smaller than this fraction of the target file
 *                            size also qualifies. Defaults to 0.25.
 * @param minFileAgeSeconds   files younger than this are left alone, for cold storage tiers that charge for
 *                            deleting an object early. Defaults to 0.
 */
public record CompactionSettings(int minFiles, double smallFileFraction, long minFileAgeSeconds) {

    public static final CompactionSettings DEFAULT = new CompactionSettings(8, 0.25, 0);

    public CompactionSettings {
        if (minFiles < 1) {
            throw new IllegalArgumentException("minFiles must be at least 1, was " + minFiles);
        }
        if (!(smallFileFraction > 0 && smallFileFraction <= 1)) {
            throw new IllegalArgumentException("smallFileFraction must be in (0, 1], was " + smallFileFraction);
        }
        if (minFileAgeSeconds < 0) {
            throw new IllegalArgumentException("minFileAgeSeconds must not be negative, was " + minFileAgeSeconds);
        }
    }
}
