package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.LiveFiles;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.FeatureKey;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

/**
 * Finds which of a partition's live files hold some wanted keys, reading only the key column chunks (and the version
 * column's, when the archive has one): the cheap first pass of every keyed operation, and how a key's presence in a
 * partition is confirmed.
 */
public final class KeyScanner {

    private final GeoParquetArchive archive;

    public KeyScanner(GeoParquetArchive archive) {
        this.archive = archive;
    }

    /**
     * What a scan found.
     *
     * @param filesHoldingKeys live files with at least one wanted key, in live-file order
     * @param stored           each wanted key present, with its stored row's key and version columns
     * @param fileOf           the live file holding each key present
     * @param bytesRead        bytes of the column chunks read
     */
    public record Result(
            Set<String> filesHoldingKeys,
            Map<FeatureKey, Group> stored,
            Map<FeatureKey, String> fileOf,
            long bytesRead) {

        /** The wanted keys present. */
        public Set<FeatureKey> found() {
            return stored.keySet();
        }
    }

    public Result scan(PartitionCommit state, Set<FeatureKey> wanted) throws IOException {
        Set<String> files = new LinkedHashSet<>();
        Map<FeatureKey, Group> stored = new HashMap<>();
        Map<FeatureKey, String> fileOf = new HashMap<>();
        long bytes = 0;
        if (wanted.isEmpty()) {
            return new Result(files, stored, fileOf, 0);
        }
        List<String> keyColumns = archive.descriptor().keyColumns();
        List<String> columns = new ArrayList<>(keyColumns);
        String version = archive.descriptor().versionColumn();
        if (version != null && !columns.contains(version)) {
            columns.add(version);
        }
        for (DataFileEntry file : state.files()) {
            try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), state, file)) {
                bytes += columnBytes(reader, columns);
                reader.project(columns);
                FeatureKey.Extractor keys = FeatureKey.extractor(reader.readSchema(), keyColumns);
                for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                    Group row = it.next();
                    FeatureKey key = keys.keyOf(row);
                    if (key != null && wanted.contains(key)) {
                        files.add(file.name());
                        stored.put(key, row);
                        fileOf.put(key, file.name());
                    }
                }
            }
        }
        return new Result(files, stored, fileOf, bytes);
    }

    private static long columnBytes(GeoParquetFileReader reader, List<String> columns) {
        long bytes = 0;
        for (BlockMetaData block : reader.footer().rowGroups()) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                if (columns.contains(chunk.getPath().toArray()[0])) {
                    bytes += chunk.getTotalSize();
                }
            }
        }
        return bytes;
    }
}
