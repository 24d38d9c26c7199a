package dev.nifigeoparquet.benchmarks;

import static dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter.PageCompression.AHEAD;
import static dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter.PageCompression.ON_WRITING_THREAD;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.cells.CellBatches;
import dev.nifigeoparquet.archive.cells.CellLanes;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.concurrent.ComputeAhead;
import dev.nifigeoparquet.archive.concurrent.DaemonThreadPools;
import dev.nifigeoparquet.archive.geo.GeoColumn;
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
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.LocalOutputFile;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;

/**
 * Scenario 4, routing throughput: a GeoParquet file of skewed parcels read, every geometry decoded and keyed to its H3
 * cell, and every row written to its cell's file; against the plain read-then-write copy of the same file through the
 * same parquet-java reader and writer. The route runs as RouteByH3Cell runs it with GeoParquetRecordSetWriter, reading
 * on one thread while a helper thread decodes and keys the block ahead ({@link ComputeAhead}), the cells are written on
 * one lane per core ({@link CellLanes}), the writers' pages are compressed on helper threads
 * ({@link PageCompression#AHEAD}) and each writer takes the geometry a row was keyed by for its covering bbox rather than
 * decoding it again; with every cell written on the reading thread, to show what the lanes buy; and all on one thread,
 * to show what every helper buys. The copy is also timed with its pages compressed on helper threads, and with that and the
 * route's encodings (no dictionaries, 64 KiB pages): the copy like the route, which has every helper and encoding the route has and
 * only lacks the keying, is what the route is judged against. Four more passes show where the time goes: read and
 * decode; read, decode and key, without writing; the route with every row written to one file, which keeps the
 * keying and the hand-offs but not the many writers; and the route of the same rows sorted by cell, whose writers
 * each take their rows in one run instead of a batch at a time. Each pass runs once unmeasured, then {@code repeats} times,
 * interleaved in an order that turns each round, and the median is kept, with the spread. CPU time is reported too,
 * since the route uses more than one core and the plain copy does not. The last output of each route is checked.
 */
final class RoutingScenario {

    /**
     * Per-cell output is many small files of mostly distinct values, read once by the upsert: the flow definitions'
     * GeoParquetRecordSetWriter writes it without dictionaries ("Dictionary Encoding" false) and in 64 KiB pages
     * ("Page Size" 64 KB), so that a cell's pages are compressed while it is still being written, as here.
     */
    private static final ColumnEncodings PER_CELL_ENCODINGS =
            ColumnEncodings.defaults().withDictionary(false).withPageSize(64 * 1024);

    /** The plain copy's: parquet-java's defaults, dictionaries included. */
    private static final ColumnEncodings COPY_ENCODINGS = ColumnEncodings.defaults();

    /** As RouteByH3Cell holds at most. */
    private static final int BATCHED_ROWS = 4096;

    /** The one output of the pass that routes every cell to one file. */
    private static final String ALL_CELLS = "all";

    /** The passes over the input file, each timed alone. */
    enum Pass {
        PLAIN_COPY("plainCopy"),
        COPY_COMPRESSING_AHEAD("copyCompressingAhead"),
        /** The copy with what the route has besides keying: pages compressed on helpers, no dictionaries, 64 KiB pages. */
        COPY_LIKE_THE_ROUTE("copyLikeTheRoute"),
        READ_AND_DECODE("readAndDecode"),
        READ_DECODE_AND_KEY("readDecodeAndKey"),
        ROUTE_ON_ONE_THREAD("routeOnOneThread"),
        /** The route with one output file for all cells: what keying and the hand-offs cost without many writers. */
        ROUTE_TO_ONE_FILE("routeToOneFile"),
        /** The route of the input sorted by cell: what the many writers cost when none is taken up twice. */
        ROUTE_SORTED_BY_CELL("routeSortedByCell"),
        /** The route with every cell written on the reading thread, one cell at a time, as before cells had lanes. */
        ROUTE_WRITING_ON_THE_CALLER("routeWritingOnTheCaller"),
        ROUTE("route");

