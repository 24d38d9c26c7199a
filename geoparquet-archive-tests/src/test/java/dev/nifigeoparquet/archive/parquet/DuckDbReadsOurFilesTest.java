package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.WKTReader;

/** DuckDB, an independent GeoParquet reader, decodes the geometries and bboxes we write to what we meant. */
class DuckDbReadsOurFilesTest {

    private static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.INT32)
            .named("id")
            .optional(PrimitiveTypeName.BINARY)
            .named("geometry")
            .addField(BoxRows.BBOX)
            .named("features");

    @TempDir
    Path dir;

    @Test
    void geometriesAndBboxesReadBackThroughDuckDb() throws Exception {
        List<Geometry> geometries = yamlGeometries();
        GeoMetadata geo = GeoMetadata.builder()
                .wkbColumn("geometry", List.of(), null, "bbox")
                .build();
        Path file = dir.resolve("ours.parquet");
        GeometryCodec codec = GeometryCodec.forColumn(SCHEMA, "geometry", geo.primary());
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(file),
                file.toString(),
                SCHEMA,
                FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, geo.rawString())),
                WriterSettings.defaults().withRowGroupRowCountLimit(50))) {
            for (int id = 0; id < geometries.size(); id++) {
                Group row = new SimpleGroup(SCHEMA);
                row.add("id", id);
                codec.encode(geometries.get(id), row);
                writer.write(row);
            }
            writer.finish();
        }

        assertEquals(geometries.size(), DuckDb.countRows(file));
        assertArrayEquals(geo.rawBytes(), DuckDb.footerEntries(file).get(FooterEntries.GEO));
        List<List<Object>> rows = DuckDb.query(
                "SELECT id, geometry::VARCHAR, bbox.xmin, bbox.ymin, bbox.xmax, bbox.ymax "
                        + "FROM read_parquet(?, hive_partitioning = false) ORDER BY id",
                file.toString());
        WKTReader wkt = new WKTReader();
        int nonEmpty = 0;
        for (List<Object> row : rows) {
            Geometry expected = geometries.get((Integer) row.get(0));
            Geometry seen = wkt.read((String) row.get(1));
            assertTrue(expected.equalsExact(seen), expected + " vs DuckDB's " + row.get(1));
            Coordinate[] e = expected.getCoordinates();
            Coordinate[] s = seen.getCoordinates();
            for (int i = 0; i < e.length; i++) {
                assertEquals(e[i].getZ(), s[i].getZ(), 0.0, "Z of " + expected);
            }
            if (expected.isEmpty()) {
                assertNull(row.get(2), "no bbox for " + expected);
                continue;
            }
            Envelope envelope = expected.getEnvelopeInternal();
            assertEquals(
                    List.of(envelope.getMinX(), envelope.getMinY(), envelope.getMaxX(), envelope.getMaxY()),
                    row.subList(2, 6),
                    "bbox of " + expected);
            nonEmpty++;
        }
        assertEquals(geometries.stream().filter(g -> !g.isEmpty()).count(), nonEmpty, "non-empty geometries checked");
    }

    /** Every geometry of geospatial.yaml that DuckDB's WKT output can express (XY and Z; it drops M). */
    private static List<Geometry> yamlGeometries() throws Exception {
        var yaml = new ObjectMapper(new YAMLFactory())
                .readTree(PeerData.file("parquet-format-geospatial/geospatial.yaml")
                        .toFile());
        WKTReader wkt = new WKTReader();
        List<Geometry> geometries = new ArrayList<>();
        for (var group : yaml.properties()) {
            for (var value : group.getValue()) {
                if (!value.isNull()
                        && !value.asText().contains(" M")
                        && !value.asText().contains(" ZM")) {
                    geometries.add(wkt.read(value.asText()));
                }
            }
        }
        return geometries;
    }
}
