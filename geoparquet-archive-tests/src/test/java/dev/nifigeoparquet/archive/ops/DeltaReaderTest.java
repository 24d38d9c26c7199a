package dev.nifigeoparquet.archive.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.delta.DeltaReader;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DeltaReader}, the one way delta files reach the engine: what it accepts (a Parquet delta with a delete marker
 * and a Hive partition column, GeoJSON) and what it refuses, naming the file (another CRS, an unreadable file, another
 * schema, a delete field no row has).
 */
class DeltaReaderTest {

    private static final Instant T = Instant.parse("2026-02-01T00:00:00Z");
    private static final String MARKER = "deleted";

    @TempDir
    Path temp;

    ParcelArchive parcels;

    @BeforeEach
    void createArchive() throws IOException {
        parcels = ParcelArchive.create(temp.resolve("archive"), 20);
    }

    /** The parcel schema plus a delete marker and the {@code h3_cell} column DuckDB and pyarrow write into a file. */
    private static MessageType deltaSchema() {
        List<Type> fields = new ArrayList<>(SyntheticParcels.schema().getFields());
        fields.add(Types.optional(PrimitiveTypeName.BOOLEAN).named(MARKER));
        fields.add(Types.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("h3_cell"));
        return new MessageType("parcels", fields);
    }

    private List<Group> deltaRows(MessageType schema, int count) {
        List<Group> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Group parcel = parcels.parcels.next("d-" + i, T);
            Group row = new SimpleGroup(schema);
            for (int field = 0; field < parcel.getType().getFieldCount(); field++) {
                String name = parcel.getType().getFieldName(field);
                switch (parcel.getType().getType(field).asPrimitiveType().getPrimitiveTypeName()) {
                    case BINARY -> row.add(name, parcel.getBinary(field, 0));
                    case DOUBLE -> row.add(name, parcel.getDouble(field, 0));
                    case INT64 -> row.add(name, parcel.getLong(field, 0));
                    default -> throw new IllegalStateException();
                }
            }
            if (schema.containsField(MARKER)) {
                row.add(MARKER, i == 0);
            }
            if (schema.containsField("h3_cell")) {
                row.add("h3_cell", "not-a-cell-the-archive-uses");
            }
            rows.add(row);
        }
        return rows;
    }

    private static FooterEntries footerIn(String crsProjjson) throws IOException {
        GeoMetadata geo = GeoMetadata.builder()
                .wkbColumn(
                        SyntheticParcels.GEOMETRY,
                        List.of("Polygon"),
                        crsProjjson == null ? null : new ObjectMapper().readTree(crsProjjson),
                        null)
                .build();
        return FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, geo.rawString()));
    }

    @Test
    void aParquetDeltaIsReadInTheArchiveSchemaWithItsMarkerAndPartitionColumnDropped() throws IOException {
        Path file = temp.resolve("night.parquet");
        ArchiveFixtures.writeFile(file, deltaSchema(), footerIn(null), deltaRows(deltaSchema(), 3));

        List<DeltaRow> rows = new DeltaReader(parcels.archive, WriteMode.UPSERT, MARKER)
                .read(new LocalInputFile(file), file.toString());
        assertEquals(3, rows.size());
        assertEquals(
                List.of(true, false, false), rows.stream().map(DeltaRow::delete).toList());
        assertEquals(parcels.archive.schema(), rows.get(1).row().getType(), "rows come in the archive's exact schema");
        assertEquals("d-1", rows.get(1).row().getString(SyntheticParcels.KEY, 0));
    }

    @Test
    void aParquetDeltaInAnotherCrsIsRefusedNamingBoth() throws IOException {
        Path file = temp.resolve("mercator.parquet");
        ArchiveFixtures.writeFile(
                file,
                deltaSchema(),
                footerIn("{\"id\": {\"authority\": \"EPSG\", \"code\": 3857}}"),
                deltaRows(deltaSchema(), 2));

        DeltaRejectedException refused = assertThrows(
                DeltaRejectedException.class,
                () -> new DeltaReader(parcels.archive, WriteMode.UPSERT, MARKER)
                        .read(new LocalInputFile(file), file.toString()));
        assertTrue(
                refused.getMessage().contains(file.toString())
                        && refused.getMessage().contains("3857")
                        && refused.getMessage().contains("CRS84"),
                refused.getMessage());

        List<DeltaRow> deletions = new DeltaReader(parcels.archive, WriteMode.DELETE, null)
                .read(new LocalInputFile(file), file.toString());
        assertEquals(2, deletions.size(), "a delete reads keys only, whatever CRS the geometries are in");
    }

    @Test
    void aFileThatIsNotParquetOrHasAnotherSchemaIsRefused() throws IOException {
        Path garbage = Files.writeString(temp.resolve("garbage.parquet"), "not parquet at all");
        DeltaRejectedException unreadable = assertThrows(
                DeltaRejectedException.class,
                () -> new DeltaReader(parcels.archive, WriteMode.UPSERT, null)
                        .read(new LocalInputFile(garbage), garbage.toString()));
        assertTrue(unreadable.getMessage().contains("not a readable Parquet file"), unreadable.getMessage());

        Path evolved = temp.resolve("evolved.parquet");
        ArchiveFixtures.writeFile(evolved, deltaSchema(), footerIn(null), deltaRows(deltaSchema(), 1));
        DeltaRejectedException extra = assertThrows(
                DeltaRejectedException.class,
                () -> new DeltaReader(parcels.archive, WriteMode.UPSERT, null)
                        .read(new LocalInputFile(evolved), evolved.toString()));
        assertTrue(
                extra.getMessage().contains("field '" + MARKER + "' is not in the archive schema"), extra.getMessage());
        assertFalse(
                extra.getMessage().contains("'h3_cell'"), "the partition column is not data: " + extra.getMessage());
    }

    @Test
    void geoJsonThatIsNoFeatureCollectionOrLacksTheDeleteFieldIsRefused() throws IOException {
        DeltaReader reader = new DeltaReader(parcels.archive, WriteMode.UPSERT, MARKER);
        DeltaRejectedException array =
                assertThrows(DeltaRejectedException.class, () -> reader.readGeoJson(stream("[1, 2]"), "array.geojson"));
        assertTrue(array.getMessage().contains("array.geojson is not a GeoJSON FeatureCollection"), array.getMessage());

        String feature =
                "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{\"parcel_id\":\"p-1\","
                        + "\"area_m2\":1.5,\"updated_at\":\"2026-02-01T00:00:00Z\"},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":"
                        + "[[[4.8,45.7],[4.81,45.7],[4.81,45.71],[4.8,45.7]]]}}]}";
        DeltaRejectedException unmarked =
                assertThrows(DeltaRejectedException.class, () -> reader.readGeoJson(stream(feature), "edits.geojson"));
        assertTrue(
                unmarked.getMessage().contains("no feature of edits.geojson has a property '" + MARKER + "'"),
                unmarked.getMessage());

        List<DeltaRow> rows =
                new DeltaReader(parcels.archive, WriteMode.UPSERT, null).readGeoJson(stream(feature), "edits.geojson");
        assertEquals(1, rows.size());
        assertEquals(1.5, rows.get(0).row().getDouble("area_m2", 0));
        assertTrue(DeltaReader.isGeoJson("EDITS.JSON") && !DeltaReader.isGeoJson("edits.parquet"));
    }

    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }
}
