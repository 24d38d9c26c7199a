package dev.nifigeoparquet.processors.templates;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.commit.LiveFiles;
import dev.nifigeoparquet.archive.format.DataFileEntry;
import dev.nifigeoparquet.archive.format.PartitionCommit;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.Type;

/**
 * What two archives must agree on to count as the same archive, whatever their file names and file counts: per
 * partition, its rows (every column, in a canonical text form, sorted) and its keys; over every live data file, the
 * distinct {@code geo} footer values and the distinct Parquet schemas.
 *
 * @param rows    cell -> the partition's rows, canonical and sorted
 * @param keys    cell -> the partition's feature keys, sorted
 * @param geo     the distinct {@code geo} footer values of the live files (one for a consistent archive)
 * @param schemas the distinct schemas of the live files, as text
 */
record ArchiveSnapshot(
        Map<String, List<String>> rows, Map<String, Set<String>> keys, Set<String> geo, Set<String> schemas) {

    static ArchiveSnapshot of(Path root) throws IOException {
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        List<String> keyColumns = archive.descriptor().keyColumns();
        Map<String, List<String>> rows = new TreeMap<>();
        Map<String, Set<String>> keys = new TreeMap<>();
        Set<String> geo = new TreeSet<>();
        Set<String> schemas = new TreeSet<>();
        for (String cell : archive.partitionCells()) {
            PartitionCommit state = archive.partitionState(cell);
            if (state.isEmptyPartition()) {
                continue;
            }
            List<String> cellRows = new ArrayList<>();
            Set<String> cellKeys = new TreeSet<>();
            for (DataFileEntry file : state.files()) {
                try (GeoParquetFileReader reader = LiveFiles.open(archive.storage(), state, file)) {
                    String fileGeo = reader.footer().keyValues().get(FooterEntries.GEO);
                    geo.add(fileGeo == null ? "(none)" : fileGeo);
                    schemas.add(reader.readSchema().toString());
                    for (Iterator<Group> it = reader.rows(); it.hasNext(); ) {
                        Group row = it.next();
                        cellRows.add(canonical(row, row.getType()));
                        List<String> key = new ArrayList<>();
                        for (String column : keyColumns) {
                            key.add(String.join(
                                    ",", canonical(row, row.getType().getFieldIndex(column))));
                        }
                        cellKeys.add(String.join("|", key));
                    }
                }
            }
            cellRows.sort(null);
            rows.put(cell, cellRows);
            keys.put(cell, cellKeys);
        }
        return new ArchiveSnapshot(rows, keys, geo, schemas);
    }

    long rowCount() {
        return rows.values().stream().mapToLong(List::size).sum();
    }

    private static String canonical(Group row, GroupType type) {
        StringBuilder text = new StringBuilder("{");
        for (int field = 0; field < type.getFieldCount(); field++) {
            text.append(type.getFieldName(field))
                    .append('=')
                    .append(canonical(row, field))
                    .append(';');
        }
        return text.append('}').toString();
    }

    /** A field's values in canonical text: strings as themselves, other binary values in hexadecimal. */
    private static List<String> canonical(Group row, int field) {
        Type type = row.getType().getType(field);
        List<String> values = new ArrayList<>();
        for (int r = 0; r < row.getFieldRepetitionCount(field); r++) {
            if (!type.isPrimitive()) {
                Group nested = row.getGroup(field, r);
                values.add(canonical(nested, nested.getType()));
                continue;
            }
            values.add(
                    switch (type.asPrimitiveType().getPrimitiveTypeName()) {
                        case BOOLEAN -> String.valueOf(row.getBoolean(field, r));
                        case INT32 -> String.valueOf(row.getInteger(field, r));
                        case INT64 -> String.valueOf(row.getLong(field, r));
                        case FLOAT -> String.valueOf(row.getFloat(field, r));
                        case DOUBLE -> String.valueOf(row.getDouble(field, r));
                        case INT96, BINARY, FIXED_LEN_BYTE_ARRAY ->
                            type.getLogicalTypeAnnotation() instanceof LogicalTypeAnnotation.StringLogicalTypeAnnotation
                                    ? row.getBinary(field, r).toStringUsingUTF8()
                                    : HexFormat.of()
                                            .formatHex(row.getBinary(field, r).getBytes());
                    });
        }
        return values;
    }
}
