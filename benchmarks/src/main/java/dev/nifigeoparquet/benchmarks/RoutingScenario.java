package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.cells.CellBatches;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.concurrent.ComputeAhead;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.parquet.ColumnEncodings;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter.PageCompression;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.LocalOutputFile;

/**
 * Scenario 4, routing throughput: a GeoParquet file of skewed parcels read, every geometry decoded and keyed to its H3
 * cell, and every row written to its cell's file; against the plain read-then-write copy of the same file through the
 * same parquet-java reader and writer. The route runs as RouteByH3Cell runs it with GeoParquetRecordSetWriter, reading
 * and writing on one thread while a helper thread decodes and keys the block ahead ({@link ComputeAhead}) and the
 * writers' pages are compressed on helper threads ({@link PageCompression#AHEAD}); and all on one thread, to show
 * what the helpers buy. The copy is also timed with its pages compressed on helper threads, so that the route's gain
 * from them shows against a copy that has it too. Two intermediate passes (read and decode; read, decode and key,
 * without writing) show where the time goes. Each pass runs {@code repeats} times, interleaved, and the best time of
 * each is kept: on a shared machine the best run is the least disturbed one. CPU time is reported too, since the route
 * uses more than one core and the plain copy does not.
 */
final class RoutingScenario {

    /**
     * Per-cell output is many small files of mostly distinct values, read once by the upsert: the flow definitions'
     * GeoParquetRecordSetWriter writes it without dictionaries ("Dictionary Encoding" false), as here.
     */
    private static final ColumnEncodings PER_CELL_ENCODINGS =
            ColumnEncodings.defaults().withDictionary(false);

    /** As RouteByH3Cell holds at most. */
    private static final int BATCHED_ROWS = 4096;

    private RoutingScenario() {}

