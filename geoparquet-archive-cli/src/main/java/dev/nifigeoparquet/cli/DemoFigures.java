package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.compaction.PartitionCompaction;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The figures of one demo run: what the operations guide asks a nightly update to report.
 *
 * @param routedCells        cells the delta's rows were routed to
 * @param touchedCells       partitions whose state the upsert committed (routed cells plus cells keys moved out of)
 * @param partitionsBefore   partitions before the update
 * @param partitionsAfter    partitions after it
 * @param upsertBytes        bytes of the files the upsert wrote
 * @param compactionBytes    bytes of the files compaction wrote
 * @param archiveBytesBefore bytes of the live files before the update
 * @param archiveBytesAfter  bytes of the live files after it
 * @param geoConsistent      no file's {@code geo} block, footer or CRS differs from the canonical one
 * @param crs                the archive's CRS in short form
 * @param baselineRows       rows before the update
 * @param netRows            the net change the upsert reported
 * @param afterRows          rows after the update, as verification read them
 * @param expectedRows       baseline + the delta's new keys - its deletions, computed from the generator's counts
 * @param consistent         verification found no problem
 */
record DemoFigures(
        Path directory,
        Path archive,
        Path deltaFile,
        int resolution,
        NightlyDelta.Delta delta,
        Set<String> routedCells,
        List<String> touchedCells,
        int partitionsBefore,
        int partitionsAfter,
        long upsertBytes,
        long compactionBytes,
        long archiveBytesBefore,
        long archiveBytesAfter,
        boolean geoConsistent,
        String crs,
        long baselineRows,
        long netRows,
        long afterRows,
        long expectedRows,
        boolean consistent,
        int problems,
        OperationResult upsert,
        List<PartitionCompaction> compactions,
        Map<String, Long> rowsBefore,
        Map<String, Long> rowsAfter) {

    long bytesWritten() {
        return upsertBytes + compactionBytes;
    }

    boolean reconciled() {
        return baselineRows + netRows == afterRows && afterRows == expectedRows;
    }

    static String percent(long part, long whole) {
        return whole == 0 ? "-" : String.format("%.2f%%", 100.0 * part / whole);
    }

    static String mib(long bytes) {
        return String.format("%.2f MiB", bytes / (1024.0 * 1024.0));
    }

    void print(PrintWriter out) {
        out.printf("Nightly update of %s%n", archive);
        out.printf(
                "delta: %,d rows (%,d edits, %,d new, %,d moved, %,d deletions) routed to %d cells%n",
                delta.rows().size(),
                delta.updates(),
                delta.inserts(),
                delta.moves(),
                delta.deletes(),
                routedCells.size());
        out.printf(
                "partitions touched: %d of %d (%s)%n",
                touchedCells.size(), partitionsBefore, percent(touchedCells.size(), partitionsBefore));
        out.printf(
                "bytes written: %s (upsert %s + compaction %s) against an archive of %s (%s)%n",
                mib(bytesWritten()),
                mib(upsertBytes),
                mib(compactionBytes),
                mib(archiveBytesBefore),
                percent(bytesWritten(), archiveBytesBefore));
        out.printf("geo consistent: %s%n", geoConsistent ? "True" : "False");
        out.printf("crs: %s%n", crs);
        out.printf(
                "rows: baseline %,d + net delta %+,d = %,d after (expected %,d): %s%n",
                baselineRows, netRows, afterRows, expectedRows, reconciled() ? "reconciled" : "MISMATCH");
        out.printf("verification: %s%n", consistent ? "consistent" : problems + " problems");
        out.flush();
    }
}
