package dev.nifigeoparquet.processors.templates;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import dev.nifigeoparquet.processors.testing.ParcelArchives;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.locationtech.jts.io.WKBReader;

/** Delta files for a generated parcel archive, as a nightly export would deliver them. */
final class ParcelDeltas {

    static final String DELETE_MARKER = "is_deleted";
    static final Instant EDIT_TIME = Instant.parse("2026-02-01T00:00:00Z");

    private ParcelDeltas() {}

    /** A delta row: the parcel's columns and whether it deletes its key. */
    record Row(Group values, boolean deleted) {}

    /**
     * Edits, inserts and deletions in the three largest cells, and one key that moves: an existing parcel of the
     * largest cell given the geometry of a parcel of the second, so its old partition loses it in the same delta.
     */
    static List<Row> upsertDelta(ParcelArchives parcels) {
        List<Row> rows = new ArrayList<>();
        List<String> cells = parcels.cellsBySize().subList(0, 3);
        for (String cell : cells) {
            List<Group> existing = parcels.initial.get(cell);
            rows.add(new Row(copy(existing.get(0), key(existing.get(0)), 1234.5, geometry(existing.get(0))), false));
            rows.add(new Row(copy(existing.get(1), key(existing.get(1)), 2345.5, geometry(existing.get(1))), false));
            rows.add(new Row(copy(existing.get(2), "new-" + cell + "-a", 10.25, geometry(existing.get(2))), false));
            rows.add(new Row(copy(existing.get(3), key(existing.get(3)), 0, geometry(existing.get(3))), true));
        }
        Group mover = parcels.initial.get(cells.get(0)).get(4);
        Group target = parcels.initial.get(cells.get(1)).get(5);
        rows.add(new Row(copy(mover, key(mover), 777.0, geometry(target)), false));
        return rows;
    }

    /** New parcels only, cloned from existing geometries in the two largest cells. */
    static List<Group> appendDelta(ParcelArchives parcels) {
        List<Group> rows = new ArrayList<>();
        for (String cell : parcels.cellsBySize().subList(0, 2)) {
            List<Group> existing = parcels.initial.get(cell);
            for (int i = 0; i < 3; i++) {
                rows.add(copy(existing.get(i), "appended-" + cell + "-" + i, 100.5 + i, geometry(existing.get(i))));
            }
        }
        return rows;
    }

    static String key(Group row) {
        return row.getString(SyntheticParcels.KEY, 0);
    }

    static Binary geometry(Group row) {
        return row.getBinary(SyntheticParcels.GEOMETRY, 0);
    }

    static Group copy(Group row, String id, double area, Binary geometry) {
        Group copy = new SimpleGroup(SyntheticParcels.schema());
        copy.add(SyntheticParcels.KEY, id);
        copy.add("land_use", row.getString("land_use", 0));
        copy.add("area_m2", area);
        copy.add(SyntheticParcels.VERSION, ChronoUnit.MICROS.between(Instant.EPOCH, EDIT_TIME));
        copy.add(SyntheticParcels.GEOMETRY, geometry);
        return copy;
    }

    /** The parcel schema plus the delete marker, and {@code extraColumn} when not null: a GeoParquet delta file's shape. */
    static MessageType deltaSchema(String extraColumn) {
        Types.MessageTypeBuilder builder = Types.buildMessage();
        SyntheticParcels.schema().getFields().forEach(builder::addField);
        builder.optional(PrimitiveTypeName.BOOLEAN).named(DELETE_MARKER);
        if (extraColumn != null) {
            builder.optional(PrimitiveTypeName.DOUBLE).named(extraColumn);
        }
        return builder.named("parcels_delta");
    }

    /** Writes the rows as a GeoParquet file with the archive's footer, as GeoPandas or DuckDB would export them. */
    static Path writeGeoParquet(Path file, List<Row> rows, String extraColumn) throws Exception {
        MessageType schema = deltaSchema(extraColumn);
        List<Group> groups = new ArrayList<>();
        for (Row row : rows) {
            Group values = row.values();
            Group copy = new SimpleGroup(schema);
            copy.add(SyntheticParcels.KEY, key(values));
            copy.add("land_use", values.getString("land_use", 0));
            copy.add("area_m2", values.getDouble("area_m2", 0));
            copy.add(SyntheticParcels.VERSION, values.getLong(SyntheticParcels.VERSION, 0));
            copy.add(SyntheticParcels.GEOMETRY, geometry(values));
            copy.add(DELETE_MARKER, row.deleted());
            if (extraColumn != null) {
                copy.add(extraColumn, 1.0);
            }
            groups.add(copy);
        }
        ArchiveFixtures.writeFile(file, schema, SyntheticParcels.footer(), groups);
        return file;
    }

    /** The rows as a JSON array with WKT geometries in a field named {@code wkt} and ISO timestamps. */
    static byte[] json(List<Group> rows) throws Exception {
        ObjectMapper mapper = new ObjectMapper();
        ArrayNode array = mapper.createArrayNode();
        WKBReader wkb = new WKBReader();
        for (Group row : rows) {
            array.add(mapper.createObjectNode()
                    .put(SyntheticParcels.KEY, key(row))
                    .put("land_use", row.getString("land_use", 0))
                    .put("area_m2", row.getDouble("area_m2", 0))
                    .put(
                            SyntheticParcels.VERSION,
                            Instant.EPOCH
                                    .plus(row.getLong(SyntheticParcels.VERSION, 0), ChronoUnit.MICROS)
                                    .toString())
                    .put("wkt", wkb.read(geometry(row).getBytes()).toText()));
        }
        return mapper.writeValueAsBytes(array);
    }
}
