package dev.nifigeoparquet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geojson.GeoJsonFeatureReader;
import dev.nifigeoparquet.archive.keying.CrsReprojector;
import dev.nifigeoparquet.archive.keying.GeoParquetCrs;
import dev.nifigeoparquet.archive.keying.SourceCrs;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.SchemaConformer;
import dev.nifigeoparquet.archive.ops.SchemaHandling;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import org.apache.parquet.example.data.Group;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * Reads delta files into rows of the archive's exact schema: GeoParquet files (field by field through
 * {@link SchemaConformer}) and GeoJSON FeatureCollections ({@code .geojson} or {@code .json}, through
 * {@link GeoJsonFeatureReader}). A file that cannot be read, or whose schema or CRS does not fit the archive, is an
 * input error naming the file.
 */
final class DeltaFiles {

    private final GeoParquetArchive archive;
    private final WriteMode mode;
    private final String deleteField;
    private final Progress progress;

    DeltaFiles(GeoParquetArchive archive, WriteMode mode, String deleteField, Progress progress) {
        this.archive = archive;
        this.mode = mode;
        this.deleteField = deleteField;
        this.progress = progress;
    }

    static boolean isGeoJson(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".geojson") || name.endsWith(".json");
    }

    /** Every row of every file, in order (a later row of a key wins over an earlier one). */
    List<DeltaRow> readAll(List<Path> files) throws IOException {
        List<DeltaRow> rows = new ArrayList<>();
        for (Path file : files) {
            ArchiveCommand.requireFile(file, "delta");
            int before = rows.size();
            if (isGeoJson(file)) {
                GeoJsonFeatureReader reader = new GeoJsonFeatureReader(archive, mode, deleteField);
                try (InputStream in = Files.newInputStream(file)) {
                    rows.addAll(reader.read(in, file.toString()));
                } catch (IOException e) {
                    throw new InputException(e.getMessage(), e);
                }
                if (deleteField != null && mode != WriteMode.DELETE && rows.size() > before && reader.featuresWithDeleteMarker() == 0) {
                    throw new InputException("--delete-field '" + deleteField + "': no feature of " + file + " has a property '"
                            + deleteField + "', so none could be deleted; check the name");
                }
            } else {
                readParquet(file, rows);
            }
            progress.note(String.format("read %,d rows from %s", rows.size() - before, file));
        }
        return rows;
    }

    private void readParquet(Path file, List<DeltaRow> rows) throws IOException {
        GeoParquetFileReader reader;
        try {
            reader = GeoParquetFileReader.open(file);
        } catch (IOException e) {
            throw new InputException("delta " + file + " is not a readable Parquet file: " + GeoParquetArchiveCli.oneLine(e.getMessage()), e);
        }
        try (reader) {
            ParquetFooter footer = reader.footer();
            requireArchiveCrs(footer, file);
            SchemaConformer conformer = mode == WriteMode.DELETE
                    ? SchemaConformer.forDeletes(archive.schema(), footer.schema(), archive.descriptor().keyColumns(), file.toString())
                    : SchemaConformer.of(archive.schema(), footer.schema(), SchemaHandling.FILL_MISSING_NULLABLE, deleteField, file.toString());
            long index = 0;
            for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                rows.add(conformer.conform(it.next(), index++));
            }
        }
    }

    /** Geometries are copied as stored, so the delta must be in the archive's CRS (GeoJSON is reprojected instead). */
    private void requireArchiveCrs(ParquetFooter footer, Path file) throws IOException {
        String geo = footer.keyValues().get(FooterEntries.GEO);
        if (geo == null || mode == WriteMode.DELETE) {
            return;
        }
        String column = archive.descriptor().geometryColumn();
        JsonNode columnNode = ArchiveJson.mapper().readTree(geo).path("columns").path(column);
        if (columnNode.isMissingNode()) {
            try {
                GeoMetadata.parse(geo); // fails naming the problem when the block is malformed
            } catch (IllegalArgumentException malformed) {
                throw new InputException("delta " + file + ": " + malformed.getMessage(), malformed);
            }
            return;
        }
        SourceCrs crs = GeoParquetCrs.resolve(columnNode.has("crs") ? columnNode.get("crs") : null);
        if (!CrsReprojector.isIdentity(crs, archive.sourceCrs())) {
            throw new InputException("delta " + file + " is in " + crs.authorityCode() + " but the archive is in "
                    + archive.sourceCrs().authorityCode() + "; reproject the delta first (or give it as GeoJSON, which is reprojected)");
        }
    }
}
