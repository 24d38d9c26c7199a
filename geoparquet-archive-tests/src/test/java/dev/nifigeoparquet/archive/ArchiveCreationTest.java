package dev.nifigeoparquet.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.error.ArchiveNotFoundException;
import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.parquet.ArrowSchemaEntry;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.PeerData;
import dev.nifigeoparquet.archive.testing.WriterFiles;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class ArchiveCreationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    static List<String> peerFiles() {
        return PeerData.parquetFiles();
    }

    /** Every peer file's schema and footer survive the descriptor exactly, so any of them can be an archive's template. */
    @ParameterizedTest
    @MethodSource("peerFiles")
    void descriptorPinsEveryPeerSchemaAndFooterExactly(String peerFile) throws IOException {
        ParquetFooter footer = footer(PeerData.file(peerFile));
        FooterEntries canonical = withoutFileBbox(footer.canonicalEntries());
        ArchiveSpec spec =
                ArchiveSpec.of(footer.schema(), canonical, List.of(), null, 4, WriterSettings.defaults(), peerFile);
        Path root = temp.resolve("archive");
        ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());

        ArchiveDescriptor reopened =
                GeoParquetArchive.open(new LocalArchiveStorage(root)).descriptor();
        assertEquals(footer.schema(), reopened.exactSchema(), "schema pinned exactly");
        assertEquals(canonical.asMap(), reopened.canonicalFooter().asMap(), "footer entries pinned exactly");
        assertEquals(
                List.copyOf(canonical.asMap().keySet()),
                List.copyOf(reopened.canonicalFooter().asMap().keySet()),
                "in order");
        if (canonical.geo() == null) {
            assertFalse(reopened.geo().isPresent(), "no geo block is invented for native GEOMETRY files");
        }
    }

    /**
     * A schema whose GEOMETRY crs is a PROJJSON document has no text form that parses back; it is pinned in the
     * footer form, and the text form is left out. A descriptor written before the footer form (text form only) still
     * opens, to the same schema.
     */
    @Test
    void pinsTheFooterFormAndStillOpensDescriptorsPinnedByTheTextForm() throws IOException {
        String projjson =
                "{\"type\":\"ProjectedCRS\",\"name\":\"NAD83 / Conus Albers\",\"id\":{\"authority\":\"EPSG\",\"code\":5070}}";
        MessageType inline = Types.buildMessage()
                .required(PrimitiveTypeName.INT64)
                .named("id")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geometryType(projjson))
                .named("geometry")
                .named("schema");
        ArchiveSpec spec = ArchiveSpec.of(
                inline,
                FooterEntries.canonicalOf(Map.of()),
                List.of("id"),
                null,
                5,
                WriterSettings.defaults(),
                "inline.parquet");
        Path root = temp.resolve("inline");
        ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
        JsonNode written = JSON.readTree(root.resolve(ArchiveLayout.DESCRIPTOR).toFile());
        assertFalse(written.has("schema"), "no text form that would not parse back");
        assertEquals(
                projjson,
                written.at("/parquetSchema/schema/2/logicalType/GEOMETRY/crs").asText());
        assertEquals(
                inline, GeoParquetArchive.open(new LocalArchiveStorage(root)).schema());

        MessageType plain = Types.buildMessage()
                .required(PrimitiveTypeName.INT64)
                .named("id")
                .optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.geometryType("OGC:CRS84"))
                .named("geometry")
                .named("schema");
        Path earlier = temp.resolve("earlier");
        ArchiveCreator.create(
                new LocalArchiveStorage(earlier),
                ArchiveSpec.of(
                        plain,
                        FooterEntries.canonicalOf(Map.of()),
                        List.of("id"),
                        null,
                        5,
                        WriterSettings.defaults(),
                        "plain.parquet"),
                Clock.systemUTC());
        ObjectNode descriptor = (ObjectNode)
                JSON.readTree(earlier.resolve(ArchiveLayout.DESCRIPTOR).toFile());
        assertEquals(
                plain.toString(),
                descriptor.get("schema").asText(),
                "a text form that parses back is kept for its readers");
        descriptor.remove("parquetSchema");
        Files.write(earlier.resolve(ArchiveLayout.DESCRIPTOR), JSON.writeValueAsBytes(descriptor));
        assertEquals(
                plain, GeoParquetArchive.open(new LocalArchiveStorage(earlier)).schema());
    }

    @Test
    void createsFromATemplateAndRefusesASecondCreation() throws IOException {
        Path template = PeerData.file("geoparquet-1.1.0/data-polygon-encoding_wkb.parquet");
        ArchiveSpec spec = ArchiveSpec.fromTemplate(
                new LocalInputFile(template),
                template.toString(),
                List.of("col"),
                null,
                5,
                WriterSettings.defaults().withZstdLevel(9));
        Path root = temp.resolve("created");
        GeoParquetArchive archive = ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
        assertEquals(5, archive.h3Resolution());
        assertEquals(List.of("col"), archive.descriptor().keyColumns());
        assertEquals(9, archive.descriptor().writer().zstdLevel());
        assertEquals(
                footer(template).keyValues().get("geo"),
                archive.descriptor().canonicalFooter().geo());
        assertTrue(archive.partitionCells().isEmpty());

        assertThrows(
                FileAlreadyExistsException.class,
                () -> ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC()));
        assertThrows(
                ArchiveNotFoundException.class,
                () -> GeoParquetArchive.open(new LocalArchiveStorage(temp.resolve("nothing"))));
    }

    @Test
    void aFileLevelBboxIsRemovedFromTheTemplateAndItsArrowSchemaAndReported() throws IOException {
        for (Path template : List.of(
                PeerData.file("geoparquet-1.1.0/example.parquet"), WriterFiles.file("geopandas-parcels.parquet"))) {
            ParquetFooter footer = footer(template);
            assertTrue(
                    JSON.readTree(footer.keyValues().get("geo"))
                            .path("columns")
                            .path("geometry")
                            .has("bbox"),
                    "fixture: " + template);
            ArchiveSpec spec = ArchiveSpec.of(
                    footer.schema(),
                    footer.canonicalEntries(),
                    List.of(),
                    null,
                    3,
                    WriterSettings.defaults(),
                    template.getFileName().toString());

            JsonNode expected = JSON.readTree(footer.keyValues().get("geo"));
            ((ObjectNode) expected.path("columns").path("geometry")).remove("bbox");
            assertEquals(
                    expected,
                    JSON.readTree(spec.footer().geo()),
                    "the template's block, its bbox removed and nothing else");
            assertEquals(
                    spec.footer().geo(),
                    ArrowSchemaEntry.parse(spec.footer().asMap().get(ArrowSchemaEntry.KEY))
                            .metadata()
                            .get("geo"),
                    "ARROW:schema's copy of the block is the canonical block");
            assertEquals(
                    List.copyOf(footer.canonicalEntries().asMap().keySet()),
                    List.copyOf(spec.footer().asMap().keySet()));
            assertTrue(
                    spec.warnings().stream()
                            .anyMatch(w -> w.contains("removed the file-level 'bbox' of column(s) [geometry]")),
                    spec.warnings().toString());
            assertTrue(
                    spec.warnings().stream().anyMatch(w -> w.contains("inside 'ARROW:schema'")),
                    spec.warnings().toString());
        }
    }

    @Test
    void refusesAPartitionColumnAMissingKeyAndAnUnknownCrs() throws IOException {
        ParquetFooter countries = footer(PeerData.file("geoparquet-1.1.0/example.parquet"));

        FooterEntries clean = withoutFileBbox(countries.canonicalEntries());
        IllegalArgumentException key = assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveSpec.of(
                        countries.schema(),
                        clean,
                        List.of("parcel_id"),
                        null,
                        3,
                        WriterSettings.defaults(),
                        "example.parquet"));
        assertTrue(key.getMessage().contains("parcel_id") && key.getMessage().contains("name"), key.getMessage());

        String geo =
                "{\"version\":\"1.1.0\",\"primary_column\":\"geometry\",\"columns\":{\"geometry\":{\"encoding\":\"WKB\",\"geometry_types\":[]}}}";
        MessageType withPartitionColumn = Types.buildMessage()
                .required(PrimitiveTypeName.BINARY)
                .named("geometry")
                .required(PrimitiveTypeName.BINARY)
                .named(ArchiveLayout.PARTITION_COLUMN)
                .named("schema");
        IllegalArgumentException partition = assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveSpec.of(
                        withPartitionColumn,
                        FooterEntries.canonicalOf(Map.of("geo", geo)),
                        List.of(),
                        null,
                        3,
                        WriterSettings.defaults(),
                        "t"));
        assertTrue(partition.getMessage().contains("h3_cell"), partition.getMessage());

        MessageType plain = Types.buildMessage()
                .required(PrimitiveTypeName.BINARY)
                .named("geometry")
                .named("schema");
        String unknownCrs = geo.replace("\"geometry_types\":[]", "\"geometry_types\":[],\"crs\":null");
        IllegalArgumentException crs = assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveSpec.of(
                        plain,
                        FooterEntries.canonicalOf(Map.of("geo", unknownCrs)),
                        List.of(),
                        null,
                        3,
                        WriterSettings.defaults(),
                        "t"));
        assertTrue(crs.getMessage().contains("undefined"), crs.getMessage());

        String stringCrs = geo.replace("\"geometry_types\":[]", "\"geometry_types\":[],\"crs\":\"EPSG:4326\"");
        ArchiveSpec warned = ArchiveSpec.of(
                plain,
                FooterEntries.canonicalOf(Map.of("geo", stringCrs)),
                List.of(),
                null,
                3,
                WriterSettings.defaults(),
                "t");
        assertEquals(1, warned.warnings().size());
        assertEquals(stringCrs, warned.footer().geo(), "bytes kept unchanged");

        MessageType noGeometry = Types.buildMessage()
                .required(PrimitiveTypeName.INT64)
                .named("id")
                .named("schema");
        assertThrows(
                IllegalArgumentException.class,
                () -> ArchiveSpec.of(
                        noGeometry,
                        FooterEntries.canonicalOf(Map.of()),
                        List.of(),
                        null,
                        3,
                        WriterSettings.defaults(),
                        "t"));
    }

    private static ParquetFooter footer(Path file) throws IOException {
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
            return reader.footer();
        }
    }

    /** The peer files carry a file-level bbox, which an archive refuses; this strips it as an operator would. */
    private static FooterEntries withoutFileBbox(FooterEntries entries) throws IOException {
        if (entries.geo() == null) {
            return entries;
        }
        ObjectNode geo = (ObjectNode) JSON.readTree(entries.geo());
        geo.path("columns").forEach(column -> ((ObjectNode) column).remove("bbox"));
        Map<String, String> stripped = new LinkedHashMap<>(entries.asMap());
        stripped.put("geo", JSON.writeValueAsString(geo));
        return FooterEntries.canonicalOf(stripped);
    }
}
