package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.compaction.CompactionOptions;
import dev.nifigeoparquet.archive.compaction.Compactor;
import dev.nifigeoparquet.archive.compaction.PartitionCompaction;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.OperationResult;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.NightlyDelta;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.verify.ArchiveVerifier;
import dev.nifigeoparquet.archive.verify.VerificationReport;
import dev.nifigeoparquet.archive.verify.VerifyOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.LocalOutputFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code demo}: the operations guide's nightly run, end to end on synthetic parcels: bulk load, route a delta,
 * upsert, compact the touched partitions, verify, and reconcile the counts; then a self-contained HTML report.
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        header = "Runs a nightly update end to end on a synthetic parcel archive and writes an offline HTML report.",
        description = {
            "Generates a synthetic parcel archive (parcels clustered around towns of skewed sizes, as real parcels are), "
                    + "then a nightly delta of edits, new parcels, moved parcels and deletions concentrated in a few cells, and runs "
                    + "the nightly update on it: route, upsert, compaction of the touched partitions, verification.",
            "Prints the partitions touched of the total, the bytes written against the archive's size, whether the 'geo' "
                    + "metadata is consistent and the CRS, and baseline + net delta = after; writes report.html (opens offline).",
            "Exit 1 when verification finds a problem or the counts do not reconcile."
        })
final class DemoCommand extends ArchiveCommand {

    static final Instant BASELINE_TIME = Instant.parse("2026-01-01T00:00:00Z");
    static final Instant DELTA_TIME = Instant.parse("2026-01-02T02:00:00Z");

    @Option(
            names = "--dir",
            paramLabel = "DIR",
            description = "Where to put the archive, the delta and the report; must be absent or empty "
                    + "(default: a new directory geoparquet-demo[-N] in the current directory).")
    Path dir;

    @Option(
            names = "--features",
            paramLabel = "N",
            description = "Parcels in the baseline archive (default: ${DEFAULT-VALUE}).")
    int features = 50_000;

    @Option(names = "--delta", paramLabel = "N", description = "Rows in the nightly delta (default: ${DEFAULT-VALUE}).")
    int deltaRows = 1_000;

    @Option(
            names = "--h3-resolution",
            paramLabel = "N",
            description = "The archive's H3 resolution (default: ${DEFAULT-VALUE}).")
    int resolution = 5;

    @Option(
            names = "--towns",
            paramLabel = "N",
            description = "Clusters the parcels gather around (default: ${DEFAULT-VALUE}).")
    int towns = 20;

    @Option(
            names = "--seed",
            paramLabel = "N",
            description = "Seed of every random choice; the same seed gives the same demo (default: ${DEFAULT-VALUE}).")
    long seed = 20260101L;

