package dev.nifigeoparquet.processors.templates;

import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.ops.ArchiveWriter;
import dev.nifigeoparquet.archive.ops.DeltaRow;
import dev.nifigeoparquet.archive.ops.PartitionDelta;
import dev.nifigeoparquet.archive.ops.WriteMode;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileReader;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Stands in for {@code bin/geoparquet-archive apply <archive> <delta.parquet>} until that command exists on this
 * branch: it takes the engine path the command takes, with no NiFi type on it. Every row of the delta file is keyed
 * by the archive's keyer ({@code archive.keyer()}, the cell of its geometry), the rows of each cell become one
 * {@code PartitionDelta.prepare(...)} and each is committed with {@code ArchiveWriter.apply(...)}.
 *
 * <p>When the CLI lands, replace {@link #apply} with running {@code bin/geoparquet-archive apply} on the same files;
 * the flow tests compare archives only through {@link ArchiveSnapshot}, so nothing else changes.
 */
final class CliApplyStandIn {

    private CliApplyStandIn() {
    }

    /**
     * Applies a GeoParquet delta file to the archive at {@code root}, one commit per cell.
     *
     * @param deleteMarker a boolean column of the delta whose true value deletes the row's key; null for none
     * @return the cells committed to
     */
    static List<String> apply(Path root, Path deltaFile, WriteMode mode, String deleteMarker) throws IOException {
        GeoParquetArchive archive = GeoParquetArchive.open(new LocalArchiveStorage(root));
        Map<String, List<DeltaRow>> byCell = new TreeMap<>();
        try (GeoParquetFileReader reader = GeoParquetFileReader.open(deltaFile)) {
            MessageType deltaSchema = reader.readSchema();
            long index = 0;
            for (Iterator<Group> rows = reader.rows(); rows.hasNext(); index++) {
                Group source = rows.next();
                Group row = inArchiveSchema(source, deltaSchema, archive.schema());
                boolean delete = deleteMarker != null && deltaSchema.containsField(deleteMarker)
                        && source.getFieldRepetitionCount(deleteMarker) > 0 && source.getBoolean(deleteMarker, 0);
                String cell = archive.keyer().cellOf(archive.geometryCodec().decode(row, index), archive.sourceCrs());
                byCell.computeIfAbsent(cell, c -> new ArrayList<>()).add(delete ? DeltaRow.deletion(row) : DeltaRow.upsert(row));
            }
        }
        ArchiveWriter writer = new ArchiveWriter(archive);
        for (Map.Entry<String, List<DeltaRow>> cell : byCell.entrySet()) {
            writer.apply(PartitionDelta.prepare(archive, cell.getKey(), mode, cell.getValue(), null));
        }
        return List.copyOf(byCell.keySet());
    }

    /** The row's values of the archive's columns, by name; columns the delta lacks stay empty. */
    private static Group inArchiveSchema(Group source, GroupType sourceType, MessageType archiveSchema) {
        Group row = new SimpleGroup(archiveSchema);
        for (Type field : archiveSchema.getFields()) {
            if (!sourceType.containsField(field.getName())) {
                continue;
            }
            int from = sourceType.getFieldIndex(field.getName());
            for (int r = 0; r < source.getFieldRepetitionCount(from); r++) {
                if (!field.isPrimitive()) {
                    row.add(field.getName(), source.getGroup(from, r));
                    continue;
                }
                switch (field.asPrimitiveType().getPrimitiveTypeName()) {
                    case BOOLEAN -> row.add(field.getName(), source.getBoolean(from, r));
                    case INT32 -> row.add(field.getName(), source.getInteger(from, r));
                    case INT64 -> row.add(field.getName(), source.getLong(from, r));
                    case FLOAT -> row.add(field.getName(), source.getFloat(from, r));
                    case DOUBLE -> row.add(field.getName(), source.getDouble(from, r));
                    case INT96, BINARY, FIXED_LEN_BYTE_ARRAY -> row.add(field.getName(), source.getBinary(from, r));
                }
            }
        }
        return row;
    }
}
