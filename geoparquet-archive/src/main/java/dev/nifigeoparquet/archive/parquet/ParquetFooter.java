package dev.nifigeoparquet.archive.parquet;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.schema.MessageType;

/**
 * What a file's footer says, before any row is read.
 *
 * @param file       the file's name, for messages
 * @param schema     the exact Parquet schema (physical types, logical annotations, repetition, field order)
 * @param keyValues  every footer key-value entry, in file order
 * @param rowCount   rows in the file
 * @param rowGroups  each row group's metadata, in file order
 */
public record ParquetFooter(
        String file, MessageType schema, Map<String, String> keyValues, long rowCount, List<BlockMetaData> rowGroups) {

    public ParquetFooter {
        keyValues = Collections.unmodifiableMap(new LinkedHashMap<>(keyValues));
        rowGroups = List.copyOf(rowGroups);
    }

    public int rowGroupCount() {
        return rowGroups.size();
    }

    /** The entries every rewrite of this file must carry unchanged. */
    public FooterEntries canonicalEntries() {
        return FooterEntries.canonicalOf(keyValues);
    }
}
