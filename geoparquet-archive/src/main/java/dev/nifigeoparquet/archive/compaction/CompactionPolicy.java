package dev.nifigeoparquet.archive.compaction;

import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import java.time.Duration;
import java.time.Instant;

/**
 * The effective compaction rules for one run: the archive's settings with the caller's overrides applied
 * ({@link CompactionOptions#resolve}). The predicates below are the whole policy.
 *
 * @param minFiles          a partition with more eligible files than this qualifies
 * @param smallFileFraction a file smaller than this fraction of {@code targetFileBytes} is small; two small
 *                          eligible files make a partition qualify
 * @param targetFileBytes   consecutive files are packed while their sizes add up to at most this
 * @param minFileAge        files committed more recently than this are not eligible
 */
public record CompactionPolicy(int minFiles, double smallFileFraction, long targetFileBytes, Duration minFileAge) {

    /** Two small files are the fewest worth merging. */
    public static final int MIN_SMALL_FILES = 2;

    public CompactionPolicy {
        if (minFiles < 1) {
            throw new RejectedInputException("minFiles must be at least 1, was " + minFiles);
        }
        if (!(smallFileFraction > 0 && smallFileFraction <= 1)) {
            throw new RejectedInputException("smallFileFraction must be in (0, 1], was " + smallFileFraction);
        }
        if (targetFileBytes < 1) {
            throw new RejectedInputException("targetFileBytes must be positive, was " + targetFileBytes);
        }
        if (minFileAge == null || minFileAge.isNegative()) {
            throw new RejectedInputException("minFileAge must not be negative, was " + minFileAge);
        }
        if (smallFileFraction * targetFileBytes < 1) {
            throw new RejectedInputException("smallFileFraction " + smallFileFraction + " of targetFileBytes "
                    + targetFileBytes + " is less than one byte, so no file could ever count as small");
        }
    }

    /** Files smaller than this many bytes are small. */
    public long smallFileBytes() {
        return (long) (smallFileFraction * targetFileBytes);
    }

    /** Committed at least {@code minFileAge} before {@code now}. */
    public boolean oldEnough(DataFileEntry file, Instant now) {
        return !file.committedAt().plus(minFileAge).isAfter(now);
    }

    public boolean isSmall(DataFileEntry file) {
        return file.bytes() < smallFileBytes();
    }

    /** Below the target, so merging it with a neighbour can help; files at or above the target stay as they are. */
    public boolean belowTarget(DataFileEntry file) {
        return file.bytes() < targetFileBytes;
    }

    public boolean enoughInputFiles(int eligibleFiles) {
        return eligibleFiles > minFiles;
    }

    public boolean enoughSmallFiles(int smallEligibleFiles) {
        return smallEligibleFiles >= MIN_SMALL_FILES;
    }
}
