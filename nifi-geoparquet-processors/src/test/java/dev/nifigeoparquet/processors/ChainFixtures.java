package dev.nifigeoparquet.processors;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.processors.geometry.GeometryFormat;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetReader;
import dev.nifigeoparquet.processors.geoparquet.GeoParquetRecordSetWriter;
import dev.nifigeoparquet.processors.service.StandardGeoParquetArchiveService;
import dev.nifigeoparquet.processors.testing.JsonRecordReaderService;
import dev.nifigeoparquet.processors.testing.JsonRecordWriterService;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.apache.nifi.controller.ControllerService;
import org.apache.nifi.processor.Processor;
import org.apache.nifi.serialization.RecordReaderFactory;
import org.apache.nifi.util.MockFlowFile;
import org.apache.nifi.util.TestRunner;
import org.apache.nifi.util.TestRunners;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.locationtech.jts.io.WKBReader;

/**
 * What the processor chain tests share: deltas against a generated parcel archive ({@link ParcelArchives}), as GeoParquet
 * and as JSON, and test runners of each processor wired to an archive service at a root.
 */
final class ChainFixtures {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String DELETE_MARKER = "is_deleted";
    static final Instant EDIT_TIME = Instant.parse("2026-02-01T00:00:00Z");

    private ChainFixtures() {}

    /** What a delta does to two cells: edits, new keys, a deletion. */
    record Delta(List<Group> upserts, List<Group> deletions, Set<String> cells, long net) {}

    /** Edits two rows, adds two keys and deletes one row in each of the two largest cells. */
    static Delta delta(ParcelArchives parcels) {
        List<Group> upserts = new ArrayList<>();
        List<Group> deletions = new ArrayList<>();
        Set<String> cells = new TreeSet<>();
        for (String cell : parcels.cellsBySize().subList(0, 2)) {
            List<Group> rows = parcels.initial.get(cell);
            cells.add(cell);
            upserts.add(copy(rows.get(0), key(rows.get(0)), 1234.5, EDIT_TIME));
            upserts.add(copy(rows.get(1), key(rows.get(1)), 2345.5, EDIT_TIME));
            upserts.add(copy(rows.get(2), "new-" + cell + "-a", 10.25, EDIT_TIME));
            upserts.add(copy(rows.get(3), "new-" + cell + "-b", 20.5, EDIT_TIME));
            deletions.add(copy(rows.get(4), key(rows.get(4)), rows.get(4).getDouble("area_m2", 0), EDIT_TIME));
        }
        return new Delta(upserts, deletions, cells, 2L * (2 - 1));
    }

    static String key(Group row) {
        return row.getString(SyntheticParcels.KEY, 0);
    }

    static Group copy(Group row, String id, double area, Instant updatedAt) {
        Group copy = new SimpleGroup(SyntheticParcels.schema());
        copy.add(SyntheticParcels.KEY, id);
        copy.add("land_use", row.getString("land_use", 0));
        copy.add("area_m2", area);
        copy.add(SyntheticParcels.VERSION, ChronoUnit.MICROS.between(Instant.EPOCH, updatedAt));
        copy.add(SyntheticParcels.GEOMETRY, row.getBinary(SyntheticParcels.GEOMETRY, 0));
        return copy;
    }

    /** The parcel schema plus the delete marker: the shape of a GeoParquet delta file. */
    static MessageType deltaSchema() {
        Types.MessageTypeBuilder builder = Types.buildMessage();
        SyntheticParcels.schema().getFields().forEach(builder::addField);
        return builder.optional(PrimitiveTypeName.BOOLEAN).named(DELETE_MARKER).named("parcels_delta");
    }

    static Path geoParquetDelta(Path file, Delta delta) throws Exception {
        MessageType schema = deltaSchema();
        List<Group> rows = new ArrayList<>();
        for (Group upsert : delta.upserts()) {
            rows.add(withMarker(schema, upsert, false));
        }
        for (Group deletion : delta.deletions()) {
            rows.add(withMarker(schema, deletion, true));
        }
        ArchiveFixtures.writeFile(file, schema, SyntheticParcels.footer(), rows);
        return file;
    }

    private static Group withMarker(MessageType schema, Group row, boolean deleted) {
        Group copy = new SimpleGroup(schema);
        copy.add(SyntheticParcels.KEY, key(row));
        copy.add("land_use", row.getString("land_use", 0));
        copy.add("area_m2", row.getDouble("area_m2", 0));
        copy.add(SyntheticParcels.VERSION, row.getLong(SyntheticParcels.VERSION, 0));
        copy.add(SyntheticParcels.GEOMETRY, row.getBinary(SyntheticParcels.GEOMETRY, 0));
        copy.add(DELETE_MARKER, deleted);
        return copy;
    }

