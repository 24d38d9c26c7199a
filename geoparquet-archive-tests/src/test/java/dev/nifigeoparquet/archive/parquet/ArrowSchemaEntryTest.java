package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.PeerData;
import dev.nifigeoparquet.archive.testing.WriterFiles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ArrowSchemaEntryTest {

    private static Map<String, String> footer(Path file) throws Exception {
        return ParquetRows.read(file).footer().keyValues();
    }

    @Test
    void geoPandasCopiesEachFilesGeoAndPandasBlocksIntoTheArrowSchema() throws Exception {
        List<String> descriptions = new ArrayList<>();
        List<String> geoBlocks = new ArrayList<>();
        for (int town = 0; town < 4; town++) {
            Map<String, String> entries = footer(WriterFiles.file("geopandas-per-town/town-" + town + ".parquet"));
            ArrowSchemaEntry arrow = ArrowSchemaEntry.parse(entries.get(ArrowSchemaEntry.KEY));
            assertEquals(List.of("pandas", "geo"), List.copyOf(arrow.metadata().keySet()));
            assertEquals(entries.get("geo"), arrow.metadata().get("geo"), "the footer's geo block, byte for byte");
            assertEquals(entries.get("pandas"), arrow.metadata().get("pandas"));
            descriptions.add(arrow.describeSchema());
            geoBlocks.add(arrow.metadata().get("geo"));
        }
        assertEquals(
                1, descriptions.stream().distinct().count(), "the same columns in every file: " + descriptions.get(0));
        assertEquals(4, geoBlocks.stream().distinct().count(), "each file's own bbox");
        assertTrue(
                descriptions.get(0).contains("field(name=\"parcel_id\", nullable=true, type=LargeUtf8()"),
                descriptions.get(0));
        assertTrue(
                descriptions.get(0).contains("field(name=\"updated_at\", nullable=true, type=Timestamp(2,\"UTC\")"),
                descriptions.get(0));
        assertTrue(descriptions.get(0).contains("\"ARROW:extension:name\"=\"geoarrow.wkb\""), descriptions.get(0));
    }

    @Test
    void replacingAValueKeepsEverythingElse() throws Exception {
        for (Path file : List.of(
                WriterFiles.file("geopandas-parcels.parquet"),
                PeerData.file("geoparquet-1.1.0/example.parquet"),
                PeerData.file("geoparquet-1.0.0/example.parquet"))) {
            String value = footer(file).get(ArrowSchemaEntry.KEY);
            ArrowSchemaEntry arrow = ArrowSchemaEntry.parse(value);
            String replacement = "{\"version\":\"1.1.0\",\"primary_column\":\"geometry\",\"columns\":{}}";
            String replaced = arrow.withMetadataValue("geo", replacement);
            ArrowSchemaEntry again = ArrowSchemaEntry.parse(replaced);
            Map<String, String> expected = new LinkedHashMap<>(arrow.metadata());
            expected.put("geo", replacement);
            assertEquals(
                    new ArrayList<>(expected.entrySet()),
                    new ArrayList<>(again.metadata().entrySet()),
                    file.toString());
            assertEquals(arrow.describeSchema(), again.describeSchema());
            assertNotEquals(value, replaced);
            // The longer original block is gone from the bytes, not just unreferenced.
            String decoded = new String(Base64.getDecoder().decode(replaced), StandardCharsets.ISO_8859_1);
            assertTrue(!decoded.contains("\"bbox\": ["), "no file-level bbox left in " + file);
        }
    }

    @Test
    void somethingElseIsRefusedWithAReason() {
        IllegalArgumentException notBase64 =
                assertThrows(IllegalArgumentException.class, () -> ArrowSchemaEntry.parse("not base64!"));
        assertTrue(notBase64.getMessage().contains("ARROW:schema"), notBase64.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ArrowSchemaEntry.parse("/////wAAAAA="));
        assertThrows(
                IllegalArgumentException.class,
                () -> ArrowSchemaEntry.parse(Base64.getEncoder().encodeToString(new byte[] {
                    -1, -1, -1, -1, 16, 0, 0, 0, 12, 0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
                })));
    }
}
