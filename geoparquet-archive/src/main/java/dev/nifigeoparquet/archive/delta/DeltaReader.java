package dev.nifigeoparquet.archive.delta;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.error.ParquetFileException;
import dev.nifigeoparquet.archive.geojson.GeoJsonFeatureReader;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.SchemaConformer;
import dev.nifigeoparquet.archive.ops.SchemaHandling;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.InputFile;

/**
 * The one way delta files reach the engine: Parquet files (GeoParquet with a {@code geo} block, or the native
 * GEOMETRY/GEOGRAPHY logical type) and GeoJSON FeatureCollections, read into rows of the archive's exact schema and
 * validated on the way in. The command line and the benchmarks read deltas here; the NiFi processors take theirs from
 * Record Readers and apply the same checks ({@link GeoParquetArchive#requireDeltaCrs}).
 *
 * <ul>
 *   <li>A Parquet delta must be readable and declare no other CRS than the archive's for the geometry column (its
 *       geometries are stored as they are); its fields are matched to the archive's by name
 *       ({@link SchemaConformer}, missing nullable fields written as null, an {@code h3_cell} partition column
 *       ignored).</li>
 *   <li>A GeoJSON delta ({@code .geojson} or {@code .json}) is converted feature by feature
 *       ({@link GeoJsonFeatureReader}): its geometries are in OGC:CRS84 and are converted to the archive's CRS.</li>
 *   <li>A delete field must exist in the delta, or no row could ever be deleted.</li>
 * </ul>
 * A delta that fails any check is refused with a {@link DeltaRejectedException} naming the file and every problem found;
 * nothing is returned. Rows are not keyed here: {@link DeltaRouter} keys them.
 */
public final class DeltaReader {

    private final GeoParquetArchive archive;
    private final WriteMode mode;
    private final String deleteField;

    /**
     * @param mode        in {@link WriteMode#DELETE} every row deletes its key and only the key columns are read
     * @param deleteField a boolean field whose true value makes a row delete its key; null when none
     */
    public DeltaReader(GeoParquetArchive archive, WriteMode mode, String deleteField) {
        this.archive = archive;
        this.mode = mode;
        this.deleteField = deleteField;
    }

    /** Whether a delta file is read as GeoJSON ({@code .geojson}, {@code .json}) rather than Parquet, by its name. */
    public static boolean isGeoJson(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".geojson") || lower.endsWith(".json");
    }

    /**
     * Every row of one delta file, in file order; GeoJSON or Parquet by its name.
     *
     * @param name the file's name, for the format and for messages
     * @throws DeltaRejectedException when the file cannot be applied as it is
     * @throws IOException            when the file cannot be read
     */
    public List<DeltaRow> read(InputFile file, String name) throws IOException {
        if (isGeoJson(name)) {
            try (InputStream in = file.newStream()) {
                return readGeoJson(in, name);
            }
        }
        return readParquet(file, name);
    }

    /** Every row of a Parquet delta, in file order. */
    public List<DeltaRow> readParquet(InputFile file, String name) throws IOException {
        GeoParquetFileReader reader;
        try {
            reader = GeoParquetFileReader.open(file, name);
        } catch (ParquetFileException e) {
            throw new DeltaRejectedException(
                    "Delta " + name + " rejected, nothing was written",
                    "it is not a readable Parquet file: " + ParquetFileException.reasons(e));
        }
        try (reader) {
            ParquetFooter footer = reader.footer();
            if (mode != WriteMode.DELETE) {
                archive.requireDeltaCrs(footer.schema(), footer.keyValues(), name);
            }
            SchemaConformer conformer = mode == WriteMode.DELETE
                    ? SchemaConformer.forDeletes(
                            archive.schema(),
                            footer.schema(),
                            archive.descriptor().keyColumns(),
                            name)
                    : SchemaConformer.of(
                            archive.schema(),
                            footer.schema(),
                            SchemaHandling.FILL_MISSING_NULLABLE,
                            deleteField,
                            archive.coveringColumns(),
                            name);
            List<DeltaRow> rows = new ArrayList<>();
            long index = 0;
            for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                rows.add(conformer.conform(it.next(), index++));
            }
            return rows;
        }
    }

    /** Every feature of a GeoJSON FeatureCollection as a row, in file order. */
    public List<DeltaRow> readGeoJson(InputStream in, String name) throws IOException {
        GeoJsonFeatureReader reader = new GeoJsonFeatureReader(archive, mode, deleteField);
        List<DeltaRow> rows = reader.read(in, name);
        if (deleteField != null
                && mode != WriteMode.DELETE
                && !rows.isEmpty()
                && reader.featuresWithDeleteMarker() == 0) {
            throw new DeltaRejectedException(
                    "GeoJSON delta rejected, nothing was written",
                    "no feature of " + name + " has a property '" + deleteField
                            + "' (the delete field), so none could be deleted; check the name");
        }
        return rows;
    }
}