    @Override
    public Integer call() throws Exception {
        if (features < 1 || deltaRows < 1 || towns < 1) {
            throw new InputException("--features, --delta and --towns must be at least 1");
        }
        if (deltaRows > features / 2) {
            throw new InputException("--delta " + deltaRows + " is more than half of --features " + features
                    + "; a nightly delta is a small part of the archive");
        }
        Path root = demoDirectory();
        Progress progress = progress();
        progress.note("demo in " + root);

        // 1. The baseline: a bulk load of synthetic parcels, routed and appended partition by partition.
        Path archiveDir = root.resolve("archive");
        ArchiveSpec archiveSpec =
                SyntheticParcels.archiveSpec(resolution, WriterSettings.defaults(), "synthetic parcels");
        GeoParquetArchive archive =
                ArchiveCreator.create(new LocalArchiveStorage(archiveDir), archiveSpec, Clock.systemUTC());
        SyntheticParcels parcels = new SyntheticParcels(seed, towns);
        List<DeltaRow> baselineRows = new ArrayList<>(features);
        Progress.Counter generated = progress.counter("parcels generated", features);
        for (int i = 0; i < features; i++) {
            baselineRows.add(DeltaRow.upsert(parcels.next("p-" + i, BASELINE_TIME)));
            generated.add(1);
        }
        generated.finish();
        progress.note("bulk load:");
        DeltaApplication.Outcome load = new DeltaApplication(archive, progress).apply(WriteMode.APPEND, baselineRows);
        Map<String, List<Group>> baselineByCell = new LinkedHashMap<>();
        load.routed()
                .byCell()
                .forEach((cell, rows) -> baselineByCell.put(
                        cell, rows.stream().map(DeltaRow::row).toList()));
        baselineRows = null;

        List<String> allCells = archive.partitionCells();
        long baselineCount = new ArchiveVerifier(archive)
                .verify(VerifyOptions.wholeArchive())
                .rows();
        long archiveBytes = archiveBytes(archive, allCells);
        Map<String, Long> rowsBefore = rowsByCell(archive, allCells);

        // 2. The nightly delta, written as a GeoParquet file as an upstream system would deliver it.
        GeometryCodec codec = archive.geometryCodec();
        NightlyDelta.Delta delta = new NightlyDelta(seed + 1)
                .generate(
                        baselineByCell,
                        deltaRows,
                        row -> archive.keyer().cellOf(codec.decode(row, 0), archive.sourceCrs()),
                        DELTA_TIME);
        Path deltaFile = root.resolve("nightly-delta.parquet");
        writeDelta(deltaFile, delta.rows());
        progress.note(
                String.format("nightly delta: %,d rows in %s", delta.rows().size(), deltaFile));

        // 3. Route and upsert: the same path as 'apply --mode upsert --delete-field deleted'.
        progress.note("upsert:");
        List<DeltaRow> deltaRowsRead = new DeltaFiles(archive, WriteMode.UPSERT, NightlyDelta.DELETE_MARKER, progress)
                .readAll(List.of(deltaFile));
        DeltaApplication.Outcome upsert =
                new DeltaApplication(archive, progress).apply(WriteMode.UPSERT, deltaRowsRead);
        OperationResult result = upsert.result();

        // 4. Compaction of the partitions the upsert touched (the others did not change).
        Compactor compactor = new Compactor(archive, CompactionOptions.archiveDefaults());
        List<PartitionCompaction> compactions = new ArrayList<>();
        for (String cell : result.partitionsTouched()) {
            compactions.add(compactor.compact(cell));
        }
        long compactionBytes = compactions.stream()
                .mapToLong(PartitionCompaction::bytesWritten)
                .sum();

        // 5. Verification and reconciliation.
        long expected = baselineCount + delta.netRows();
        VerificationReport report =
                new ArchiveVerifier(archive).verify(VerifyOptions.wholeArchive().expectingRows(expected));
        boolean geoConsistent =
                report.problems().stream().noneMatch(problem -> VerifyCommand.GEO_KINDS.contains(problem.kind()));
        List<String> cellsAfter = archive.partitionCells();

        DemoFigures figures = new DemoFigures(
                root,
                archiveDir,
                deltaFile,
                resolution,
                delta,
                upsert.routed().byCell().keySet(),
                result.partitionsTouched(),
                allCells.size(),
                cellsAfter.size(),
                result.bytesWritten(),
                compactionBytes,
                archiveBytes,
                archiveBytes(archive, cellsAfter),
                geoConsistent,
                report.crs(),
                baselineCount,
                result.netRows(),
                report.rows(),
                expected,
                report.consistent(),
                report.problems().size(),
                result,
                compactions,
                rowsBefore,
                rowsByCell(archive, cellsAfter));
        Path html = root.resolve("report.html");
        Files.writeString(html, new DemoHtmlReport(figures).render());
        figures.print(out());
        out().printf("HTML report: %s%n", html);
        if (!report.consistent()) {
            throw new CheckFailedException(
                    "verification found " + report.problems().size() + " problems, first: "
                            + report.problems().get(0));
        }
        if (report.rows() != expected || baselineCount + result.netRows() != report.rows()) {
            throw new CheckFailedException("counts do not reconcile: baseline " + baselineCount + " + net "
                    + result.netRows() + " != after " + report.rows());
        }
        return ExitCodes.OK;
    }

    private Path demoDirectory() throws IOException {
        if (dir != null) {
            if (Files.exists(dir) && (!Files.isDirectory(dir) || !isEmpty(dir))) {
                throw new InputException(
                        "--dir " + dir + " exists and is not an empty directory; the demo never writes over files");
            }
            return Files.createDirectories(dir).toAbsolutePath();
        }
        Path candidate = Path.of("geoparquet-demo");
        for (int n = 2; Files.exists(candidate); n++) {
            candidate = Path.of("geoparquet-demo-" + n);
        }
        return Files.createDirectories(candidate).toAbsolutePath();
    }

    private static boolean isEmpty(Path directory) throws IOException {
        try (Stream<Path> entries = Files.list(directory)) {
            return entries.findAny().isEmpty();
        }
    }

    private static void writeDelta(Path file, List<Group> rows) throws IOException {
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                NightlyDelta.schema(),
                SyntheticParcels.footer(),
                WriterSettings.defaults())) {
            for (Group row : rows) {
                writer.write(row);
            }
            writer.finish();
        }
    }

    private static long archiveBytes(GeoParquetArchive archive, List<String> cells) throws IOException {
        long bytes = 0;
        for (String cell : cells) {
            bytes += archive.partitionState(cell).totalBytes();
        }
        return bytes;
    }

    private static Map<String, Long> rowsByCell(GeoParquetArchive archive, List<String> cells) throws IOException {
        Map<String, Long> rows = new LinkedHashMap<>();
        for (String cell : cells) {
            rows.put(cell, archive.partitionState(cell).rowCount());
        }
        return rows;
    }
}
