package dev.nifigeoparquet.archive.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.GeoParquetCrs;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;

/**
 * Archives as other tools write them, built from the peer files for adoption and protocol tests.
 */
public final class ArchiveFixtures {

    /** The peer file with a per-file bbox, a covering column and a PROJJSON crs (Natural Earth countries). */
    public static final String COUNTRIES = "geoparquet-1.1.0/example.parquet";

    private static final ObjectMapper JSON = new ObjectMapper();

    private ArchiveFixtures() {}

    /** Rows of a peer file grouped by the H3 cell the engine's keying gives them, in file order within each cell. */
    public static Map<String, List<Group>> rowsByCell(Path file, int resolution) throws IOException {
        ParquetRows.Contents contents = ParquetRows.read(file);
        GeoMetadata geo = GeoMetadata.parse(contents.footer().keyValues().get(FooterEntries.GEO));
        GeometryCodec codec = GeometryCodec.forColumn(contents.footer().schema(), geo.primaryColumn(), geo.primary());
        SourceCrs crs = GeoParquetCrs.resolve(JSON.readTree(geo.rawBytes())
                .path("columns")
                .path(geo.primaryColumn())
                .get("crs"));
        H3Keyer keyer = new H3Keyer(resolution);
        Map<String, List<Group>> byCell = new TreeMap<>();
        long index = 0;
        for (Group row : contents.rows()) {
            Geometry geometry = codec.decode(row, index++);
            byCell.computeIfAbsent(keyer.cellOf(geometry, crs), cell -> new ArrayList<>())
                    .add(row);
        }
        return byCell;
    }

    /** The cell the archive keys a row of its own schema to: the partition the row belongs in. */
    public static String cellOf(GeoParquetArchive archive, Group row) {
        return archive.keyer().cellOf(archive.geometryCodec().decode(row, 0), archive.sourceCrs());
    }

    /** Rows of the archive's schema grouped by {@link #cellOf}, cells in order, rows in their order within each. */
    public static Map<String, List<Group>> rowsByCell(GeoParquetArchive archive, List<Group> rows) {
        Map<String, List<Group>> byCell = new TreeMap<>();
        for (Group row : rows) {
            byCell.computeIfAbsent(cellOf(archive, row), cell -> new ArrayList<>())
                    .add(row);
        }
        return byCell;
    }

    /**
     * Writes the peer countries file as GeoPandas writes a partitioned dataset: one file per cell, each with its own
     * {@code geo} block whose bbox is that file's extent and whose geometry_types lists only the types it holds.
     */
    public static Map<String, List<Group>> writeGeoPandasStyleArchive(Path root, int resolution) throws IOException {
        Path source = PeerData.file(COUNTRIES);
        ParquetRows.Contents contents = ParquetRows.read(source);
        FooterEntries footer = contents.footer().canonicalEntries();
        GeoMetadata geo = GeoMetadata.parse(footer.geo());
        GeometryCodec codec = GeometryCodec.forColumn(contents.footer().schema(), geo.primaryColumn(), geo.primary());
        Map<String, List<Group>> byCell = rowsByCell(source, resolution);
        for (Map.Entry<String, List<Group>> cell : byCell.entrySet()) {
            Envelope extent = new Envelope();
            Set<String> types = new LinkedHashSet<>();
            for (Group row : cell.getValue()) {
                Geometry geometry = codec.decode(row, 0);
                extent.expandToInclude(geometry.getEnvelopeInternal());
                types.add(geometry.getGeometryType());
            }
            ObjectNode block = (ObjectNode) JSON.readTree(footer.geo());
            ObjectNode column = (ObjectNode) block.path("columns").path(geo.primaryColumn());
            ArrayNode bbox = column.putArray("bbox");
            bbox.add(extent.getMinX())
                    .add(extent.getMinY())
                    .add(extent.getMaxX())
                    .add(extent.getMaxY());
            ArrayNode typeArray = column.putArray("geometry_types");
            types.forEach(typeArray::add);
            Map<String, String> entries = new LinkedHashMap<>(footer.asMap());
            entries.put(FooterEntries.GEO, JSON.writeValueAsString(block));
            writeFile(
                    root.resolve("h3_cell=" + cell.getKey()).resolve(UUID.randomUUID() + "-0.parquet"),
                    contents.footer().schema(),
                    FooterEntries.canonicalOf(entries),
                    cell.getValue());
        }
        return byCell;
    }

    public static void writeFile(Path file, MessageType schema, FooterEntries footer, List<Group> rows)
            throws IOException {
        Files.createDirectories(file.getParent());
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file), file.toString(), schema, footer, WriterSettings.defaults())) {
            for (Group row : rows) {
                writer.write(row);
            }
            writer.finish();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
