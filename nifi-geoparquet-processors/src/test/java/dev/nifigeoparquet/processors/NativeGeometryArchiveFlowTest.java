package dev.nifigeoparquet.processors;

import static dev.nifigeoparquet.processors.ChainFixtures.compact;
import static dev.nifigeoparquet.processors.ChainFixtures.delta;
import static dev.nifigeoparquet.processors.ChainFixtures.geoParquetDelta;
import static dev.nifigeoparquet.processors.ChainFixtures.pass;
import static dev.nifigeoparquet.processors.ChainFixtures.routeGeoParquet;
import static dev.nifigeoparquet.processors.ChainFixtures.upsert;
import static dev.nifigeoparquet.processors.ChainFixtures.verify;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.DuckDb;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An archive whose geometry column carries the Parquet GEOMETRY type beside the {@code geo} block: the flow's record
 * reader and writer services, the upsert, the compaction and the verification keep both on every file they write.
 */
class NativeGeometryArchiveFlowTest {

    @TempDir
    Path dir;

    @Test
    void theFlowKeepsTheNativeTypeAndTheGeoBlockOnEveryFile() throws Exception {
        Path root = dir.resolve("archive");
        ParcelArchives parcels = ParcelArchives.create(root, 300, spec -> spec.withNativeGeometry("synthetic parcels"));
        long baseline = parcels.duckDbCount();
        String canonicalGeo = GeoParquetArchive.open(new LocalArchiveStorage(root))
                .descriptor()
                .canonicalFooter()
                .geo();

        ChainFixtures.Delta delta = delta(parcels);
        List<MockFlowFile> routed = routeGeoParquet(root, geoParquetDelta(dir.resolve("delta.parquet"), delta));
        assertEquals(delta.cells().size(), routed.size());

        TestRunner upsert = upsert(root, GeoParquetReader::new);
        pass(routed, upsert);
        upsert.run(routed.size());
        upsert.assertAllFlowFilesTransferred(UpsertGeoParquetPartition.REL_SUCCESS, routed.size());
        List<MockFlowFile> upserted = upsert.getFlowFilesForRelationship(UpsertGeoParquetPartition.REL_SUCCESS);
        long net = upserted.stream()
                .mapToLong(flowFile -> Long.parseLong(flowFile.getAttribute("geoparquet.rows.net")))
                .sum();

        TestRunner compact = compact(root);
        pass(upserted, compact);
        compact.run(upserted.size());
        compact.assertAllFlowFilesTransferred(CompactGeoParquetPartition.REL_SUCCESS, upserted.size());

        TestRunner verify = verify(root);
        pass(compact.getFlowFilesForRelationship(CompactGeoParquetPartition.REL_SUCCESS), verify);
        verify.run(upserted.size());
        verify.assertAllFlowFilesTransferred(VerifyGeoMetadata.REL_VALID, upserted.size());

        assertEquals(baseline + net, parcels.duckDbCount(), "baseline plus the net delta, as DuckDB counts");
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root)) {
            files = walk.filter(
                            file -> file.getParent().getFileName().toString().startsWith("h3_cell=")
                                    && file.toString().endsWith(".parquet"))
                    .toList();
        }
        assertTrue(files.size() > delta.cells().size(), "touched and untouched partitions: " + files.size());
        for (Path file : files) {
            List<List<Object>> type =
                    DuckDb.query("SELECT logical_type FROM parquet_schema(?) WHERE name = 'geometry'", file.toString());
            assertTrue(
                    String.valueOf(type.get(0).get(0)).toUpperCase(Locale.ROOT).contains("GEOMETRY"),
                    file + ": the geometry column is typed GEOMETRY, DuckDB reads " + type);
            assertArrayEquals(
                    canonicalGeo.getBytes(StandardCharsets.UTF_8),
                    DuckDb.footerEntries(file).get(FooterEntries.GEO),
                    file + " carries the canonical geo block verbatim");
        }
    }
}
