package dev.nifigeoparquet.archive.compaction;

import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Decides which files of a partition to rewrite, from its commit state only; {@link Compactor} executes the plan.
 *
 * <p>A partition qualifies when it holds more eligible files than {@code minFiles}, or at least two eligible small
 * files. Eligible files are those old enough ({@code minFileAge}, read from the commit entry). Then runs of
 * consecutive eligible files below the target size are packed, in order, into groups whose sizes add up to at
 * most the target; a group of one file would be rewritten for nothing and is dropped. A file that is not
 * eligible, or already at the target size, ends a run, so rows never change order.
 *
 * <p>For a spatial {@link RowOrder} a group may hold up to {@value #SPATIAL_GROUP_TARGETS} times the target size and
 * is written as several files of the target size: the rows are ordered across the whole group, so each output file
 * covers its own part of the partition. Groups bounded by the target would each be ordered on their own, every output
 * file would span the whole partition, and a query box would meet a row group in each of them.
 */
public final class CompactionPlanner {

    /**
     * How many target-sized files' bytes one spatially ordered group may hold: ranking holds about 30 bytes per row of
     * the group, so 8 files of the default 128 MiB (about 2.5 million realistic parcels) rank in about 75 MB.
     */
    static final int SPATIAL_GROUP_TARGETS = 8;

    private final CompactionPolicy policy;
    private final long groupBytes;

    /** Groups of at most the target size, for compaction in input order. */
    public CompactionPlanner(CompactionPolicy policy) {
        this(policy, RowOrder.INPUT);
    }

    /** Groups sized for compaction in {@code order}. */
    public CompactionPlanner(CompactionPolicy policy, RowOrder order) {
        this.policy = Objects.requireNonNull(policy, "policy");
        long target = policy.targetFileBytes();
        this.groupBytes = order == RowOrder.INPUT
                ? target
                : target > Long.MAX_VALUE / SPATIAL_GROUP_TARGETS ? Long.MAX_VALUE : target * SPATIAL_GROUP_TARGETS;
    }

    public CompactionPolicy policy() {
        return policy;
    }

    public PartitionPlan plan(PartitionCommit state, Instant now) {
        String cell = state.cell();
        List<DataFileEntry> files = state.files();
        int eligible = 0;
        int small = 0;
        for (DataFileEntry file : files) {
            if (policy.oldEnough(file, now)) {
                eligible++;
                if (policy.isSmall(file)) {
                    small++;
                }
            }
        }
        if (!policy.enoughInputFiles(eligible) && !policy.enoughSmallFiles(small)) {
            String young = eligible < files.size()
                    ? " (" + (files.size() - eligible) + " more are younger than " + policy.minFileAge() + ")"
                    : "";
            return PartitionPlan.skip(
                    cell,
                    state.version(),
                    files.size(),
                    eligible,
                    eligible + " eligible files"
                            + young + " do not exceed " + policy.minFiles() + " and fewer than "
                            + CompactionPolicy.MIN_SMALL_FILES
                            + " are smaller than " + policy.smallFileBytes() + " bytes");
        }
        List<FileGroup> groups = pack(cell, files, now);
        if (groups.isEmpty()) {
            return PartitionPlan.skip(
                    cell,
                    state.version(),
                    files.size(),
                    eligible,
                    "qualifies, but no two consecutive eligible files fit together in " + groupBytes + " bytes");
        }
        return new PartitionPlan(cell, state.version(), files.size(), eligible, groups, null);
    }

    private List<FileGroup> pack(String cell, List<DataFileEntry> files, Instant now) {
        List<FileGroup> groups = new ArrayList<>();
        List<DataFileEntry> bin = new ArrayList<>();
        long binBytes = 0;
        for (DataFileEntry file : files) {
            if (!canJoinAGroup(file, now)) {
                close(cell, bin, groups);
                binBytes = 0;
                continue;
            }
            if (binBytes + file.bytes() > groupBytes) {
                close(cell, bin, groups);
                binBytes = 0;
            }
            bin.add(file);
            binBytes += file.bytes();
        }
        close(cell, bin, groups);
        return groups;
    }

    private boolean canJoinAGroup(DataFileEntry file, Instant now) {
        return policy.oldEnough(file, now) && policy.belowTarget(file);
    }

    private static void close(String cell, List<DataFileEntry> bin, List<FileGroup> groups) {
        if (bin.size() >= 2) {
            groups.add(new FileGroup(cell, bin));
        }
        bin.clear();
    }
}
