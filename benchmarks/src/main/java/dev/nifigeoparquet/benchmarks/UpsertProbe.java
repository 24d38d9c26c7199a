package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.WriteMode;
import java.nio.file.Path;

/**
 * The child JVM of the memory scenario: applies a delta file to an archive as an upsert and prints one JSON line
 * with what it did and what it cost. Run under {@code -Xmx256m}; an OutOfMemoryError fails the process.
 *
 * <p>Usage: {@code UpsertProbe <archive root> <delta.parquet>}
 */
public final class UpsertProbe {

    private UpsertProbe() {}

    public static void main(String[] args) throws Exception {
        GeoParquetArchive archive = Archives.open(Path.of(args[0]));
        Delta delta = Delta.readParquet(Path.of(args[1]), archive);
        var timed = Probe.measure(() -> delta.applyIncrementally(archive, WriteMode.UPSERT));
        OperationResult result = timed.value();
        ObjectNode json = JsonNodeFactory.instance.objectNode();
        json.put("maxHeapBytes", Runtime.getRuntime().maxMemory());
        json.put("wallSeconds", timed.measurement().seconds());
        json.put("cpuSeconds", timed.measurement().cpuSeconds());
        json.put("heapPeakBytes", timed.measurement().heapPeakBytes());
        json.put("heapPoolPeakSumBytes", timed.measurement().heapPoolPeakSumBytes());
        json.put("rssPeakBytes", timed.measurement().rssPeakBytes());
        json.put("deltaFeatures", delta.changes().size());
        json.put("rowsBefore", result.rowsBefore());
        json.put("rowsAfter", result.rowsAfter());
        json.put("netRows", result.netRows());
        json.put("bytesRead", result.bytesRead());
        json.put("bytesWritten", result.bytesWritten());
        json.put("partitionsTouched", result.partitionsTouched().size());
        System.out.println(json);
    }
}
