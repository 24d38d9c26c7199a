package dev.nifigeoparquet.cli;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.apache.parquet.io.LocalInputFile;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code init}: creates an empty archive whose schema and canonical footer come from a template GeoParquet file. */
@Command(
        name = "init",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        header = "Creates an empty archive from a template GeoParquet file.",
        description = {
            "Creates an empty archive: the template's schema and canonical footer entries (its 'geo' block among them) "
                    + "are pinned for every file the archive will hold, with the feature key and the H3 resolution.",
            "The template's file-level 'geo' bbox, if any (GeoPandas writes one), is left out of the canonical block, "
                    + "and out of its copy inside ARROW:schema: it cannot stay true in every file. The removal is reported."
        })
final class InitCommand extends ArchiveCommand {

    @Option(
            names = "--archive",
            required = true,
            paramLabel = "DIR",
            description = "Where to create the archive (must not hold one yet).")
    Path archive;

    @Option(
            names = "--template",
            required = true,
            paramLabel = "FILE.parquet",
            description = "A GeoParquet file with the archive's schema; only its footer is read.")
    Path template;

    @Option(
            names = "--key",
            paramLabel = "COL",
            split = ",",
            description =
                    "The stable feature key column(s); repeat or separate with commas. Omit for an append-only archive.")
    List<String> keyColumns = List.of();

    @Option(
            names = "--version-column",
            paramLabel = "COL",
            description = "Optional column whose larger value wins when an upsert meets an existing key.")
    String versionColumn;

    @Option(
            names = "--h3-resolution",
            required = true,
            paramLabel = "N",
            description = "The pinned H3 resolution, 0 to 15.")
    int resolution;

    @Option(
            names = "--zstd-level",
            paramLabel = "N",
            description = "ZSTD level of every data file (default: ${DEFAULT-VALUE}).")
    int zstdLevel = WriterSettings.DEFAULT_ZSTD_LEVEL;

    @Option(
            names = "--native-geometry",
            description =
                    "Also type the geometry column as Parquet GEOMETRY (GEOGRAPHY for spherical edges) with the geo block's CRS, "
                            + "so that GeoParquet 1.1 readers (the geo block) and readers of the native type are both served by every file. "
                            + "The template's geometry column must be WKB in a plain binary column.")
    boolean nativeGeometry;

    @Override
    public Integer call() throws Exception {
        requireFile(template, "template");
        requireCreatableDirectory(archive, "archive");
        ArchiveSpec archiveSpec = ArchiveSpec.fromTemplate(
                new LocalInputFile(template),
                template.toString(),
                keyColumns,
                versionColumn,
                resolution,
                WriterSettings.defaults().withZstdLevel(zstdLevel));
        if (nativeGeometry) {
            try {
                archiveSpec = archiveSpec.withNativeGeometry(template.toString());
            } catch (IllegalArgumentException e) {
                throw new InputException("--native-geometry: " + e.getMessage(), e);
            }
        }
        archiveSpec.warnings().forEach(warning -> err().println("warning: " + warning));
        GeoParquetArchive created =
                ArchiveCreator.create(new LocalArchiveStorage(archive), archiveSpec, Clock.systemUTC());
        out().printf("created archive %s%n", archive);
        out().printf("  h3 resolution:   %d%n", created.h3Resolution());
        out().printf("  geometry column: %s%n", created.descriptor().geometryColumn());
        out().printf("  crs:             %s%n", created.sourceCrs());
        out().printf(
                        "  key:             %s%n",
                        created.descriptor().keyColumns().isEmpty()
                                ? "(none: append-only)"
                                : created.descriptor().keyColumns());
        return ExitCodes.OK;
    }
}
