package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.compaction.CompactionOptions;
import dev.nifigeoparquet.archive.compaction.Compactor;
import dev.nifigeoparquet.archive.compaction.PartitionCompaction;
import dev.nifigeoparquet.archive.compaction.RowOrder;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code compact}: merges the small files of the partitions that qualify. */
@Command(
        name = "compact",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        header = "Merges the small files of the partitions that qualify.",
        description = {
            "Merges the small files appends and upserts leave behind, partition by partition, keeping the canonical "
                    + "'geo' block, schema, codec and row-group size. A partition qualifies when it holds more than --min-files files, "
                    + "or at least two files smaller than a quarter of the target file size.",
            "Each partition's compaction commits atomically and never changes its rows. Exit 1 when a partition fails."
        })
final class CompactCommand extends ArchiveCommand {

    @Option(names = "--archive", required = true, paramLabel = "DIR", description = "The archive.")
    Path archive;

    @Option(
            names = "--min-files",
            paramLabel = "N",
            description = "A partition with more live files than N qualifies (default: the archive's setting, 8).")
    Integer minFiles;

    @Option(
            names = "--row-order",
            paramLabel = "ORDER",
            description = "input (default): rows keep their order; hilbert: along a Hilbert curve; tiles: in"
                    + " sort-tile-recursive tiles. A spatial order makes each row group cover a compact area, so readers"
                    + " pruning by the bbox statistics skip most row groups of a small query box.")
    String rowOrder;

    @Option(
            names = "--cell",
            paramLabel = "CELL",
            split = ",",
            description = "Compact only these partitions (default: sweep every partition).")
    List<String> cells = List.of();

    @Option(
            names = "--threads",
            paramLabel = "N",
            description = "Partitions compacted at once, each on its own thread (default: one per available core).")
    Integer threads;

    @Override
    public Integer call() throws Exception {
        GeoParquetArchive opened = withThreads(openArchive(archive), threads);
        CompactionOptions options = CompactionOptions.archiveDefaults();
        if (minFiles != null) {
            if (minFiles < 1) {
                throw new InputException("--min-files must be at least 1, was " + minFiles);
            }
            options = options.withMinFiles(minFiles);
        }
        if (rowOrder != null) {
            options = options.withRowOrder(RowOrder.fromOption(rowOrder)); // an unknown order is a usage error
        }
        Compactor compactor = new Compactor(opened, options);
        List<String> selected = cells.isEmpty() ? opened.partitionCells() : cells;
        cells.forEach(opened::requireCell);
        Progress.Counter counter = progress().counter("partitions checked", selected.size());
        List<PartitionCompaction> results = compactor
                .sweep(selected, compaction -> {
                    synchronized (counter) {
                        counter.add(1);
                    }
                })
                .partitions();
        counter.finish();
        long compacted = results.stream().filter(PartitionCompaction::compacted).count();
        List<PartitionCompaction> failed =
                results.stream().filter(PartitionCompaction::failed).toList();
        for (PartitionCompaction result : results) {
            if (result.compacted()) {
                out().printf(
                                "compacted %s: %d files -> %d, %d rows, %d bytes written%n",
                                result.cell(),
                                result.filesBefore(),
                                result.filesAfter(),
                                result.rows(),
                                result.bytesWritten());
            }
        }
        out().printf(
                        "partitions compacted: %d of %d checked; bytes read %d, written %d%n",
                        compacted,
                        results.size(),
                        results.stream()
                                .mapToLong(PartitionCompaction::bytesRead)
                                .sum(),
                        results.stream()
                                .mapToLong(PartitionCompaction::bytesWritten)
                                .sum());
        if (!failed.isEmpty()) {
            throw new CheckFailedException(failed.size() + " partitions failed to compact, first "
                    + failed.get(0).cell() + ": "
                    + GeoParquetArchiveCli.oneLine(failed.get(0).failureMessage()));
        }
        return ExitCodes.OK;
    }
}
