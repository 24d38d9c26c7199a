package dev.nifigeoparquet.archive.ops;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;

import java.io.IOException;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Finds which of a partition's live files hold some wanted keys, reading only the key column chunks: the cheap
 * first pass of every keyed operation, and how a key's presence in a partition is confirmed.
 */
public final class KeyScanner {

    private final GeoParquetArchive archive;

    public KeyScanner(GeoParquetArchive archive) {
        this.archive = archive;
    }

    /**
     * @param filesHoldingKeys live files with at least one wanted key, in live-file order
     * @param found            the wanted keys present
     * @param bytesRead        bytes of the key column chunks read
     */
    public record Result(Set<String> filesHoldingKeys, Set<FeatureKey> found, long bytesRead) {
    }

    public Result scan(PartitionCommit state, Set<FeatureKey> wanted) throws IOException {
        Set<String> files = new LinkedHashSet<>();
        Set<FeatureKey> found = new HashSet<>();
        long bytes = 0;
        if (wanted.isEmpty()) {
            return new Result(files, found, 0);
        }
        List<String> keyColumns = archive.descriptor().keyColumns();
        for (DataFileEntry file : state.files()) {
            try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), state.cell(), file.name())) {
                bytes += keyColumnBytes(reader, keyColumns);
                reader.project(keyColumns);
                FeatureKey.Extractor keys = FeatureKey.extractor(reader.readSchema(), keyColumns);
                for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                    FeatureKey key = keys.keyOf(it.next());
                    if (key != null && wanted.contains(key)) {
                        files.add(file.name());
                        found.add(key);
                    }
                }
            }
        }
        return new Result(files, found, bytes);
    }

    private static long keyColumnBytes(GeoParquetFileReader reader, List<String> keyColumns) {
        long bytes = 0;
        for (BlockMetaData block : reader.footer().rowGroups()) {
            for (ColumnChunkMetaData chunk : block.getColumns()) {
                if (keyColumns.contains(chunk.getPath().toArray()[0])) {
                    bytes += chunk.getTotalSize();
                }
            }
        }
        return bytes;
    }
}
