package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.adoption.AdoptionOptions;
import dev.nifigeoparquet.archive.adoption.AdoptionReport;
import dev.nifigeoparquet.archive.adoption.ArchiveAdopter;
import dev.nifigeoparquet.archive.error.AdoptionRefusedException;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code adopt}: takes over a directory that pyarrow, GeoPandas or DuckDB wrote in the h3_cell=<cell>/ layout. */
@Command(
        name = "adopt",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        header = "Adopts an h3_cell=<cell>/ directory written by pyarrow, GeoPandas or DuckDB.",
        description = {
            "Adopts an existing h3_cell=<cell>/*.parquet directory written by pyarrow, GeoPandas or DuckDB: "
                    + "the resolution comes from the partition names, the schema and canonical footer from a reference file, "
                    + "and every partition's files become its first commit. No data file is rewritten.",
            "Every row is keyed: rows outside the partition of their geometry's cell are refused (or moved with --rehome), "
                    + "and so are rows without a keyable geometry and null or duplicate keys. Nothing is written when adoption is refused.",
            "GeoPandas' per-file 'geo' bbox is reported and left out of the canonical block (and of its copy inside "
                    + "ARROW:schema); a 'crs' that is not PROJJSON is reported as a warning and never changed."
        })
final class AdoptCommand extends ArchiveCommand {

    @Option(names = "--archive", required = true, paramLabel = "DIR", description = "The directory to adopt.")
    Path archive;

    @Option(
            names = "--key",
            paramLabel = "COL",
            split = ",",
            description = "The stable feature key column(s). Omit for an append-only archive.")
    List<String> keyColumns = List.of();

    @Option(
            names = "--version-column",
            paramLabel = "COL",
            description = "Optional column whose larger value wins in an upsert.")
    String versionColumn;

    @Option(
            names = "--h3-resolution",
            paramLabel = "N",
            description = "The resolution you expect; adoption fails if the partition names encode another.")
    Integer resolution;

    @Option(
            names = "--reference-file",
            paramLabel = "PATH",
            description =
                    "The file (relative to the archive) whose schema and footer become canonical; default: one carrying the most common 'geo' block.")
    String referenceFile;

    @Option(
            names = "--rehome",
            description =
                    "Move rows that lie in another partition than the H3 cell of their geometry into that cell while adopting "
                            + "(default: refuse the directory, naming examples).")
    boolean rehome;

    @Override
    public Integer call() throws Exception {
        requireDirectory(archive, "archive");
        progress().note("adopting " + archive + " (reading and keying every row) ...");
        AdoptionReport report;
        try {
            report = ArchiveAdopter.adopt(
                    new LocalArchiveStorage(archive),
                    new AdoptionOptions(keyColumns, versionColumn, resolution, referenceFile, null, rehome),
                    Clock.systemUTC());
        } catch (AdoptionRefusedException refused) {
            if (refused.misplacedRows() == 0) {
                throw refused;
            }
            throw new InputException(refused.getMessage() + " (adopt --rehome)", refused);
        }
        report.record().warnings().forEach(warning -> err().println("warning: " + warning));
        out().printf("adopted archive %s%n", archive);
        out().printf("  partitions:      %d%n", report.partitions());
        out().printf("  files:           %d%n", report.files());
        out().printf("  rows:            %d%n", report.rows());
        out().printf("  h3 resolution:   %d%n", report.archive().h3Resolution());
        out().printf("  crs:             %s%n", report.archive().sourceCrs());
        out().printf("  reference file:  %s%n", report.record().referenceFile());
        if (report.record().rehomedRows() > 0) {
            out().printf(
                            "  rows re-homed:   %d (moved into the partition of their cell)%n",
                            report.record().rehomedRows());
        }
        out().printf(
                        "  geo blocks:      %d distinct%s%n",
                        report.record().distinctGeoBlocks(),
                        report.record().canonicalDerived()
                                ? "; canonical block derived: "
                                        + String.join("; ", report.record().derivation())
                                : "");
        return ExitCodes.OK;
    }
}
