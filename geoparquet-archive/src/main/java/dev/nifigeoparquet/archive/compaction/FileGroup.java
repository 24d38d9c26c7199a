package dev.nifigeoparquet.archive.compaction;

import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * Consecutive live files of one partition that are rewritten together into files of the target size. Being
 * consecutive, their replacement can take their place in the partition's file order, so rows keep their order.
 *
 * @param cell  the partition
 * @param files the input files, in the partition's order
 */
public record FileGroup(String cell, List<DataFileEntry> files) {

    static final String OPERATION_ID_PREFIX = "compact-";

    public FileGroup {
        files = List.copyOf(files);
        if (files.size() < 2) {
            throw new IllegalArgumentException("A compaction group needs at least two files, got " + files.size());
        }
    }

    public List<String> fileNames() {
        return files.stream().map(DataFileEntry::name).toList();
    }

    public long rows() {
        return files.stream().mapToLong(DataFileEntry::rows).sum();
    }

    public long bytes() {
        return files.stream().mapToLong(DataFileEntry::bytes).sum();
    }

    /**
     * The operation id of rewriting exactly these files: derived from the cell and the input names (which are
     * never reused), so a replay of the same compaction is a no-op while any other compaction gets a new id.
     */
    public String operationId() {
        try {
            MessageDigest digest = MessageDigest.getInstance("SHA-256");
            digest.update(cell.getBytes(StandardCharsets.UTF_8));
            for (String name : fileNames()) {
                digest.update((byte) '\n');
                digest.update(name.getBytes(StandardCharsets.UTF_8));
            }
            return OPERATION_ID_PREFIX + HexFormat.of().formatHex(digest.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * The group's files as {@code state} records them, when they are still live and consecutive there in this order;
     * null otherwise. A file replaced in place since the plan keeps its name but not its content, size or row count,
     * so the entries to read are the state's, never the plan's.
     */
    List<DataFileEntry> liveIn(PartitionCommit state) {
        List<DataFileEntry> live = state.files();
        List<String> names = live.stream().map(DataFileEntry::name).toList();
        int first = names.indexOf(files.get(0).name());
        if (first < 0 || first + files.size() > names.size()) {
            return null;
        }
        List<DataFileEntry> current = live.subList(first, first + files.size());
        return current.stream().map(DataFileEntry::name).toList().equals(fileNames()) ? List.copyOf(current) : null;
    }
}
