package dev.nifigeoparquet.archive.compaction;

import dev.nifigeoparquet.archive.error.RejectedInputException;
import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import dev.nifigeoparquet.archive.format.CompactionSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What a caller overrides for one compaction run. Every option left unset takes the archive's value, so every
 * scheduler of an archive agrees unless told otherwise. The string names are the ones the command-line tool and
 * the NiFi processor accept ({@link #fromMap}).
 */
public final class CompactionOptions {

    /**
     * A partition with more live files than this qualifies. Defaults to the descriptor's
     * {@code compaction.minFiles} (8 unless the archive was created otherwise).
     */
    public static final String MIN_FILES = "min-files";

    /**
     * A partition with at least two files smaller than this fraction of the target file size qualifies too.
     * Defaults to the descriptor's {@code compaction.smallFileFraction} (0.25).
     */
    public static final String SMALL_FILE_FRACTION = "small-file-fraction";

    /**
     * The size output files are packed to, in bytes; consecutive files are packed while their sizes add up to at
     * most this. Defaults to the descriptor's {@code writer.targetFileBytes} (128 MiB).
     */
    public static final String TARGET_FILE_BYTES = "target-file-bytes";

    /**
     * Files committed less than this many seconds ago are left alone (cold tiers that charge for deleting an object
     * early). Read from the commit entry's {@code committedAt}, never from storage. Defaults to the descriptor's
     * {@code compaction.minFileAgeSeconds} (0).
     */
    public static final String MIN_FILE_AGE_SECONDS = "min-file-age-seconds";

    /**
     * The order the rewritten rows are written in: {@code input} (the default), {@code hilbert} or {@code tiles}
     * ({@link RowOrder}).
     * Not an archive setting: it changes no file a reader relies on, only how well row groups prune.
     */
    public static final String ROW_ORDER = "row-order";

    /** The option names {@link #fromMap} accepts. */
    public static final Set<String> NAMES =
            Set.of(MIN_FILES, SMALL_FILE_FRACTION, TARGET_FILE_BYTES, MIN_FILE_AGE_SECONDS, ROW_ORDER);

    private static final CompactionOptions ARCHIVE_DEFAULTS =
            new CompactionOptions(null, null, null, null, RowOrder.INPUT);

    private final Integer minFiles;
    private final Double smallFileFraction;
    private final Long targetFileBytes;
    private final Duration minFileAge;
    private final RowOrder rowOrder;

    private CompactionOptions(
            Integer minFiles, Double smallFileFraction, Long targetFileBytes, Duration minFileAge, RowOrder rowOrder) {
        this.minFiles = minFiles;
        this.smallFileFraction = smallFileFraction;
        this.targetFileBytes = targetFileBytes;
        this.minFileAge = minFileAge;
        this.rowOrder = rowOrder;
    }

    /** Everything from the archive's descriptor. */
    public static CompactionOptions archiveDefaults() {
        return ARCHIVE_DEFAULTS;
    }

    /** Parses options given by name ({@link #NAMES}); unknown names and unparsable values fail, naming them. */
    public static CompactionOptions fromMap(Map<String, String> values) {
        CompactionOptions options = ARCHIVE_DEFAULTS;
        for (Map.Entry<String, String> entry : values.entrySet()) {
            String value = Objects.requireNonNull(entry.getValue(), () -> "option " + entry.getKey() + " has no value")
                    .strip();
            try {
                options = switch (entry.getKey()) {
                    case MIN_FILES -> options.withMinFiles(Integer.parseInt(value));
                    case SMALL_FILE_FRACTION -> options.withSmallFileFraction(Double.parseDouble(value));
                    case TARGET_FILE_BYTES -> options.withTargetFileBytes(Long.parseLong(value));
                    case MIN_FILE_AGE_SECONDS -> options.withMinFileAge(Duration.ofSeconds(Long.parseLong(value)));
                    case ROW_ORDER -> options.withRowOrder(RowOrder.fromOption(value));
                    default ->
                        throw new RejectedInputException(
                                "Unknown compaction option '" + entry.getKey() + "'; known options: " + NAMES);
                };
            } catch (NumberFormatException e) {
                throw new RejectedInputException(
                        "Compaction option " + entry.getKey() + " is not a number: '" + value + "'", e);
            }
        }
        return options;
    }

    public CompactionOptions withMinFiles(int files) {
        return new CompactionOptions(files, smallFileFraction, targetFileBytes, minFileAge, rowOrder);
    }

    public CompactionOptions withSmallFileFraction(double fraction) {
        return new CompactionOptions(minFiles, fraction, targetFileBytes, minFileAge, rowOrder);
    }

    public CompactionOptions withTargetFileBytes(long bytes) {
        return new CompactionOptions(minFiles, smallFileFraction, bytes, minFileAge, rowOrder);
    }

    public CompactionOptions withMinFileAge(Duration age) {
        return new CompactionOptions(
                minFiles, smallFileFraction, targetFileBytes, Objects.requireNonNull(age, "age"), rowOrder);
    }

    public CompactionOptions withRowOrder(RowOrder order) {
        return new CompactionOptions(
                minFiles, smallFileFraction, targetFileBytes, minFileAge, Objects.requireNonNull(order, "order"));
    }

    /** The order rewritten rows are written in. */
    public RowOrder rowOrder() {
        return rowOrder;
    }

    /** The effective policy: these overrides on top of the archive's settings, validated together. */
    public CompactionPolicy resolve(ArchiveDescriptor descriptor) {
        CompactionSettings archive = descriptor.compaction();
        return new CompactionPolicy(
                minFiles != null ? minFiles : archive.minFiles(),
                smallFileFraction != null ? smallFileFraction : archive.smallFileFraction(),
                targetFileBytes != null ? targetFileBytes : descriptor.writer().targetFileBytes(),
                minFileAge != null ? minFileAge : Duration.ofSeconds(archive.minFileAgeSeconds()));
    }

    @Override
    public String toString() {
        return "CompactionOptions[minFiles=" + minFiles + ", smallFileFraction=" + smallFileFraction
                + ", targetFileBytes=" + targetFileBytes + ", minFileAge=" + minFileAge + ", rowOrder=" + rowOrder
                + "]";
    }
}
