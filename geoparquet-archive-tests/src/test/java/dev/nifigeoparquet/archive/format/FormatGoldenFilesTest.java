package dev.nifigeoparquet.archive.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.PartitionLog;
import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import dev.nifigeoparquet.archive.error.UnsupportedFormatVersionException;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metadata records' JSON is the format's, not Java's: golden files (src/test/resources/golden, see its README) are
 * read and written back byte for byte, records of earlier writers keep reading with their stated defaults, every field
 * is checked by its name against the value it carries, unknown fields are ignored, newer versions refused, and a missing
 * required field is reported by its name and file.
 */
class FormatGoldenFilesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    @Test
    void currentRecordsRoundTripByteForByte() throws IOException {
        List<Path> files = golden("current");
        assertTrue(files.size() >= 17, "golden files: " + files);
        for (Path file : files) {
            byte[] json = Files.readAllBytes(file);
            assertEquals(
                    new String(json, StandardCharsets.UTF_8),
                    new String(rewrite(file.getFileName().toString(), json), StandardCharsets.UTF_8),
                    file + " is written back unchanged");
        }
    }

    @Test
    void earlierRecordsReadAndKeepTheirFieldNames() throws IOException {
        for (Path file : golden("earlier")) {
            String name = file.getFileName().toString();
            byte[] json = Files.readAllBytes(file);
            Path current = goldenDirectory().resolve("current").resolve(name);
            assertEquals(
                    Files.readString(current),
                    new String(rewrite(name, json), StandardCharsets.UTF_8),
                    file + " reads and writes back as " + current);
            Set<String> names = fieldNames(JSON.readTree(json));
            names.remove("emptyPartition");
            Set<String> missing = new TreeSet<>(names);
            missing.removeAll(fieldNames(JSON.readTree(current.toFile())));
            assertEquals(Set.of(), missing, file + ": field names on disk stay what they were");
        }
    }

    @Test
    void recordsOfEarlierWritersReadWithTheirStatedDefaults() throws IOException {
        PartitionCommit beforeRowChanges = entry("earlier/entry-before-row-changes.json");
        assertNull(beforeRowChanges.rowsBefore(), "rowsBefore: absent means unknown");
        assertEquals(List.of(), beforeRowChanges.operations(), "operations: absent means none recorded");
        assertTrue(beforeRowChanges.rowChangesReconcile(), "nothing recorded, nothing to contradict the row count");
        assertNull(beforeRowChanges.files().get(0).stagedAs(), "stagedAs: absent means published under its own name");
        assertEquals("584806a5-46cc-46fd-87e2-9d25e3264485", beforeRowChanges.transaction());

        PartitionCommit beforeTransactions = entry("earlier/entry-before-transactions.json");
        assertNull(beforeTransactions.transaction(), "transaction: absent means a plain commit");

        ArchiveDescriptor beforeTimeout = descriptor("earlier/descriptor-before-transaction-timeout.json");
        assertEquals(
                ProtocolSettings.DEFAULT_TRANSACTION_TIMEOUT_SECONDS,
                beforeTimeout.protocol().transactionTimeoutSeconds(),
                "transactionTimeoutSeconds: absent means the default");

        TransactionDecision beforeVersion =
                TransactionDecisionParser.fromJson(read("earlier/decision-committed.json"), "decision");
        assertEquals(TransactionDecision.Outcome.COMMITTED, beforeVersion.outcome(), "formatVersion: absent means 1");

        PartitionCommit withDerivedField = entry("earlier/entry-move-out.json");
        assertEquals(entry("current/entry-move-out.json"), withDerivedField, "emptyPartition is ignored");
    }

    @Test
    void everyDescriptorFieldCarriesWhatItsNameSays() throws IOException {
        ArchiveDescriptor descriptor = descriptor("current/descriptor-adopted.json");
        JsonNode json = JSON.readTree(DescriptorParser.toJson(withDistinctSettings(descriptor)));
        assertEquals(1, json.get("formatVersion").intValue());
        assertEquals(descriptor.createdAt().toString(), json.get("createdAt").textValue());
        assertEquals(0, json.get("h3Resolution").intValue());
        // The golden descriptor was written before centroids were unwrapped across the antimeridian; it keeps its rule.
        assertEquals(
                ArchiveDescriptor.EARLIER_KEYING_RULE, json.get("keyingRule").textValue());
        assertEquals("geometry", json.get("geometryColumn").textValue());
        assertEquals("[\"name\"]", json.get("keyColumns").toString());
        assertEquals("pop_est", json.get("versionColumn").textValue());
        assertEquals(descriptor.schema(), json.get("schema").textValue());
        assertEquals(ArchiveDescriptor.schemaJson(descriptor.exactSchema()), json.get("parquetSchema"));
        assertEquals(
                descriptor.exactSchema(),
                DescriptorParser.fromJson(DescriptorParser.toJson(withDistinctSettings(descriptor)), "written")
                        .exactSchema());
        assertEquals("geo", json.get("footer").get(0).get("key").textValue());
        assertEquals(
                descriptor.footer().get(0).value(),
                json.get("footer").get(0).get("value").textValue());
        assertEquals(
                JSON.readTree(
                        "{\"codec\":\"SNAPPY\",\"zstdLevel\":4,\"rowGroupRowCount\":5000,\"targetFileBytes\":6000000}"),
                json.get("writer"));
        assertEquals(
                JSON.readTree(
                        "{\"operationIdRetention\":11,\"logEntryRetention\":12,\"writerLeaseSeconds\":1300,"
                                + "\"maxCommitAttempts\":14,\"transactionTimeoutSeconds\":15,\"tombstoneRetentionSeconds\":16}"),
                json.get("protocol"));
        assertEquals(
                JSON.readTree("{\"minFiles\":21,\"smallFileFraction\":0.5,\"minFileAgeSeconds\":23}"),
                json.get("compaction"));
        JsonNode adoption = json.get("adoption");
        assertEquals(
                descriptor.adoption().adoptedAt().toString(),
                adoption.get("adoptedAt").textValue());
        assertEquals(
                descriptor.adoption().referenceFile(),
                adoption.get("referenceFile").textValue());
        assertEquals(5, adoption.get("distinctGeoBlocks").intValue());
        assertTrue(adoption.get("canonicalDerived").booleanValue());
        assertEquals(
                descriptor.adoption().derivation().get(0),
                adoption.get("derivation").get(0).textValue());
        assertEquals(descriptor.adoption().geoDifferences(), adoption.get("geoDifferences"));
        assertEquals(0, adoption.get("warnings").size());
        assertEquals(16, json.get("keyIndexShards").intValue());
        assertEquals(
                Set.of(
                        "formatVersion",
                        "createdAt",
                        "h3Resolution",
                        "keyingRule",
                        "geometryColumn",
                        "keyColumns",
                        "versionColumn",
                        "schema",
                        "parquetSchema",
                        "footer",
                        "writer",
                        "protocol",
                        "compaction",
                        "adoption",
                        "keyIndexShards"),
                names(json));
    }

    @Test
    void everyEntryFieldCarriesWhatItsNameSays() throws IOException {
        Instant committed = Instant.parse("2026-12-01T09:00:00.125Z");
        Instant older = Instant.parse("2026-11-30T08:00:00Z");
        PartitionCommit entry = new PartitionCommit(
                1,
                "851f8343fffffff",
                7,
                "a,b",
                OperationType.MOVE_OUT,
                committed,
                List.of(
                        new DataFileEntry("part-1.parquet", 40, 4000, older),
                        new DataFileEntry("part-2.parquet", 2, 200, committed, "part-3.parquet")),
                List.of("part-2.parquet"),
                List.of("part-4.parquet"),
                42,
                List.of("x", "a", "b"),
                "95db3ec7-3984-4b34-a4f9-f3812d314688",
                50L,
                List.of(
                        new OperationRecord(List.of("a", "b"), new RowChanges(1, 2, 3, 4, 10)),
                        new OperationRecord(List.of("c"), null)));
        JsonNode json = JSON.readTree(CommitEntryParser.toJson(entry));
        assertEquals(JSON.readTree("""
                {"formatVersion": 1, "cell": "851f8343fffffff", "version": 7, "operationId": "a,b", "operationType": "MOVE_OUT",
                 "committedAt": "2026-12-01T09:00:00.125Z",
                 "files": [{"name": "part-1.parquet", "rows": 40, "bytes": 4000, "committedAt": "2026-11-30T08:00:00Z"},
                           {"name": "part-2.parquet", "rows": 2, "bytes": 200, "committedAt": "2026-12-01T09:00:00.125Z",
                            "stagedAs": "part-3.parquet"}],
                 "added": ["part-2.parquet"], "removed": ["part-4.parquet"], "rowCount": 42, "recentOperationIds": ["x", "a", "b"],
                 "transaction": "95db3ec7-3984-4b34-a4f9-f3812d314688", "rowsBefore": 50,
                 "operations": [{"ids": ["a", "b"], "rows": {"inserted": 1, "updated": 2, "deleted": 3, "movedIn": 4, "movedOut": 10}},
                                {"ids": ["c"], "rows": null}]}
                """), json);
        assertEquals(entry, CommitEntryParser.fromJson(CommitEntryParser.toJson(entry), "entry"));
    }

    @Test
    void everyDecisionFieldCarriesWhatItsNameSays() throws IOException {
        TransactionDecision decision = new TransactionDecision(
                "95db3ec7-3984-4b34-a4f9-f3812d314688",
                "a,b",
                TransactionDecision.Outcome.ABORTED,
                Instant.parse("2026-12-01T09:00:01Z"),
                List.of("851f8343fffffff", "index-journal"));
        assertEquals(JSON.readTree("""
                {"formatVersion": 1, "transaction": "95db3ec7-3984-4b34-a4f9-f3812d314688", "operationId": "a,b",
                 "outcome": "ABORTED", "decidedAt": "2026-12-01T09:00:01Z", "participants": ["851f8343fffffff", "index-journal"]}
                """), JSON.readTree(TransactionDecisionParser.toJson(decision)));
        assertEquals(
                decision, TransactionDecisionParser.fromJson(TransactionDecisionParser.toJson(decision), "decision"));
    }

    @Test
    void nonAsciiTextIsWrittenAsTheSpecSays() throws IOException {
        ArchiveDescriptor d = descriptor("current/descriptor.json");
        ArchiveDescriptor named = new ArchiveDescriptor(
                d.formatVersion(),
                d.createdAt(),
                d.h3Resolution(),
                d.keyingRule(),
                d.geometryColumn(),
                d.keyColumns(),
                d.versionColumn(),
                d.schema(),
                d.parquetSchema(),
                List.of(d.footer().get(0), new FooterEntry("note", "Zürich \uD835\uDD38")),
                d.writer(),
                d.protocol(),
                d.compaction(),
                d.adoption(),
                d.keyIndexShards());
        String written = new String(DescriptorParser.toJson(named), StandardCharsets.UTF_8);
        assertTrue(
                written.contains("\"Zürich \\uD835\\uDD38\""),
                "BMP characters as UTF-8, others as escaped surrogates: " + written);
        assertEquals(named, DescriptorParser.fromJson(written.getBytes(StandardCharsets.UTF_8), "descriptor"));
    }

    @Test
    void unknownFieldsAreIgnoredAndNotWrittenBack() throws IOException {
        for (Path file : golden("current")) {
            String name = file.getFileName().toString();
            ObjectNode json = (ObjectNode) JSON.readTree(file.toFile());
            addUnknownFields(json);
            byte[] extended = JSON.writeValueAsBytes(json);
            assertEquals(
                    parse(name, Files.readAllBytes(file)),
                    parse(name, extended),
                    name + " with unknown fields reads the same");
            assertEquals(
                    Files.readString(file),
                    new String(rewrite(name, extended), StandardCharsets.UTF_8),
                    name + ": unknown fields are not written back");
        }
    }

    @Test
    void aNewerFormatVersionIsRefusedNamingTheFileAndBothVersions() throws IOException {
        for (Path file : golden("current")) {
            String name = file.getFileName().toString();
            int supported = highestFormatVersion(name);
            int newer = supported + 1;
            ObjectNode json = (ObjectNode) JSON.readTree(file.toFile());
            json.put("formatVersion", newer);
            json.remove(List.of("files", "schema", "participants", "cell")); // a newer version may change anything else
            UnsupportedFormatVersionException refused = assertThrows(
                    UnsupportedFormatVersionException.class, () -> parse(name, JSON.writeValueAsBytes(json)));
            assertEquals(newer, refused.found());
            assertEquals(supported, refused.supported());
            assertTrue(refused.getMessage().startsWith("golden/" + name + ": "), refused.getMessage());
            assertTrue(
                    refused.getMessage().contains("format version " + newer)
                            && refused.getMessage().contains("format version " + supported),
                    refused.getMessage());
        }
    }

    @Test
    void anArchiveOfANewerFormatVersionIsNotOpened() throws IOException {
        Path root = temp.resolve("archive");
        ArchiveCreator.create(
                new LocalArchiveStorage(root),
                SyntheticParcels.archiveSpec(5, WriterSettings.defaults(), "parcels"),
                Clock.systemUTC());
        Path descriptor = root.resolve(ArchiveLayout.DESCRIPTOR);
        ObjectNode json = (ObjectNode) JSON.readTree(descriptor.toFile());
        json.put("formatVersion", 2);
        Files.delete(descriptor);
        Files.write(descriptor, JSON.writeValueAsBytes(json));

        UnsupportedFormatVersionException refused = assertThrows(
                UnsupportedFormatVersionException.class, () -> GeoParquetArchive.open(new LocalArchiveStorage(root)));
        assertTrue(refused.getMessage().contains(descriptor.toString()), refused.getMessage());
        assertTrue(
                refused.getMessage().contains("format version 2")
                        && refused.getMessage().contains("format version 1"),
                refused.getMessage());
    }

    @Test
    void anEntryOfANewerFormatVersionIsNotRead() throws IOException {
        Path root = temp.resolve("archive");
        LocalArchiveStorage storage = new LocalArchiveStorage(root);
        ObjectNode json = (ObjectNode) JSON.readTree(read("current/entry-upsert-in-place.json"));
        json.put("formatVersion", PartitionCommit.HIGHEST_FORMAT_VERSION + 1);
        storage.createExclusive(ArchiveLayout.logEntry("851f8343fffffff", 3), JSON.writeValueAsBytes(json));

        UnsupportedFormatVersionException refused = assertThrows(
                UnsupportedFormatVersionException.class, () -> new PartitionLog(storage, "851f8343fffffff").latest());
        assertTrue(refused.getMessage().contains(ArchiveLayout.logEntry("851f8343fffffff", 3)), refused.getMessage());
    }

    @Test
    void aMissingRequiredFieldIsNamedWithItsFile() throws IOException {
        Map<String, List<String>> required = Map.of(
                "current/descriptor-adopted.json",
                        List.of(
                                "formatVersion",
                                "createdAt",
                                "h3Resolution",
                                "keyingRule",
                                "geometryColumn",
                                "keyColumns",
                                "footer",
                                "writer",
                                "protocol",
                                "compaction",
                                "keyIndexShards",
                                "footer.0.key",
                                "footer.0.value",
                                "writer.codec",
                                "writer.zstdLevel",
                                "writer.rowGroupRowCount",
                                "writer.targetFileBytes",
                                "protocol.operationIdRetention",
                                "protocol.logEntryRetention",
                                "protocol.writerLeaseSeconds",
                                "protocol.maxCommitAttempts",
                                "compaction.minFiles",
                                "compaction.smallFileFraction",
                                "compaction.minFileAgeSeconds",
                                "adoption.adoptedAt",
                                "adoption.referenceFile",
                                "adoption.distinctGeoBlocks",
                                "adoption.canonicalDerived",
                                "adoption.derivation",
                                "adoption.warnings"),
                "current/entry-move-out.json",
                        List.of(
                                "formatVersion",
                                "cell",
                                "version",
                                "operationId",
                                "operationType",
                                "committedAt",
                                "files",
                                "added",
                                "removed",
                                "rowCount",
                                "recentOperationIds",
                                "files.0.name",
                                "files.0.rows",
                                "files.0.bytes",
                                "files.0.committedAt",
                                "operations.0.ids",
                                "operations.0.rows.inserted",
                                "operations.0.rows.updated",
                                "operations.0.rows.deleted",
                                "operations.0.rows.movedIn",
                                "operations.0.rows.movedOut"),
                "current/decision-committed.json",
                        List.of("transaction", "operationId", "outcome", "decidedAt", "participants"));
        for (Map.Entry<String, List<String>> kind : required.entrySet()) {
            String name = Path.of(kind.getKey()).getFileName().toString();
            for (String field : kind.getValue()) {
                JsonNode json = JSON.readTree(read(kind.getKey()));
                remove(json, field);
                ArchiveFormatException refused = assertThrows(
                        ArchiveFormatException.class,
                        () -> parse(name, JSON.writeValueAsBytes(json)),
                        kind.getKey() + " without " + field);
                String path = field.replaceAll("\\.(\\d+)", "[$1]");
                assertEquals("golden/" + name + ": required field '" + path + "' is missing", refused.getMessage());
            }
        }
    }

    @Test
    void optionalFieldsMayBeAbsent() throws IOException {
        Map<String, List<String>> optional = Map.of(
                "current/descriptor-adopted.json",
                        List.of(
                                "versionColumn",
                                "adoption",
                                "protocol.transactionTimeoutSeconds",
                                "adoption.geoDifferences"),
                "current/entry-move-out.json",
                        List.of("transaction", "rowsBefore", "operations", "files.0.stagedAs", "operations.0.rows"),
                "current/decision-committed.json", List.of("formatVersion"));
        for (Map.Entry<String, List<String>> kind : optional.entrySet()) {
            String name = Path.of(kind.getKey()).getFileName().toString();
            for (String field : kind.getValue()) {
                JsonNode json = JSON.readTree(read(kind.getKey()));
                remove(json, field);
                parse(name, JSON.writeValueAsBytes(json));
            }
        }
    }

    @Test
    void aRecordWithAnythingAfterItsObjectIsRefused() throws IOException {
        for (String name : List.of("entry-move-out.json", "decision-committed.json")) {
            byte[] record = read("current/" + name);
            byte[] followed = (new String(record, StandardCharsets.UTF_8) + "\n{\"formatVersion\": 1}")
                    .getBytes(StandardCharsets.UTF_8);
            ArchiveFormatException refused =
                    assertThrows(ArchiveFormatException.class, () -> parse(name, followed), name);
            assertTrue(refused.getMessage().startsWith("golden/" + name + ": "), refused.getMessage());
            parse(name, (new String(record, StandardCharsets.UTF_8) + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void anEntryWhoseTransactionIsNoUuidIsRefused() throws IOException {
        ObjectNode entry = (ObjectNode) JSON.readTree(read("current/entry-move-out.json"));
        for (String transaction : List.of(
                "------------------------------------",
                "3F9B2C71-0D4E-4A8B-9C1F-6E2D7A5B8C90",
                "3f9b2c710d4e-4a8b-9c1f-6e2d7a5b-8c90",
                "../3f9b2c71-0d4e-4a8b-9c1f-6e2d7a5b")) {
            entry.put("transaction", transaction);
            ArchiveFormatException refused = assertThrows(
                    ArchiveFormatException.class,
                    () -> parse("entry.json", JSON.writeValueAsBytes(entry)),
                    transaction);
            assertEquals(
                    "golden/entry.json: field 'transaction' must be a lower-case UUID (8-4-4-4-12 hexadecimal digits),"
                            + " found \"" + transaction + "\"",
                    refused.getMessage());
        }
        entry.put("transaction", "3f9b2c71-0d4e-4a8b-9c1f-6e2d7a5b8c90");
        parse("entry.json", JSON.writeValueAsBytes(entry));
    }

    @Test
    void aFieldOfTheWrongKindIsNamed() throws IOException {
        ObjectNode entry = (ObjectNode) JSON.readTree(read("current/entry-move-out.json"));
        ((ObjectNode) entry.get("files").get(0)).put("rows", "2");
        ArchiveFormatException refused =
                assertThrows(ArchiveFormatException.class, () -> parse("entry.json", JSON.writeValueAsBytes(entry)));
        assertEquals(
                "golden/entry.json: field 'files[0].rows' must be a 64-bit integer, found string \"2\"",
                refused.getMessage());

        ObjectNode decision = (ObjectNode) JSON.readTree(read("current/decision-committed.json"));
        decision.put("outcome", "MAYBE");
        refused = assertThrows(
                ArchiveFormatException.class, () -> parse("decision.json", JSON.writeValueAsBytes(decision)));
        assertEquals(
                "golden/decision.json: field 'outcome' must be one of [COMMITTED, ABORTED], found \"MAYBE\"",
                refused.getMessage());

        ObjectNode descriptor = (ObjectNode) JSON.readTree(read("current/descriptor.json"));
        descriptor.put("createdAt", "yesterday");
        refused = assertThrows(
                ArchiveFormatException.class, () -> parse("descriptor.json", JSON.writeValueAsBytes(descriptor)));
        assertTrue(
                refused.getMessage()
                        .startsWith("golden/descriptor.json: field 'createdAt' must be an RFC 3339 instant"),
                refused.getMessage());

        refused = assertThrows(
                ArchiveFormatException.class, () -> parse("descriptor.json", "[1]".getBytes(StandardCharsets.UTF_8)));
        assertEquals(
                "golden/descriptor.json: archive descriptor must be a JSON object, found array [1]",
                refused.getMessage());
    }

    @Test
    void anEntryThatContradictsItselfIsRefusedNamingItsFile() throws IOException {
        ObjectNode entry = (ObjectNode) JSON.readTree(read("current/entry-move-out.json"));
        entry.put("rowCount", 3);
        ArchiveFormatException refused =
                assertThrows(ArchiveFormatException.class, () -> parse("entry.json", JSON.writeValueAsBytes(entry)));
        assertTrue(
                refused.getMessage()
                        .startsWith(
                                "golden/entry.json: The commit entry is invalid: Commit 2 of 851f8edbfffffff declares 3 rows"),
                refused.getMessage());
    }

    /** The adopted descriptor with settings whose values differ from each other, so a swapped field would show. */
    private static ArchiveDescriptor withDistinctSettings(ArchiveDescriptor d) {
        return new ArchiveDescriptor(
                d.formatVersion(),
                d.createdAt(),
                d.h3Resolution(),
                d.keyingRule(),
                d.geometryColumn(),
                d.keyColumns(),
                "pop_est",
                d.schema(),
                ArchiveDescriptor.schemaJson(d.exactSchema()),
                d.footer(),
                new WriterSettings(CompressionCodecName.SNAPPY, 4, 5000, 6_000_000),
                new ProtocolSettings(11, 12, 1300, 14, 15, 16),
                new CompactionSettings(21, 0.5, 23),
                d.adoption(),
                d.keyIndexShards());
    }

    /** The highest format version this implementation reads for the kind of record a golden file holds. */
    private static int highestFormatVersion(String name) {
        if (name.startsWith("entry")) {
            return PartitionCommit.HIGHEST_FORMAT_VERSION;
        }
        if (name.startsWith("lease")) {
            return LeaseRecord.FORMAT_VERSION;
        }
        return name.startsWith("decision") ? TransactionDecision.FORMAT_VERSION : ArchiveDescriptor.FORMAT_VERSION;
    }

    private static Object parse(String name, byte[] json) throws IOException {
        String file = "golden/" + name;
        if (name.startsWith("lease")) {
            return LeaseRecordParser.fromJson(json, file);
        }
        if (name.startsWith("descriptor")) {
            return DescriptorParser.fromJson(json, file);
        }
        if (name.startsWith("entry")) {
            return CommitEntryParser.fromJson(json, file);
        }
        if (name.startsWith("decision")) {
            return TransactionDecisionParser.fromJson(json, file);
        }
        throw new IllegalArgumentException("Not a golden record: " + name);
    }

    private static byte[] rewrite(String name, byte[] json) throws IOException {
        Object record = parse(name, json);
        if (record instanceof ArchiveDescriptor descriptor) {
            return DescriptorParser.toJson(descriptor);
        }
        if (record instanceof PartitionCommit entry) {
            return CommitEntryParser.toJson(entry);
        }
        if (record instanceof LeaseRecord lease) {
            return LeaseRecordParser.toJson(lease);
        }
        return TransactionDecisionParser.toJson((TransactionDecision) record);
    }

    private static ArchiveDescriptor descriptor(String path) throws IOException {
        return DescriptorParser.fromJson(read(path), path);
    }

    private static PartitionCommit entry(String path) throws IOException {
        return CommitEntryParser.fromJson(read(path), path);
    }

    private static byte[] read(String path) throws IOException {
        return Files.readAllBytes(goldenDirectory().resolve(path));
    }

    private static List<Path> golden(String directory) throws IOException {
        try (Stream<Path> files = Files.list(goldenDirectory().resolve(directory))) {
            return files.filter(file -> file.toString().endsWith(".json"))
                    .sorted()
                    .toList();
        }
    }

    private static Path goldenDirectory() {
        try {
            return Path.of(FormatGoldenFilesTest.class.getResource("/golden").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every field name of a record, at every level, except inside the free-form adoption report. */
    private static Set<String> fieldNames(JsonNode json) {
        Set<String> names = new TreeSet<>();
        collectNames(json, names);
        return names;
    }

    private static void collectNames(JsonNode json, Set<String> names) {
        if (json.isObject()) {
            for (Map.Entry<String, JsonNode> field : json.properties()) {
                names.add(field.getKey());
                if (!field.getKey().equals("geoDifferences")) {
                    collectNames(field.getValue(), names);
                }
            }
        } else if (json.isArray()) {
            json.forEach(element -> collectNames(element, names));
        }
    }

    private static Set<String> names(JsonNode json) {
        Set<String> names = new TreeSet<>();
        json.fieldNames().forEachRemaining(names::add);
        return names;
    }

    /** Adds a field no reader knows to every object of a record (the free-form adoption report aside). */
    private static void addUnknownFields(JsonNode json) {
        if (json.isObject()) {
            List<String> names = new ArrayList<>();
            json.fieldNames().forEachRemaining(names::add);
            for (String name : names) {
                if (!name.equals("geoDifferences")) {
                    addUnknownFields(json.get(name));
                }
            }
            ((ObjectNode) json).put("addedByANewerWriter", "ignored");
            ((ObjectNode) json).putObject("alsoNew").put("nested", 1);
        } else if (json.isArray()) {
            json.forEach(FormatGoldenFilesTest::addUnknownFields);
        }
    }

    /** Removes a field given by its dotted path; numbers index arrays. */
    private static void remove(JsonNode json, String path) {
        String[] steps = path.split("\\.", -1);
        JsonNode parent = json;
        for (int i = 0; i < steps.length - 1; i++) {
            parent = parent.isArray() ? parent.get(Integer.parseInt(steps[i])) : parent.get(steps[i]);
        }
        String last = steps[steps.length - 1];
        assertFalse(parent instanceof ArrayNode, path);
        assertTrue(parent.has(last), "golden file has " + path);
        ((ObjectNode) parent).remove(last);
    }
}