    /** The delta as JSON with WKT geometries and ISO timestamps, as an export from another system would carry it. */
    static byte[] jsonDelta(Delta delta) throws Exception {
        ArrayNode array = JSON.createArrayNode();
        WKBReader wkb = new WKBReader();
        for (Group row : delta.upserts()) {
            array.add(jsonRow(wkb, row, false));
        }
        for (Group row : delta.deletions()) {
            array.add(jsonRow(wkb, row, true));
        }
        return JSON.writeValueAsBytes(array);
    }

    private static JsonNode jsonRow(WKBReader wkb, Group row, boolean deleted) throws Exception {
        return JSON.createObjectNode()
                .put(SyntheticParcels.KEY, key(row))
                .put("land_use", row.getString("land_use", 0))
                .put("area_m2", row.getDouble("area_m2", 0))
                .put(
                        SyntheticParcels.VERSION,
                        Instant.EPOCH
                                .plus(row.getLong(SyntheticParcels.VERSION, 0), ChronoUnit.MICROS)
                                .toString())
                .put(
                        "wkt",
                        wkb.read(row.getBinary(SyntheticParcels.GEOMETRY, 0).getBytes())
                                .toText())
                .put(DELETE_MARKER, deleted);
    }

    // ---- runners

    static TestRunner runner(Class<? extends Processor> type, Path root) throws Exception {
        return runner(type, root, new StandardGeoParquetArchiveService());
    }

    static TestRunner runner(Class<? extends Processor> type, Path root, StandardGeoParquetArchiveService archive)
            throws Exception {
        TestRunner runner = TestRunners.newTestRunner(type);
        runner.addControllerService("archive", archive);
        runner.setProperty(archive, StandardGeoParquetArchiveService.ARCHIVE_ROOT, root.toString());
        runner.enableControllerService(archive);
        runner.setProperty("GeoParquet Archive Service", "archive");
        return runner;
    }

    static void addService(TestRunner runner, String id, ControllerService service) throws Exception {
        runner.addControllerService(id, service);
        runner.enableControllerService(service);
    }

    static TestRunner route(Path root, boolean geoParquet) throws Exception {
        TestRunner runner = runner(RouteByH3Cell.class, root);
        addService(runner, "reader", geoParquet ? new GeoParquetReader() : new JsonRecordReaderService());
        addService(runner, "writer", geoParquet ? new GeoParquetRecordSetWriter() : new JsonRecordWriterService());
        runner.setProperty(RouteByH3Cell.RECORD_READER, "reader");
        runner.setProperty(RouteByH3Cell.RECORD_WRITER, "writer");
        if (!geoParquet) {
            runner.setProperty(RouteByH3Cell.GEOMETRY_FORMAT, GeometryFormat.WKT);
            runner.setProperty(RouteByH3Cell.GEOMETRY_FIELD, "wkt");
        }
        return runner;
    }

    static TestRunner upsert(Path root, Supplier<RecordReaderFactory> reader) throws Exception {
        return upsert(root, reader, new StandardGeoParquetArchiveService());
    }

    static TestRunner upsert(Path root, Supplier<RecordReaderFactory> reader, StandardGeoParquetArchiveService archive)
            throws Exception {
        TestRunner runner = runner(UpsertGeoParquetPartition.class, root, archive);
        addService(runner, "reader", reader.get());
        runner.setProperty(UpsertGeoParquetPartition.RECORD_READER, "reader");
        runner.setProperty(UpsertGeoParquetPartition.DELETE_MARKER, DELETE_MARKER);
        return runner;
    }

    static TestRunner compact(Path root) throws Exception {
        return compact(root, new StandardGeoParquetArchiveService());
    }

    static TestRunner compact(Path root, StandardGeoParquetArchiveService archive) throws Exception {
        return runner(CompactGeoParquetPartition.class, root, archive);
    }

    static TestRunner verify(Path root) throws Exception {
        return runner(VerifyGeoMetadata.class, root);
    }

    /** Moves the FlowFiles a runner sent to {@code relationship} into the next runner's queue, attributes and content. */
    static void pass(List<MockFlowFile> flowFiles, TestRunner next) {
        for (MockFlowFile flowFile : flowFiles) {
            next.enqueue(flowFile.getContentStream(), flowFile.getAttributes());
        }
    }

    /** Routes a GeoParquet delta and returns the cell FlowFiles. */
    static List<MockFlowFile> routeGeoParquet(Path root, Path file) throws Exception {
        TestRunner route = route(root, true);
        route.enqueue(Files.readAllBytes(file));
        route.run();
        List<MockFlowFile> routed = route.getFlowFilesForRelationship(RouteByH3Cell.REL_SUCCESS);
        assertNotNull(routed);
        assertNull(route.getFlowFilesForRelationship(RouteByH3Cell.REL_FAILURE).stream()
                .findFirst()
                .orElse(null));
        return routed;
    }
}