        final String key;

        Pass(String key) {
            this.key = key;
        }
    }

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
        ExecutorService keying = daemonThreads(1, "routing-keying");
        ExecutorService cellWriting = daemonThreads(CellLanes.defaultLanes(), "routing-cell-writing");
        RouteThreads helpers = new RouteThreads(keying, cellWriting, CellLanes.defaultLanes());
        RouteThreads writingOnTheCaller = new RouteThreads(keying, ComputeAhead.ON_CALLER, 1);
        Path copied = work.resolve("copy.parquet");
        Path routed = work.resolve("routed");
        Path routedOnOneThread = work.resolve("routed-on-one-thread");
        Path routedToOneFile = work.resolve("routed-to-one-file");
        Path routedSorted = work.resolve("routed-sorted-by-cell");
        Path routedWritingOnTheCaller = work.resolve("routed-writing-on-the-caller");
        Path sortedInput = work.resolve("input-sorted-by-cell.parquet");
        sortByCell(input, work.resolve("routed-for-sorting"), sortedInput, helpers);
        long[] cells = {0};
        Map<Pass, Callable<?>> passes = new EnumMap<>(Pass.class);
        passes.put(Pass.PLAIN_COPY, () -> copy(input, copied, COPY_ENCODINGS, ON_WRITING_THREAD));
        passes.put(Pass.COPY_COMPRESSING_AHEAD, () -> copy(input, copied, COPY_ENCODINGS, AHEAD));
        passes.put(Pass.COPY_LIKE_THE_ROUTE, () -> copy(input, copied, PER_CELL_ENCODINGS, AHEAD));
        passes.put(Pass.READ_AND_DECODE, () -> decodeAndKey(input, false));
        passes.put(Pass.READ_DECODE_AND_KEY, () -> decodeAndKey(input, true));
        passes.put(
                Pass.ROUTE_ON_ONE_THREAD,
                () -> route(input, routedOnOneThread, RouteThreads.NONE, ON_WRITING_THREAD, cell -> cell));
        passes.put(Pass.ROUTE_TO_ONE_FILE, () -> route(input, routedToOneFile, helpers, AHEAD, cell -> ALL_CELLS));
        passes.put(Pass.ROUTE_SORTED_BY_CELL, () -> route(sortedInput, routedSorted, helpers, AHEAD, cell -> cell));
        passes.put(
                Pass.ROUTE_WRITING_ON_THE_CALLER,
                () -> route(input, routedWritingOnTheCaller, writingOnTheCaller, AHEAD, cell -> cell));
        passes.put(Pass.ROUTE, () -> {
            cells[0] = route(input, routed, helpers, AHEAD, cell -> cell);
            return cells[0];
        });
        // What each pass writes, removed before it runs and outside its time.
        Map<Pass, Path> outputs = new EnumMap<>(Pass.class);
        outputs.put(Pass.PLAIN_COPY, copied);
        outputs.put(Pass.COPY_COMPRESSING_AHEAD, copied);
        outputs.put(Pass.COPY_LIKE_THE_ROUTE, copied);
        outputs.put(Pass.ROUTE_ON_ONE_THREAD, routedOnOneThread);
        outputs.put(Pass.ROUTE_TO_ONE_FILE, routedToOneFile);
        outputs.put(Pass.ROUTE_SORTED_BY_CELL, routedSorted);
        outputs.put(Pass.ROUTE_WRITING_ON_THE_CALLER, routedWritingOnTheCaller);
        outputs.put(Pass.ROUTE, routed);
        Map<Pass, List<Probe.Measurement>> runs = new EnumMap<>(Pass.class);
        try {
            // One unmeasured round, then the measured ones, each starting one pass further along.
            for (int round = -1; round < repeats; round++) {
                for (int k = 0; k < Pass.values().length; k++) {
                    Pass pass = Rounds.inTurn(Pass.values(), round, k);
                    if (outputs.containsKey(pass)) {
                        Archives.deleteTree(outputs.get(pass));
                    }
                    Probe.Measurement measured = Probe.measure(passes.get(pass)).measurement();
                    if (round >= 0) {
                        runs.computeIfAbsent(pass, p -> new ArrayList<>()).add(measured);
                    }
                }
            }
        } finally {
            keying.shutdownNow();
            cellWriting.shutdownNow();
        }
        verifyRouted(routed, rows, out.putObject("routedVerification"));
        verifyRouted(routedOnOneThread, rows, out.putObject("routedOnOneThreadVerification"));
        verifyRouted(routedSorted, rows, out.putObject("routedSortedByCellVerification"));
        verifyRouted(routedWritingOnTheCaller, rows, out.putObject("routedWritingOnTheCallerVerification"));
        verifyRoutedToOneFile(routedToOneFile, rows, out.putObject("routedToOneFileVerification"));
        out.put("cellsWritten", cells[0]);
        out.put("repeats", repeats);
        ObjectNode fps = out.putObject("featuresPerSecond");
        ObjectNode us = out.putObject("microsecondsPerFeature");
        ObjectNode cpu = out.putObject("cpuMicrosecondsPerFeature");
        ObjectNode wall = out.putObject("wallSeconds");
        Map<Pass, Probe.Measurement> medians = new EnumMap<>(Pass.class);
        runs.forEach((pass, measured) -> {
            Probe.Measurement median = Probe.median(measured, Probe.Measurement::seconds);
            medians.put(pass, median);
            fps.put(pass.key, rows / median.seconds());
            us.put(pass.key, median.seconds() * 1e6 / rows);
            cpu.put(pass.key, median.cpuSeconds() * 1e6 / rows);
            Rounds.putWallSeconds(
                    wall.putObject(pass.key),
                    measured.stream().map(Probe.Measurement::seconds).toList());
        });
        double route = medians.get(Pass.ROUTE).seconds();
        out.put("routeThroughputOverPlainCopy", medians.get(Pass.PLAIN_COPY).seconds() / route);
        out.put(
                "routeOnOneThreadThroughputOverPlainCopy",
                medians.get(Pass.PLAIN_COPY).seconds()
                        / medians.get(Pass.ROUTE_ON_ONE_THREAD).seconds());
        out.put(
                "routeThroughputOverCopyCompressingAhead",
                medians.get(Pass.COPY_COMPRESSING_AHEAD).seconds() / route);
        out.put(
                "routeThroughputOverCopyLikeTheRoute",
                medians.get(Pass.COPY_LIKE_THE_ROUTE).seconds() / route);
        for (Pass bound :
                List.of(Pass.ROUTE_TO_ONE_FILE, Pass.ROUTE_SORTED_BY_CELL, Pass.ROUTE_WRITING_ON_THE_CALLER)) {
            out.put(
                    bound.key + "ThroughputOverCopyLikeTheRoute",
                    medians.get(Pass.COPY_LIKE_THE_ROUTE).seconds()
                            / medians.get(bound).seconds());
        }
    }

    /**
     * Writes {@code input}'s rows to {@code sorted} in cell order (cells ascending, each cell's rows in input order),
     * by routing them once and concatenating the cells' files: outside any measured time.
     */
    private static void sortByCell(Path input, Path routed, Path sorted, RouteThreads helpers) throws IOException {
        route(input, routed, helpers, AHEAD, cell -> cell);
        try (GeoParquetFileReader first = GeoParquetFileReader.open(input);
                GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                        new LocalOutputFile(sorted),
                        sorted.toString(),
                        first.footer().schema(),
                        first.footer().canonicalEntries(),
                        WriterSettings.defaults())) {
            for (Path cellFile : parquetFilesIn(routed)) {
                try (GeoParquetFileReader reader = GeoParquetFileReader.open(cellFile)) {
                    for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                        writer.write(it.next());
                    }
                }
            }
            writer.finish();
        }
        Archives.deleteTree(routed);
    }

    /** The Parquet files under a route's output, in the order of their paths: cell by cell. */
    private static List<Path> parquetFilesIn(Path routed) throws IOException {
        try (Stream<Path> walk = Files.walk(routed)) {
            return walk.filter(f -> f.toString().endsWith(".parquet")).sorted().toList();
        }
    }

    /** The route to one file: DuckDB counts every input row once in it. */
    private static void verifyRoutedToOneFile(Path routed, int rows, ObjectNode out) throws Exception {
        long counted;
        try (DuckDb duck = new DuckDb()) {
            counted = duck.countRows(routed);
        }
        out.put("rowsCountedByDuckDb", counted);
        if (counted != rows) {
            throw new IllegalStateException("The route to one file wrote " + counted + " rows of " + rows);
        }
    }

    private static long copy(Path input, Path output, ColumnEncodings encodings, PageCompression compression)
            throws IOException {
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(input);
                GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                        new LocalOutputFile(output),
                        output.toString(),
                        reader.footer().schema(),
                        reader.footer().canonicalEntries(),
                        WriterSettings.defaults(),
                        encodings,
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
     * The last route's output: DuckDB counts every input row once, every row, keyed again, lies in the cell its
     * directory names, and its covering bbox (when the file declares one with planar edges) is its geometry's envelope
     * as JTS computes it, the writer having taken the geometry from the keying. A route that loses, repeats or misplaces
     * a row, or boxes it by another row's geometry, stops the run.
     */
    private static void verifyRouted(Path routed, int rows, ObjectNode out) throws Exception {
        long counted;
        try (DuckDb duck = new DuckDb()) {
            counted = duck.countRows(routed);
        }
        H3Keyer keyer = new H3Keyer(NightlyDeltaScenario.RESOLUTION);
        long misplaced = 0;
        long misboxed = 0;
        for (Path file : parquetFilesIn(routed)) {
            String cell = file.getParent().getFileName().toString().substring("h3_cell=".length());
            try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
                GeoMetadata geo = geoOf(reader);
                GeometryCodec codec = codecOf(reader, geo);
                GeoColumn primary = geo.primary();
                Map<String, List<String>> covering =
                        primary.spherical() ? Map.of() : primary.coveringBbox().orElse(Map.of());
                long index = 0;
                for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                    Group row = it.next();
                    Geometry geometry = codec.decode(row, index++);
                    misplaced += cell.equals(keyer.cellOf(geometry, SourceCrs.CRS84)) ? 0 : 1;
                    misboxed += boxedByItsGeometry(row, geometry, covering) ? 0 : 1;
                }
            }
        }
        out.put("rowsCountedByDuckDb", counted);
        out.put("rowsOutsideTheirCell", misplaced);
        out.put("rowsWithAnotherBbox", misboxed);
        if (counted != rows || misplaced != 0 || misboxed != 0) {
            throw new IllegalStateException("The route wrote " + counted + " rows of " + rows + ", " + misplaced
                    + " of them outside their cell, " + misboxed + " with a bbox that is not their geometry's");
        }
    }

    /** Whether the row's covering x/y bounds (key to struct and field) are those of its geometry's envelope. */
    private static boolean boxedByItsGeometry(Group row, Geometry geometry, Map<String, List<String>> covering) {
        Envelope envelope = geometry.getEnvelopeInternal();
        Map<String, Double> expected = Map.of(
                "xmin", envelope.getMinX(),
                "ymin", envelope.getMinY(),
                "xmax", envelope.getMaxX(),
                "ymax", envelope.getMaxY());
        for (Map.Entry<String, List<String>> bound : covering.entrySet()) {
            Double want = expected.get(bound.getKey());
            List<String> path = bound.getValue();
            if (want != null && row.getGroup(path.get(0), 0).getDouble(path.get(1), 0) != want) {
                return false;
            }
        }
        return true;
    }

    /** The codec of the file's primary geometry column, as its {@code geo} block declares it. */
    private static GeometryCodec codecOf(GeoParquetFileReader reader) {
        return codecOf(reader, geoOf(reader));
    }

    private static GeometryCodec codecOf(GeoParquetFileReader reader, GeoMetadata geo) {
        return GeometryCodec.forColumn(reader.footer().schema(), geo.primaryColumn(), geo.primary());
    }

    private static GeoMetadata geoOf(GeoParquetFileReader reader) {
        return GeoMetadata.parse(reader.footer().keyValues().get(FooterEntries.GEO));
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
     * Where a route runs besides the reading thread: keying, a block ahead ({@link ComputeAhead}), and writing the
     * cells, on {@code lanes} lanes ({@link CellLanes}).
     */
    private record RouteThreads(Executor keying, Executor cellWriting, int lanes) {
        /** Everything on the reading thread. */
        static final RouteThreads NONE = new RouteThreads(ComputeAhead.ON_CALLER, ComputeAhead.ON_CALLER, 1);
    }

    private static ExecutorService daemonThreads(int threads, String name) {
        return DaemonThreadPools.endingWhenIdle(threads, null, name + "-", Duration.ofMinutes(1));
    }

    /** A row with its cell and its geometry, which its writer takes for the covering bbox as RouteByH3Cell's does. */
    private record Keyed(String cell, Group row, Geometry geometry) {}

    /**
     * Routes every row to its cell's file, handing rows to the writers in batches per cell as RouteByH3Cell does
     * ({@link CellBatches}, at most {@value #BATCHED_ROWS} rows held), each with the geometry it was keyed by; returns
     * the number of files written.
     * {@code fileOf} names the output a cell's rows go to: the cell itself, except in the pass that writes one file.
     */
    private static long route(
            Path input,
            Path outputRoot,
            RouteThreads threads,
            PageCompression compression,
            UnaryOperator<String> fileOf)
            throws IOException {
        H3Keyer keyer = new H3Keyer(NightlyDeltaScenario.RESOLUTION);
        // Each cell's writer is made and used on its lane, lanes side by side.
        Map<String, GeoParquetFileWriter> writers = new ConcurrentHashMap<>();
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(input)) {
            GeometryCodec codec = codecOf(reader);
            FooterEntries footer = reader.footer().canonicalEntries();
            Set<String> files = new LinkedHashSet<>();
            try (CellLanes<Keyed> cellLanes =
                    new CellLanes<>(threads.cellWriting(), threads.lanes(), BATCHED_ROWS, (file, rows) -> {
                        GeoParquetFileWriter writer = writers.get(file);
                        if (writer == null) {
                            Path dir = outputRoot.resolve("h3_cell=" + file);
                            Files.createDirectories(dir);
                            Path path = dir.resolve("part-0.parquet");
                            writer = GeoParquetFileWriter.create(
                                    new LocalOutputFile(path),
                                    path.toString(),
                                    reader.footer().schema(),
                                    footer,
                                    WriterSettings.defaults(),
                                    PER_CELL_ENCODINGS,
                                    compression);
                            writers.put(file, writer);
                        }
                        for (Keyed row : rows) {
                            writer.write(row.row(), row.geometry());
                        }
                    })) {
                CellBatches<Keyed> batches =
                        new CellBatches<>(CellBatches.DEFAULT_BATCH_SIZE, BATCHED_ROWS, (file, rows) -> {
                            files.add(file);
                            cellLanes.write(file, rows);
                        });
                long[] decoded = {0}; // rows are computed in order, one block at a time
                try (ComputeAhead<Group, Keyed> keyed = new ComputeAhead<>(
                        threads.keying(),
                        ComputeAhead.DEFAULT_BLOCK_SIZE,
                        row -> {
                            Geometry geometry = codec.decode(row, decoded[0]++);
                            return new Keyed(keyer.cellOf(geometry, SourceCrs.CRS84), row, geometry);
                        },
                        (row, routed) -> batches.add(fileOf.apply(routed.cell()), routed))) {
                    for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                        keyed.add(it.next());
                    }
                    keyed.finish();
                }
                batches.flush();
                cellLanes.end(files, file -> writers.get(file).finish());
                cellLanes.finish();
            }
        } finally {
            for (GeoParquetFileWriter writer : writers.values()) {
                writer.close();
            }
        }
        return writers.size();
    }
}
