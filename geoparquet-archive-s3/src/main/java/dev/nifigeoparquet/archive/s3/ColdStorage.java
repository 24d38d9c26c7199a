package dev.nifigeoparquet.archive.s3;

import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import software.amazon.awssdk.services.s3.model.ArchiveStatus;
import software.amazon.awssdk.services.s3.model.StorageClass;

/**
 * What S3's storage classes mean for the archive: the minimum storage duration a class bills (deleting an object
 * earlier is charged as if it had been kept that long), and whether an object must be restored before it can be read.
 */
public final class ColdStorage {

    private ColdStorage() {}

    /**
     * The minimum storage duration S3 bills for a class: Standard-IA and One Zone-IA 30 days, Glacier Instant
     * Retrieval and Glacier Flexible Retrieval 90 days, Glacier Deep Archive 180 days; zero for Standard,
     * Intelligent-Tiering, Reduced Redundancy and classes this version does not know.
     */
    public static Duration minimumStorageDuration(String storageClass) {
        if (storageClass == null) {
            return Duration.ZERO;
        }
        return switch (StorageClass.fromValue(storageClass)) {
            case STANDARD_IA, ONEZONE_IA -> Duration.ofDays(30);
            case GLACIER_IR, GLACIER -> Duration.ofDays(90);
            case DEEP_ARCHIVE -> Duration.ofDays(180);
            default -> Duration.ZERO;
        };
    }

    /** Whether S3 knows a storage class by this name ({@code STANDARD_IA}, not {@code Standard-IA}). */
    public static boolean isKnownClass(String storageClass) {
        return StorageClass.fromValue(storageClass) != StorageClass.UNKNOWN_TO_SDK_VERSION;
    }

    /** S3's storage class names, sorted. */
    public static Set<String> knownClasses() {
        Set<String> names = new TreeSet<>();
        StorageClass.knownValues().forEach(known -> names.add(known.toString()));
        return names;
    }

    /** Whether objects of this class need a restore before a GET can read them. */
    public static boolean needsRestore(String storageClass) {
        return "GLACIER".equals(storageClass) || "DEEP_ARCHIVE".equals(storageClass);
    }

    /** Intelligent-Tiering's opt-in archive tiers need a restore too. */
    public static boolean needsRestore(ArchiveStatus archiveStatus) {
        return archiveStatus == ArchiveStatus.ARCHIVE_ACCESS || archiveStatus == ArchiveStatus.DEEP_ARCHIVE_ACCESS;
    }

    /**
     * Whether an {@code x-amz-restore} header says a restored copy is readable now: {@code ongoing-request="false"}
     * (the restore finished and its copy has not expired).
     */
    public static boolean restoredCopyAvailable(String restoreHeader) {
        return restoreHeader != null && restoreHeader.replace(" ", "").contains("ongoing-request=\"false\"");
    }
}