    static void run(int rows, int repeats, long seed, Path work, ObjectNode out) throws Exception {
        Archives.deleteTree(work);
        Files.createDirectories(work);
        Path input = work.resolve("input.parquet");
        FooterEntries footer = RowModel.current().footer();
        ParcelWorld world = new ParcelWorld(seed, 400);
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(input),
                input.toString(),
                RowModel.current().schema(),
                footer,
                WriterSettings.defaults())) {
            for (int i = 0; i < rows; i++) {
                writer.write(world.parcel(i).row(ParcelWorld.LOADED_AT_MICROS));
            }
            writer.finish();
        }
        out.put("features", rows);
        out.put("inputBytes", Files.size(input));
        out.put("h3Resolution", NightlyDeltaScenario.RESOLUTION);
        double decode = Double.MAX_VALUE, key = Double.MAX_VALUE;
        Probe.Measurement oneThread = null, keyingAhead = null, copied = null, copiedAhead = null;
        long cells = 0;
        ExecutorService helper = Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "routing-keying");
            thread.setDaemon(true);
            return thread;
        });
        try {
            for (int r = 0; r < repeats; r++) {
                copied = fastest(
                        copied,
                        Probe.measure(
                                () -> copy(input, work.resolve("copy.parquet"), PageCompression.ON_WRITING_THREAD)));
                copiedAhead = fastest(
                        copiedAhead,
                        Probe.measure(() -> copy(input, work.resolve("copy.parquet"), PageCompression.AHEAD)));
                decode = Math.min(
                        decode,
                        Probe.measure(() -> decodeAndKey(input, false))
                                .measurement()
                                .seconds());
                key = Math.min(
                        key,
                        Probe.measure(() -> decodeAndKey(input, true))
                                .measurement()
                                .seconds());
                Path routed = work.resolve("routed");
                Archives.deleteTree(routed);
                oneThread = fastest(
                        oneThread,
                        Probe.measure(
                                () -> route(input, routed, ComputeAhead.ON_CALLER, PageCompression.ON_WRITING_THREAD)));
                Archives.deleteTree(routed);
                var timed = Probe.measure(() -> route(input, routed, helper, PageCompression.AHEAD));
                keyingAhead = fastest(keyingAhead, timed);
                cells = timed.value();
            }
        } finally {
            helper.shutdownNow();
        }
        verifyRouted(work.resolve("routed"), rows, out);
        double copy = copied.seconds();
        double route = keyingAhead.seconds();
        out.put("cellsWritten", cells);
        out.put("repeats", repeats);
        ObjectNode fps = out.putObject("featuresPerSecond");
        fps.put("plainCopy", rows / copy);
        fps.put("copyCompressingAhead", rows / copiedAhead.seconds());
        fps.put("readAndDecode", rows / decode);
        fps.put("readDecodeAndKey", rows / key);
        fps.put("routeOnOneThread", rows / oneThread.seconds());
        fps.put("route", rows / route);
        ObjectNode us = out.putObject("microsecondsPerFeature");
        us.put("plainCopy", copy * 1e6 / rows);
        us.put("copyCompressingAhead", copiedAhead.seconds() * 1e6 / rows);
        us.put("readAndDecode", decode * 1e6 / rows);
        us.put("readDecodeAndKey", key * 1e6 / rows);
        us.put("routeOnOneThread", oneThread.seconds() * 1e6 / rows);
        us.put("route", route * 1e6 / rows);
        ObjectNode cpu = out.putObject("cpuMicrosecondsPerFeature");
        cpu.put("plainCopy", copied.cpuSeconds() * 1e6 / rows);
        cpu.put("copyCompressingAhead", copiedAhead.cpuSeconds() * 1e6 / rows);
        cpu.put("routeOnOneThread", oneThread.cpuSeconds() * 1e6 / rows);
        cpu.put("route", keyingAhead.cpuSeconds() * 1e6 / rows);
        out.put("routeThroughputOverPlainCopy", copy / route);
        out.put("routeOnOneThreadThroughputOverPlainCopy", copy / oneThread.seconds());
        out.put("routeThroughputOverCopyCompressingAhead", copiedAhead.seconds() / route);
    }

    private static Probe.Measurement fastest(Probe.Measurement best, Probe.Timed<?> timed) {
        return best == null || timed.measurement().seconds() < best.seconds() ? timed.measurement() : best;
    }

    private static long copy(Path input, Path output, PageCompression compression) throws IOException {
        Files.deleteIfExists(output);
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(input);
                GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                        new LocalOutputFile(output),
                        output.toString(),
                        reader.footer().schema(),
                        reader.footer().canonicalEntries(),
                        WriterSettings.defaults(),
                        ColumnEncodings.defaults(),
                        compression)) {
            long n = 0;
            for (Iterator<Group> it = reader.rows(); it.hasNext(); n++) {
                writer.write(it.next());
            }
            writer.finish();
            return n;
        }
    }

    /**
     * The last route's output: DuckDB counts every input row once, and every row, keyed again, lies in the cell its
     * directory names. A route that loses, repeats or misplaces a row stops the run.
     */
    private static void verifyRouted(Path routed, int rows, ObjectNode out) throws Exception {
        long counted;
        try (DuckDb duck = new DuckDb()) {
            counted = duck.countRows(routed);
        }
        H3Keyer keyer = new H3Keyer(NightlyDeltaScenario.RESOLUTION);
        long misplaced = 0;
        List<Path> files;
        try (Stream<Path> walk = Files.walk(routed)) {
            files = walk.filter(f -> f.toString().endsWith(".parquet")).toList();
        }
        for (Path file : files) {
            String cell = file.getParent().getFileName().toString().substring("h3_cell=".length());
            try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
                GeometryCodec codec = codecOf(reader);
                long index = 0;
                for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                    misplaced += cell.equals(keyer.cellOf(codec.decode(it.next(), index++), SourceCrs.CRS84)) ? 0 : 1;
                }
            }
        }
        out.put("routedRowsCountedByDuckDb", counted);
        out.put("routedRowsOutsideTheirCell", misplaced);
        if (counted != rows || misplaced != 0) {
            throw new IllegalStateException("The route wrote " + counted + " rows of " + rows + ", " + misplaced
                    + " of them outside their cell");
        }
    }

    /** The codec of the file's primary geometry column, as its {@code geo} block declares it. */
    private static GeometryCodec codecOf(GeoParquetFileReader reader) {
        GeoMetadata geo = GeoMetadata.parse(reader.footer().keyValues().get(FooterEntries.GEO));
        return GeometryCodec.forColumn(reader.footer().schema(), geo.primaryColumn(), geo.primary());
    }

    private static long decodeAndKey(Path input, boolean key) throws IOException {
        H3Keyer keyer = new H3Keyer(NightlyDeltaScenario.RESOLUTION);
        long hash = 0;
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(input)) {
            GeometryCodec codec = codecOf(reader);
            long index = 0;
            for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                var geometry = codec.decode(it.next(), index++);
                hash += key ? keyer.cellOf(geometry, SourceCrs.CRS84).hashCode() : geometry.getNumPoints();
            }
        }
        return hash;
    }

    /**
     * Routes every row to its cell's file, handing rows to the writers in batches per cell as RouteByH3Cell does
     * ({@link CellBatches}, at most {@value #BATCHED_ROWS} rows held); returns the number of cells.
     */
    private static long route(Path input, Path outputRoot, Executor helper, PageCompression compression)
            throws IOException {
        H3Keyer keyer = new H3Keyer(NightlyDeltaScenario.RESOLUTION);
        Map<String, GeoParquetFileWriter> writers = new HashMap<>();
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(input)) {
            GeometryCodec codec = codecOf(reader);
            FooterEntries footer = reader.footer().canonicalEntries();
            CellBatches<Group> batches =
                    new CellBatches<>(CellBatches.DEFAULT_BATCH_SIZE, BATCHED_ROWS, (cell, rows) -> {
                        GeoParquetFileWriter writer = writers.get(cell);
                        if (writer == null) {
                            Path dir = outputRoot.resolve("h3_cell=" + cell);
                            Files.createDirectories(dir);
                            Path file = dir.resolve("part-0.parquet");
                            writer = GeoParquetFileWriter.create(
                                    new LocalOutputFile(file),
                                    file.toString(),
                                    reader.footer().schema(),
                                    footer,
                                    WriterSettings.defaults(),
                                    PER_CELL_ENCODINGS,
                                    compression);
                            writers.put(cell, writer);
                        }
                        for (Group row : rows) {
                            writer.write(row);
                        }
                    });
            long[] decoded = {0}; // rows are computed in order, one block at a time
            try (ComputeAhead<Group, String> keyed = new ComputeAhead<>(
                    helper,
                    ComputeAhead.DEFAULT_BLOCK_SIZE,
                    row -> keyer.cellOf(codec.decode(row, decoded[0]++), SourceCrs.CRS84),
                    (row, cell) -> batches.add(cell, row))) {
                for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                    keyed.add(it.next());
                }
                keyed.finish();
            }
            batches.flush();
            for (GeoParquetFileWriter writer : writers.values()) {
                writer.finish();
            }
        } finally {
            for (GeoParquetFileWriter writer : writers.values()) {
                writer.close();
            }
        }
        return writers.size();
    }
}
