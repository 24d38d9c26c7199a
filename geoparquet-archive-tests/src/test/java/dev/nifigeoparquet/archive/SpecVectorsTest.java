package dev.nifigeoparquet.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.error.DeltaRejectedException;
import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.CommitEntryParser;
import dev.nifigeoparquet.archive.format.DescriptorParser;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.TransactionDecision;
import dev.nifigeoparquet.archive.format.TransactionDecisionParser;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.ops.DeltaId;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.ParquetSchemaJson;
import dev.nifigeoparquet.archive.parquet.RowValues;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.JsonRows;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.parquet.column.Encoding;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The code against every test vector of docs/test-vectors (see its README) and the spec's JSON examples against the
 * vector files they quote, so docs/archive-format.md cannot drift from what the engine does.
 */
class SpecVectorsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    @Test
    void keysGoToTheShardsTheVectorsGive() throws IOException {
        JsonNode vectors = vectors("shards.json");
        assertTrue(vectors.size() >= 10);
        for (JsonNode vector : vectors) {
            String key = vector.get("key").textValue();
            assertEquals(vector.get("hashCode").intValue(), key.hashCode(), key);
            long mixed = Long.parseLong(vector.get("mixed").textValue());
            assertEquals(vector.get("mixedHex").textValue(), String.format("%016x", mixed), key);
            vector.get("shards").properties().forEach(shards -> {
                int count = Integer.parseInt(shards.getKey());
                assertEquals(
                        shards.getValue().intValue(),
                        KeyIndex.shardOf(key, count),
                        key + " among " + count + " shards");
                assertEquals(
                        Math.floorMod(mixed, (long) count),
                        shards.getValue().intValue(),
                        key + ": the shard is the mixed hash modulo " + count);
            });
        }
    }

    @Test
    void keysHaveTheIndexTextsTheVectorsGive() throws IOException {
        for (JsonNode vector : vectors("key-texts.json")) {
            MessageType schema =
                    MessageTypeParser.parseMessageType(vector.get("schema").textValue());
            List<String> columns = new ArrayList<>();
            vector.get("keyColumns").forEach(column -> columns.add(column.textValue()));
            FeatureKey key = FeatureKey.extractor(schema, columns).keyOf(JsonRows.toGroup(schema, vector.get("row")));
            JsonNode expected = vector.get("indexText");
            assertEquals(
                    expected.isNull() ? null : expected.textValue(),
                    key == null ? null : key.indexText(),
                    vector.toString());
        }
    }

    @Test
    void deltasHaveTheIdsTheVectorsGive() throws IOException {
        GeoParquetArchive parcels = ArchiveCreator.create(
                new LocalArchiveStorage(temp.resolve("parcels")),
                SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "parcels"),
                Clock.systemUTC());
        int throughTheArchive = 0;
        int deleteModeUnmarked = 0;
        for (JsonNode vector : vectors("delta-ids.json")) {
            MessageType schema =
                    MessageTypeParser.parseMessageType(vector.get("schema").textValue());
            WriteMode mode = WriteMode.valueOf(vector.get("mode").textValue());
            String cell =
                    vector.get("cell").isNull() ? null : vector.get("cell").textValue();
            List<String> deletionColumns = new ArrayList<>();
            vector.get("deletionColumns").forEach(column -> deletionColumns.add(column.textValue()));
            List<DeltaRow> rows = new ArrayList<>();
            for (JsonNode row : vector.get("rows")) {
                Group group = JsonRows.toGroup(schema, row.get("values"));
                assertEquals(
                        row.get("canonicalHex").textValue(),
                        HexFormat.of().formatHex(DeltaId.canonicalBytes(group)),
                        vector.get("description").textValue());
                if (row.has("keptHex")) {
                    BitSet kept = new BitSet();
                    deletionColumns.forEach(column -> kept.set(schema.getFieldIndex(column)));
                    assertEquals(
                            row.get("keptHex").textValue(),
                            HexFormat.of().formatHex(RowValues.canonicalBytes(group, kept)),
                            "a deletion is hashed by its deletion columns: "
                                    + vector.get("description").textValue());
                }
                rows.add(new DeltaRow(group, row.get("delete").booleanValue()));
            }
            String id = vector.get("id").textValue();
            assertEquals(
                    id,
                    DeltaId.of(mode, cell, schema, deletionColumns, rows),
                    vector.get("description").textValue());
            if (schema.equals(SyntheticParcels.schema())) {
                assertEquals(
                        id,
                        PartitionDelta.prepare(parcels, cell, mode, rows, null).deltaId(),
                        "an operation derives the same id: "
                                + vector.get("description").textValue());
                if (mode == WriteMode.DELETE) {
                    List<DeltaRow> unmarked = rows.stream()
                            .map(row -> new DeltaRow(row.row(), false))
                            .toList();
                    assertEquals(
                            id,
                            PartitionDelta.prepare(parcels, cell, mode, unmarked, null)
                                    .deltaId(),
                            "in Delete mode a row is a deletion whatever its marker: "
                                    + vector.get("description").textValue());
                    deleteModeUnmarked++;
                }
                throughTheArchive++;
            }
        }
        assertTrue(throughTheArchive >= 3, "vectors checked through a real archive: " + throughTheArchive);
        assertTrue(deleteModeUnmarked >= 1, "Delete-mode vectors checked with unmarked rows: " + deleteModeUnmarked);
        DeltaRejectedException comma = assertThrows(
                DeltaRejectedException.class,
                () -> PartitionDelta.prepare(parcels, null, WriteMode.DELETE, List.of(), "delete:a,b"));
        assertTrue(comma.getMessage().contains("'delete:a,b'"), comma.getMessage());
    }

    @Test
    void theSmallArchivesRecordsReadWriteBackAndAgree() throws IOException {
        Path metadata = docs().resolve("test-vectors/archive").resolve(ArchiveLayout.METADATA_DIRECTORY);
        byte[] descriptorJson = Files.readAllBytes(metadata.resolve("descriptor.json"));
        ArchiveDescriptor descriptor = DescriptorParser.fromJson(descriptorJson, "descriptor.json");
        assertEquals(
                new String(descriptorJson, StandardCharsets.UTF_8),
                new String(DescriptorParser.toJson(descriptor), StandardCharsets.UTF_8));
        assertEquals(SyntheticParcels.schema(), descriptor.exactSchema());

        Map<String, TransactionDecision> decisions = new HashMap<>();
        for (Path file : list(metadata.resolve("txn"))) {
            byte[] json = Files.readAllBytes(file);
            TransactionDecision decision = TransactionDecisionParser.fromJson(json, file.toString());
            assertEquals(
                    new String(json, StandardCharsets.UTF_8),
                    new String(TransactionDecisionParser.toJson(decision), StandardCharsets.UTF_8));
            assertEquals(
                    ArchiveLayout.transactionDecision(decision.transaction()),
                    ArchiveLayout.TRANSACTION_DIRECTORY + "/" + file.getFileName(),
                    "a decision is named by its transaction");
            decisions.put(decision.transaction(), decision);
        }

        Map<String, List<PartitionCommit>> logs = new TreeMap<>();
        for (Path directory : list(metadata.resolve("log"))) {
            String cell = directory.getFileName().toString();
            for (Path file : list(directory)) {
                byte[] json = Files.readAllBytes(file);
                PartitionCommit entry = CommitEntryParser.fromJson(json, file.toString());
                assertEquals(
                        new String(json, StandardCharsets.UTF_8),
                        new String(CommitEntryParser.toJson(entry), StandardCharsets.UTF_8));
                assertEquals(
                        ArchiveLayout.logEntry(cell, entry.version()),
                        ArchiveLayout.LOG_DIRECTORY + "/" + cell + "/" + file.getFileName(),
                        "an entry is named by its cell and version");
                logs.computeIfAbsent(cell, c -> new ArrayList<>()).add(entry);
            }
        }
        Set<String> operationIds = new TreeSet<>();
        for (Map.Entry<String, List<PartitionCommit>> log : logs.entrySet()) {
            long rows = 0;
            long version = 0;
            for (PartitionCommit entry : log.getValue()) {
                assertEquals(++version, entry.version(), log.getKey() + ": versions follow each other");
                assertEquals(
                        Long.valueOf(rows),
                        entry.rowsBefore(),
                        entry.cell() + "@" + entry.version() + " starts where the last one ended");
                assertTrue(entry.rowChangesReconcile(), entry.cell() + "@" + entry.version());
                if (entry.transaction() != null) {
                    TransactionDecision decision = decisions.get(entry.transaction());
                    assertNotNull(decision, entry.cell() + "@" + entry.version() + " has its decision");
                    assertEquals(TransactionDecision.Outcome.COMMITTED, decision.outcome());
                    assertTrue(
                            decision.participants().contains(entry.cell()),
                            decision.participants().toString());
                    assertTrue(
                            List.of(decision.operationId().split(","))
                                    .containsAll(List.of(entry.operationId().split(","))),
                            "the decision names the operations of each of its entries");
                }
                entry.operations().forEach(operation -> operationIds.addAll(operation.ids()));
                rows = entry.rowCount();
            }
        }
        for (TransactionDecision decision : decisions.values()) {
            assertEquals(
                    ArchiveLayout.INDEX_JOURNAL,
                    decision.participants().get(decision.participants().size() - 1),
                    "the journal is the last participant");
        }
        for (JsonNode vector : vectors("delta-ids.json")) {
            if (vector.get("description").textValue().startsWith("The small archive's")) {
                assertTrue(
                        operationIds.contains(vector.get("id").textValue()),
                        vector.get("description").textValue());
            }
        }
    }

    /** The spec's example of a schema's footer form is what the engine reads and writes for that schema. */
    @Test
    void theFooterFormOfASchemaReadsAndWritesBack() throws IOException {
        JsonNode vector =
                JSON.readTree(docs().resolve("test-vectors/parquet-schema.json").toFile());
        MessageType schema = ParquetSchemaJson.fromJson(vector);
        assertEquals(
                "srid:5070",
                ((LogicalTypeAnnotation.GeometryLogicalTypeAnnotation)
                                schema.getType("geometry").getLogicalTypeAnnotation())
                        .getCrs());
        assertEquals(vector, ParquetSchemaJson.toJson(schema));
    }

    @Test
    void everyJsonExampleOfTheSpecIsAVectorFile() throws IOException {
        String spec = Files.readString(docs().resolve("archive-format.md"));
        Matcher blocks = Pattern.compile("(?m)^([^\\n]*)\\n```json\\n(.*?)\\n```$", Pattern.DOTALL)
                .matcher(spec);
        Pattern reference = Pattern.compile("`(docs/test-vectors/[^`]+\\.json)`(?:, field `([^`]+)`)?");
        int examples = 0;
        while (blocks.find()) {
            Matcher file = reference.matcher(blocks.group(1));
            assertTrue(
                    file.find(),
                    "a JSON example names the vector file it shows, on the line before it: " + blocks.group(1));
            JsonNode quoted =
                    JSON.readTree(docs().getParent().resolve(file.group(1)).toFile());
            if (file.group(2) != null) {
                quoted = quoted.get(file.group(2));
            }
            assertEquals(quoted, JSON.readTree(blocks.group(2)), "the example of " + file.group(1));
            examples++;
        }
        assertTrue(examples >= 8, "examples of the descriptor, entries, decisions and an adoption record: " + examples);
    }

    @Test
    void theAdoptedDescriptorAndEntryReadWriteBackAndAgree() throws IOException {
        byte[] json = Files.readAllBytes(docs().resolve("test-vectors/adopted-descriptor.json"));
        ArchiveDescriptor descriptor = DescriptorParser.fromJson(json, "adopted-descriptor.json");
        assertNotNull(descriptor.adoption());
        assertEquals(
                new String(json, StandardCharsets.UTF_8),
                new String(DescriptorParser.toJson(descriptor), StandardCharsets.UTF_8));

        byte[] entryJson = Files.readAllBytes(docs().resolve("test-vectors/adopted-entry.json"));
        PartitionCommit entry = CommitEntryParser.fromJson(entryJson, "adopted-entry.json");
        assertEquals(
                new String(entryJson, StandardCharsets.UTF_8),
                new String(CommitEntryParser.toJson(entry), StandardCharsets.UTF_8));
        assertEquals(
                ArchiveLayout.PARTITION_PREFIX + entry.cell() + "/"
                        + entry.files().get(0).name(),
                descriptor.adoption().referenceFile(),
                "the entry is the reference file's partition");
        assertEquals(descriptor.adoption().adoptedAt(), entry.committedAt(), "adoption commits at its adoptedAt");
        assertEquals(1, entry.version());
        assertEquals("adopt", entry.operationId());
        assertEquals(List.of("adopt"), entry.recentOperationIds());
        assertEquals(Long.valueOf(0), entry.rowsBefore());
        assertEquals(entry.fileNames(), entry.added());
        assertTrue(
                entry.files().stream().allMatch(file -> file.committedAt().isBefore(entry.committedAt())),
                "adopted files keep their last-modified times, from before the adoption");
    }

    @Test
    void theAbortedDecisionReadsAndWritesBack() throws IOException {
        byte[] json = Files.readAllBytes(docs().resolve("test-vectors/aborted-decision.json"));
        TransactionDecision decision = TransactionDecisionParser.fromJson(json, "aborted-decision.json");
        assertEquals(
                new String(json, StandardCharsets.UTF_8),
                new String(TransactionDecisionParser.toJson(decision), StandardCharsets.UTF_8));
        assertEquals(TransactionDecision.Outcome.ABORTED, decision.outcome());
        assertEquals(
                1, decision.participants().size(), "a recovering writer names the partition it found the entry in");
    }

    @Test
    void keyIndexFilesHaveTheSchemaAndLayoutTheVectorsGive() throws IOException {
        JsonNode vector =
                JSON.readTree(docs().resolve("test-vectors/key-index.json").toFile());
        Path root = temp.resolve("indexed");
        GeoParquetArchive archive = ArchiveCreator.create(
                new LocalArchiveStorage(root),
                SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "parcels"),
                Clock.systemUTC());
        Map<FeatureKey, String> present = new LinkedHashMap<>();
        // More keys than the shards' row groups hold: every shard's file spans several row groups.
        for (int i = 0; i < 300_000; i++) {
            present.put(new FeatureKey(List.of("k-" + i)), i % 2 == 0 ? "851f8343fffffff" : "851f8edbfffffff");
        }
        new KeyIndex(archive).build(present);

        int rowGroupRows = vector.get("rowGroupRows").intValue();
        int pageRows = vector.get("pageRows").intValue();
        double bloomFilterFpp = vector.get("bloomFilterFpp").doubleValue();
        List<Path> files;
        try (Stream<Path> walk = Files.walk(root.resolve(ArchiveLayout.INDEX_DIRECTORY))) {
            files = walk.filter(Files::isRegularFile)
                    .filter(file -> !file.getParent().endsWith("index-journal"))
                    .toList();
        }
        assertEquals(archive.descriptor().keyIndexShards(), files.size(), "one file per shard: " + files);
        int multiGroupFiles = 0;
        for (Path file : files) {
            assertTrue(
                    file.getFileName()
                            .toString()
                            .endsWith(vector.get("fileNameSuffix").textValue()),
                    file.toString());
            try (GeoParquetFileReader reader = GeoParquetFileReader.open(file)) {
                ParquetMetadata footer = reader.parsedFooter().metadata();
                assertEquals(
                        vector.get("schema").textValue(),
                        footer.getFileMetaData().getSchema().toString());
                List<BlockMetaData> groups = footer.getBlocks();
                multiGroupFiles += groups.size() > 1 ? 1 : 0;
                for (int i = 0; i < groups.size(); i++) {
                    BlockMetaData group = groups.get(i);
                    if (i < groups.size() - 1) {
                        assertEquals(
                                rowGroupRows, group.getRowCount(), file + ": every row group but the last is full");
                    }
                    assertTrue(group.getRowCount() <= rowGroupRows);
                    for (String column : List.of("key", "cell", "present")) {
                        GeoParquetFileReader.PageIndex pages = reader.pageIndex(i, column);
                        assertEquals(
                                contains(vector.get("offsetIndexColumns"), column),
                                pages != null,
                                column + " has an offset index exactly when the vectors say so");
                        assertEquals(
                                contains(vector.get("columnIndexColumns"), column),
                                pages != null && pages.statistics() != null,
                                column + " has a column index exactly when the vectors say so");
                        if (pages != null) {
                            for (int page = 1; page < pages.pages().getPageCount(); page++) {
                                assertEquals(
                                        (long) page * pageRows,
                                        pages.pages().getFirstRowIndex(page),
                                        file + ", row group " + i + ", " + column
                                                + ": every page but the last is full");
                            }
                            assertTrue(group.getRowCount()
                                            - pages.pages()
                                                    .getFirstRowIndex(
                                                            pages.pages().getPageCount() - 1)
                                    <= pageRows);
                        }
                    }
                    for (ColumnChunkMetaData column : group.getColumns()) {
                        String name = column.getPath().toDotString();
                        assertEquals(
                                vector.get("codec").textValue(),
                                column.getCodec().name(),
                                name);
                        @SuppressWarnings("deprecation") // the dictionary encoding of older writers, checked too
                        boolean dictionary = column.getEncodings().contains(Encoding.RLE_DICTIONARY)
                                || column.getEncodings().contains(Encoding.PLAIN_DICTIONARY);
                        assertFalse(dictionary, name + " has no dictionary");
                        assertEquals(
                                contains(vector.get("bloomFilterColumns"), name),
                                column.getBloomFilterOffset() >= 0,
                                name + " has a bloom filter exactly when the vectors say so");
                        if (column.getBloomFilterOffset() >= 0) {
                            // Sized for the row group's keys at the vectors' false-positive probability, or more.
                            assertTrue(
                                    column.getBloomFilterLength()
                                            >= BlockSplitBloomFilter.optimalNumOfBits(
                                                            group.getRowCount(), bloomFilterFpp)
                                                    / 8,
                                    name + " bloom filter of " + column.getBloomFilterLength() + " bytes");
                        }
                        assertEquals(
                                contains(vector.get("statisticsColumns"), name),
                                !column.getStatistics().isEmpty(),
                                name + " has statistics exactly when the vectors say so");
                    }
                }
            }
            List<String> keys = ParquetRows.read(file).rows().stream()
                    .map(row -> row.getString("key", 0))
                    .toList();
            List<String> sorted = new ArrayList<>(keys);
            sorted.sort(null);
            assertEquals(sorted, keys, file + " is sorted by key");
            for (String key : keys) {
                assertEquals(
                        ArchiveLayout.indexShard(
                                KeyIndex.shardOf(key, archive.descriptor().keyIndexShards())),
                        file.getParent().getFileName().toString(),
                        key + " is in its shard");
            }
        }
        assertTrue(multiGroupFiles > 0, "some shard file spans several row groups");
    }

    private static boolean contains(JsonNode array, String value) {
        for (JsonNode element : array) {
            if (element.textValue().equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode vectors(String name) throws IOException {
        return JSON.readTree(docs().resolve("test-vectors").resolve(name).toFile())
                .get("vectors");
    }

    private static List<Path> list(Path directory) throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.sorted().toList();
        }
    }

    /** The repository's docs directory: {@code docs.dir} when set, else found upwards from the working directory. */
    private static Path docs() {
        String configured = System.getProperty("docs.dir");
        if (configured != null) {
            return Path.of(configured).toAbsolutePath().normalize();
        }
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("docs/archive-format.md"))) {
                return dir.resolve("docs");
            }
        }
        throw new IllegalStateException(
                "No docs/archive-format.md above " + Path.of("").toAbsolutePath() + "; set -Ddocs.dir");
    }
}
