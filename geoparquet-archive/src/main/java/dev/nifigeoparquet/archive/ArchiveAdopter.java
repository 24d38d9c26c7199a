package dev.nifigeoparquet.archive;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.format.AdoptionRecord;
import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import dev.nifigeoparquet.archive.format.ArchiveLayout;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.OperationType;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.format.PartitionLog;
import dev.nifigeoparquet.archive.format.ProtocolSettings;
import dev.nifigeoparquet.archive.geo.GeoBlockDiff;
import dev.nifigeoparquet.archive.index.KeyIndex;
import dev.nifigeoparquet.archive.ops.FeatureKey;
import dev.nifigeoparquet.archive.keying.H3Cells;
import dev.nifigeoparquet.archive.keying.InvalidCellException;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import dev.nifigeoparquet.archive.storage.StoredObject;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Adopts an archive written by pyarrow, GeoPandas or DuckDB in the {@code h3_cell=<cell>/*.parquet} layout:
 * derives the pinned settings from what the files hold, commits every partition's existing files as its first
 * state, and writes the descriptor last, so an interrupted adoption can simply be run again.
 * See docs/archive-format.md, section 8.
 */
public final class ArchiveAdopter {

    private static final String ADOPT_OPERATION_ID = "adopt";
    private static final int FILES_NAMED_IN_ERRORS = 5;

    private ArchiveAdopter() {
    }

    /** One data file found, with its footer. */
    private record FoundFile(String cell, StoredObject object, ParquetFooter footer) {
        String path() {
            return object.path();
        }

        String geo() {
            return footer.canonicalEntries().geo();
        }
    }

    public static AdoptionReport adopt(ArchiveStorage storage, AdoptionOptions options, Clock clock) throws IOException {
        if (GeoParquetArchive.exists(storage)) {
            throw new FileAlreadyExistsException(storage.describe(), null, "already an archive (it has a descriptor); open it instead");
        }
        Map<String, List<StoredObject>> partitions = findPartitions(storage, options.expectedResolution());
        int resolution = H3Cells.resolutionOf(partitions.keySet().iterator().next());

        List<FoundFile> files = new ArrayList<>();
        for (Map.Entry<String, List<StoredObject>> partition : partitions.entrySet()) {
            for (StoredObject object : partition.getValue()) {
                try (GeoParquetFileReader reader = GeoParquetFileReader.open(storage.openInputFile(object.path()), object.path())) {
                    files.add(new FoundFile(partition.getKey(), object, reader.footer()));
                }
            }
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("No data files under " + storage.describe() + ": nothing to adopt");
        }

        FoundFile reference = chooseReference(files, options.referenceFile(), storage);
        requireOneSchema(files, reference);
        List<String> derivation = new ArrayList<>();
        Map<String, Integer> distinctBlocks = countDistinctGeo(files);
        FooterEntries canonical = canonicalFooter(reference, files, distinctBlocks, derivation);
        JsonNode differences = geoDifferences(reference, distinctBlocks);

        WriterSettings writer = options.writer() != null ? options.writer() : inferWriterSettings(reference.footer());
        ArchiveSpec spec = ArchiveSpec.of(reference.footer().schema(), canonical, options.keyColumns(), options.versionColumn(),
                resolution, writer, reference.path());

        Instant now = clock.instant();
        AdoptionRecord record = new AdoptionRecord(now, reference.path(), distinctBlocks.size(), !derivation.isEmpty(),
                derivation, differences, spec.warnings());
        for (Map.Entry<String, List<StoredObject>> partition : partitions.entrySet()) {
            commitExistingFiles(storage, partition.getKey(), files, now);
        }
        ArchiveDescriptor descriptor = new ArchiveDescriptor(ArchiveDescriptor.FORMAT_VERSION, now, resolution,
                ArchiveDescriptor.KEYING_RULE, spec.geometryColumn(), spec.keyColumns(), spec.versionColumn(),
                ArchiveDescriptor.schemaText(spec.schema()), ArchiveDescriptor.footerEntries(canonical), writer,
                ProtocolSettings.DEFAULT, spec.compaction(), record, spec.keyColumns().isEmpty() ? 0 : ArchiveDescriptor.DEFAULT_KEY_INDEX_SHARDS);
        if (descriptor.hasKey()) {
            buildKeyIndex(GeoParquetArchive.beforeDescriptor(storage, descriptor, clock), files);
        }
        GeoParquetArchive archive = GeoParquetArchive.writeDescriptor(storage, descriptor, clock);
        long rows = files.stream().mapToLong(file -> file.footer().rowCount()).sum();
        return new AdoptionReport(archive, partitions.size(), files.size(), rows, record);
    }

    /** Partition directories by cell, validated as H3 cells of one resolution, with their data files. */
    private static Map<String, List<StoredObject>> findPartitions(ArchiveStorage storage, Integer expectedResolution) throws IOException {
        Map<String, List<StoredObject>> partitions = new TreeMap<>();
        List<String> invalid = new ArrayList<>();
        List<String> unnamable = new ArrayList<>();
        Map<Integer, Integer> partitionsByResolution = new TreeMap<>();
        for (StoredObject entry : storage.list("")) {
            String cell = entry.directory() ? ArchiveLayout.cellOfPartitionDirectory(entry.name()) : null;
            if (cell == null) {
                continue;
            }
            try {
                int resolution = H3Cells.resolutionOf(cell);
                H3Cells.requireCanonical(cell, resolution);
                partitionsByResolution.merge(resolution, 1, Integer::sum);
            } catch (InvalidCellException e) {
                invalid.add(entry.name() + " (" + e.getMessage() + ")");
                continue;
            }
            List<StoredObject> dataFiles = new ArrayList<>();
            for (StoredObject file : storage.list(entry.path())) {
                if (!file.directory() && file.name().endsWith(ArchiveLayout.DATA_FILE_SUFFIX) && !file.name().startsWith(".")) {
                    if (!ArchiveLayout.isDataFileName(file.name())) {
                        // Every later read or write of the file builds its path from the name, and refuses it then.
                        unnamable.add(file.path());
                    }
                    dataFiles.add(file);
                }
            }
            partitions.put(cell, dataFiles);
        }
        if (!invalid.isEmpty()) {
            throw new IllegalArgumentException("Partition directories that are not canonical H3 cells: " + invalid);
        }
        if (!unnamable.isEmpty()) {
            throw new IllegalArgumentException("Data file names may hold only the characters A-Z a-z 0-9 . _ = -; rename "
                    + unnamable.subList(0, Math.min(FILES_NAMED_IN_ERRORS, unnamable.size()))
                    + (unnamable.size() > FILES_NAMED_IN_ERRORS ? " and " + (unnamable.size() - FILES_NAMED_IN_ERRORS) + " more" : "")
                    + " before adopting");
        }
        if (partitions.isEmpty()) {
            throw new IllegalArgumentException("No " + ArchiveLayout.PARTITION_PREFIX + "<cell> directories under "
                    + storage.describe() + ": not an H3-partitioned archive");
        }
        if (partitionsByResolution.size() > 1) {
            throw new IllegalArgumentException("Partition names mix H3 resolutions (resolution: partitions) "
                    + partitionsByResolution + "; an archive has one pinned resolution");
        }
        int found = partitionsByResolution.keySet().iterator().next();
        if (expectedResolution != null && expectedResolution != found) {
            throw new IllegalArgumentException("Configured H3 resolution " + expectedResolution
                    + " differs from resolution " + found + " that the archive's partition names encode");
        }
        return partitions;
    }

    private static FoundFile chooseReference(List<FoundFile> files, String requested, ArchiveStorage storage) {
        if (requested != null) {
            return files.stream().filter(file -> file.path().equals(requested)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("Reference file '" + requested
                            + "' is not a data file of the archive at " + storage.describe()));
        }
        Map<String, Integer> counts = countDistinctGeo(files);
        return files.stream()
                .min(Comparator.comparingInt((FoundFile file) -> -counts.getOrDefault(String.valueOf(file.geo()), 0))
                        .thenComparing(FoundFile::path))
                .orElseThrow();
    }

    private static void requireOneSchema(List<FoundFile> files, FoundFile reference) {
        List<String> different = files.stream()
                .filter(file -> !file.footer().schema().equals(reference.footer().schema()))
                .map(FoundFile::path).toList();
        if (!different.isEmpty()) {
            throw new IllegalArgumentException(different.size() + " file(s) have a schema different from the reference file "
                    + reference.path() + ", e.g. " + different.subList(0, Math.min(FILES_NAMED_IN_ERRORS, different.size()))
                    + "; schema evolution is not supported");
        }
    }

    /** Distinct raw geo values (the string "null" for files without one) and how many files carry each. */
    private static Map<String, Integer> countDistinctGeo(List<FoundFile> files) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (FoundFile file : files) {
            counts.merge(String.valueOf(file.geo()), 1, Integer::sum);
        }
        return counts;
    }

    /**
     * The reference file's canonical entries, with the {@code geo} block derived when the files do not share one
     * block without a file-level bbox: per-column bbox removed, geometry_types the union found. Any other
     * difference between the files' blocks is refused.
     */
    private static FooterEntries canonicalFooter(FoundFile reference, List<FoundFile> files, Map<String, Integer> distinct,
                                                 List<String> derivation) throws IOException {
        FooterEntries entries = reference.footer().canonicalEntries();
        if (reference.geo() == null) {
            if (distinct.size() > 1) {
                throw new IllegalArgumentException("Some files carry 'geo' metadata and some do not (reference "
                        + reference.path() + " has none); adopt an archive whose files agree");
            }
            return entries;
        }
        ObjectNode referenceBlock = (ObjectNode) ArchiveJson.mapper().readTree(reference.geo());
        ObjectNode derived = referenceBlock.deepCopy();
        Map<String, Set<String>> typeUnion = new LinkedHashMap<>();
        for (String geo : distinct.keySet()) {
            if ("null".equals(geo)) {
                throw new IllegalArgumentException("Some files carry 'geo' metadata and some do not; adopt an archive whose files agree");
            }
            ObjectNode block = (ObjectNode) ArchiveJson.mapper().readTree(geo);
            List<GeoBlockDiff.Difference> differences = GeoBlockDiff.differences(stripPerFile(referenceBlock.deepCopy()), stripPerFile(block.deepCopy()));
            if (!differences.isEmpty()) {
                throw new IllegalArgumentException("Files disagree on their geo metadata beyond per-file bbox and geometry_types: "
                        + GeoBlockDiff.toJson(differences) + "; the archive has no single canonical block");
            }
            block.path("columns").properties().forEach(column -> {
                Set<String> types = typeUnion.computeIfAbsent(column.getKey(), key -> new LinkedHashSet<>());
                column.getValue().path("geometry_types").forEach(type -> types.add(type.asText()));
            });
        }
        boolean bboxFound = false;
        boolean typesWidened = false;
        for (var column : derived.path("columns").properties()) {
            ObjectNode columnNode = (ObjectNode) column.getValue();
            if (columnNode.remove("bbox") != null) {
                bboxFound = true;
            }
            ArrayNode types = JsonNodeFactory.instance.arrayNode();
            typeUnion.getOrDefault(column.getKey(), Set.of()).forEach(types::add);
            if (!types.equals(columnNode.path("geometry_types"))) {
                typesWidened = true;
                columnNode.set("geometry_types", types);
            }
        }
        if (!bboxFound && !typesWidened) {
            return entries; // one block, no per-file bbox: it is canonical as it is, byte for byte
        }
        if (bboxFound) {
            derivation.add("removed the per-file 'bbox' of each geometry column (it describes one file, not the archive)");
        }
        if (typesWidened) {
            derivation.add("set 'geometry_types' to the union found in " + files.size() + " files: " + typeUnion);
        }
        Map<String, String> replaced = new LinkedHashMap<>(entries.asMap());
        replaced.put(FooterEntries.GEO, ArchiveJson.mapper().writer().without(
                com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT).writeValueAsString(derived));
        return FooterEntries.canonicalOf(replaced);
    }

    private static ObjectNode stripPerFile(ObjectNode block) {
        block.path("columns").forEach(column -> {
            ((ObjectNode) column).remove("bbox");
            ((ObjectNode) column).remove("geometry_types");
        });
        return block;
    }

    private static JsonNode geoDifferences(FoundFile reference, Map<String, Integer> distinct) throws IOException {
        ArrayNode all = JsonNodeFactory.instance.arrayNode();
        if (reference.geo() == null) {
            return all;
        }
        JsonNode referenceBlock = ArchiveJson.mapper().readTree(reference.geo());
        for (Map.Entry<String, Integer> block : distinct.entrySet()) {
            if (block.getKey().equals(reference.geo())) {
                continue;
            }
            ObjectNode entry = JsonNodeFactory.instance.objectNode();
            entry.put("files", block.getValue());
            entry.set("differences", GeoBlockDiff.toJson(GeoBlockDiff.differences(referenceBlock, ArchiveJson.mapper().readTree(block.getKey()))));
            all.add(entry);
        }
        return all;
    }

    /** Codec and row-group size as the reference file was written; the ZSTD level cannot be read back. */
    private static WriterSettings inferWriterSettings(ParquetFooter footer) {
        WriterSettings settings = WriterSettings.defaults();
        List<BlockMetaData> rowGroups = footer.rowGroups();
        if (!rowGroups.isEmpty() && !rowGroups.get(0).getColumns().isEmpty()) {
            CompressionCodecName codec = rowGroups.get(0).getColumns().get(0).getCodec();
            if (WriterSettings.SUPPORTED_CODECS.contains(codec)) {
                settings = settings.withCodec(codec);
            }
        }
        if (rowGroups.size() > 1) {
            settings = settings.withRowGroupRowCountLimit((int) rowGroups.get(0).getRowCount());
        }
        return settings;
    }

    /**
     * Records every key's cell in the key index, reading only the key columns; keys that are not unique across
     * the archive are refused, since the archive's operations rely on one row per key.
     */
    private static void buildKeyIndex(GeoParquetArchive archive, List<FoundFile> files) throws IOException {
        List<String> keyColumns = archive.descriptor().keyColumns();
        Map<FeatureKey, String> cells = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        int nullKeys = 0;
        for (FoundFile file : files) {
            try (GeoParquetFileReader reader = GeoParquetFileReader.open(archive.storage().openInputFile(file.path()), file.path())) {
                reader.project(keyColumns);
                FeatureKey.Extractor extractor = FeatureKey.extractor(reader.readSchema(), keyColumns);
                for (var rows = reader.rows(); rows.hasNext(); ) {
                    FeatureKey key = extractor.keyOf(rows.next());
                    if (key == null) {
                        nullKeys++;
                    } else {
                        String previous = cells.put(key, file.cell());
                        if (previous != null && duplicates.size() < FILES_NAMED_IN_ERRORS * 2) {
                            duplicates.add(key + " (in " + previous + " and " + file.cell() + ")");
                        }
                    }
                }
            }
        }
        if (nullKeys > 0 || !duplicates.isEmpty()) {
            throw new IllegalArgumentException("Key " + keyColumns + " does not identify features: " + nullKeys + " null key(s)"
                    + (duplicates.isEmpty() ? "" : ", duplicates such as " + duplicates)
                    + "; adopt with another key, or without a key for an append-only archive");
        }
        new KeyIndex(archive).build(cells);
    }

    /** Commits a partition's existing files as version 1; a version 1 left by an interrupted adoption is kept. */
    private static void commitExistingFiles(ArchiveStorage storage, String cell, List<FoundFile> files, Instant now) throws IOException {
        PartitionLog log = new PartitionLog(storage, cell);
        if (log.latestVersion() > 0) {
            PartitionCommit existing = log.read(1);
            if (existing.operationType() != OperationType.ADOPT) {
                throw new IllegalStateException("Partition " + cell + " already has commits that are not an adoption");
            }
            return;
        }
        List<DataFileEntry> entries = files.stream()
                .filter(file -> file.cell().equals(cell))
                .map(file -> new DataFileEntry(file.object().name(), file.footer().rowCount(), file.object().size(),
                        file.object().lastModified()))
                .toList();
        PartitionCommit empty = PartitionCommit.empty(cell);
        log.commit(empty.next(ADOPT_OPERATION_ID, OperationType.ADOPT, now, entries,
                entries.stream().map(DataFileEntry::name).toList(), List.of(), ProtocolSettings.DEFAULT.operationIdRetention()));
    }
}
