package dev.nifigeoparquet.cli;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import dev.nifigeoparquet.archive.ops.DeltaRouter;
import dev.nifigeoparquet.archive.parquet.ArrowSchemaEntry;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.GeoParquetFileWriter;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;

/**
 * The side file {@code apply --unkeyable-rows} writes: the delta rows that cannot be keyed, in the archive's columns,
 * each with why ({@value #ERROR_FIELD}, the field RouteByH3Cell's failure records carry) and where it came from
 * ({@value #FILE_FIELD}, {@value #ROW_FIELD}). It is a GeoParquet file any reader opens: the archive's {@code geo} block
 * without its covering (the bbox of a geometry that cannot be keyed may not exist), the archive's other footer entries
 * but pandas' and Arrow's descriptions of the archive's columns, and every column optional, so a row missing what
 * the archive requires can still be kept.
 */
final class UnkeyableRowsFile {

    static final String ERROR_FIELD = "h3_keying_error";
    static final String FILE_FIELD = "delta_file";
    static final String ROW_FIELD = "delta_row";

    private UnkeyableRowsFile() {}

    /** Writes the file, replacing one already there; with no rows it holds none. */
    static void write(
            Path file,
            GeoParquetArchive archive,
            List<DeltaRouter.Unkeyable> rows,
            LongFunction<DeltaFiles.Origin> origins)
            throws IOException {
        MessageType archiveSchema = archive.schema();
        List<Type> fields = new ArrayList<>();
        for (Type field : archiveSchema.getFields()) {
            fields.add(optional(field));
        }
        fields.add(Types.required(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named(ERROR_FIELD));
        fields.add(Types.required(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named(FILE_FIELD));
        fields.add(Types.required(PrimitiveTypeName.INT64).named(ROW_FIELD));
        MessageType schema = new MessageType(archiveSchema.getName(), fields);

        Path absolute = file.toAbsolutePath();
        Files.createDirectories(absolute.getParent());
        Path partial = absolute.resolveSibling(absolute.getFileName() + ".partial");
        Files.deleteIfExists(partial);
        try (GeoParquetFileWriter writer = GeoParquetFileWriter.create(
                new LocalOutputFile(partial),
                partial.toString(),
                schema,
                footer(archive.canonicalFooter()),
                WriterSettings.defaults())) {
            for (DeltaRouter.Unkeyable unkeyable : rows) {
                Group row = new SimpleGroup(schema);
                Group given = unkeyable.row().row();
                for (int field = 0; field < archiveSchema.getFieldCount(); field++) {
                    for (int i = 0; i < given.getFieldRepetitionCount(field); i++) {
                        copy(given, field, i, row);
                    }
                }
                DeltaFiles.Origin origin = origins.apply(unkeyable.index());
                row.add(ERROR_FIELD, unkeyable.message());
                row.add(FILE_FIELD, origin.file().toString());
                row.add(ROW_FIELD, origin.row());
                writer.write(row);
            }
            writer.finish();
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(partial);
            throw e;
        }
        Files.move(partial, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Type optional(Type field) {
        if (!field.isRepetition(Type.Repetition.REQUIRED)) {
            return field;
        }
        if (field.isPrimitive()) {
            PrimitiveType primitive = field.asPrimitiveType();
            Types.PrimitiveBuilder<PrimitiveType> builder = Types.optional(primitive.getPrimitiveTypeName());
            if (primitive.getPrimitiveTypeName() == PrimitiveTypeName.FIXED_LEN_BYTE_ARRAY) {
                builder.length(primitive.getTypeLength());
            }
            builder.as(primitive.getLogicalTypeAnnotation()).columnOrder(primitive.columnOrder());
            if (primitive.getId() != null) {
                builder.id(primitive.getId().intValue());
            }
            return builder.named(primitive.getName());
        }
        GroupType group = field.asGroupType();
        Types.GroupBuilder<GroupType> builder = Types.optionalGroup()
                .as(group.getLogicalTypeAnnotation())
                .addFields(group.getFields().toArray(new Type[0]));
        if (group.getId() != null) {
            builder.id(group.getId().intValue());
        }
        return builder.named(group.getName());
    }

    /**
     * The archive's footer entries for a file of other columns: the {@code geo} block without {@code covering}, and
     * without pandas' and Arrow's descriptions of the archive's columns.
     */
    private static FooterEntries footer(FooterEntries canonical) throws IOException {
        Map<String, String> entries = new LinkedHashMap<>(canonical.asMap());
        entries.remove(ArrowSchemaEntry.KEY);
        entries.remove("pandas");
        if (canonical.geo() != null) {
            ObjectNode geo = (ObjectNode) ArchiveJson.mapper().readTree(canonical.geo());
            geo.path("columns").forEach(column -> ((ObjectNode) column).remove("covering"));
            entries.put(
                    FooterEntries.GEO,
                    ArchiveJson.mapper()
                            .writer()
                            .without(SerializationFeature.INDENT_OUTPUT)
                            .writeValueAsString(geo));
        }
        return FooterEntries.canonicalOf(entries);
    }

    private static void copy(Group from, int field, int index, Group to) {
        Type type = from.getType().getType(field);
        if (!type.isPrimitive()) {
            to.add(field, from.getGroup(field, index));
            return;
        }
        switch (type.asPrimitiveType().getPrimitiveTypeName()) {
            case BOOLEAN -> to.add(field, from.getBoolean(field, index));
            case INT32 -> to.add(field, from.getInteger(field, index));
            case INT64 -> to.add(field, from.getLong(field, index));
            case FLOAT -> to.add(field, from.getFloat(field, index));
            case DOUBLE -> to.add(field, from.getDouble(field, index));
            case INT96, BINARY, FIXED_LEN_BYTE_ARRAY -> to.add(field, from.getBinary(field, index));
        }
    }
}
