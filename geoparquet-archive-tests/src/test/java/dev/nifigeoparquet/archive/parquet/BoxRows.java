package dev.nifigeoparquet.archive.parquet;

import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.geo.GeometryEncoding;
import dev.nifigeoparquet.archive.testing.CoveringBoxColumn;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;

/** Rows of random boxes with a covering bbox column, and a footer with a canonical geo block and other entries. */
final class BoxRows {

    /** A covering bbox column: an optional struct of four required doubles. */
    static final GroupType BBOX = CoveringBoxColumn.optional("bbox");

    static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.INT64)
            .named("id")
            .optional(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType())
            .named("label")
            .optional(PrimitiveTypeName.BINARY)
            .named("geometry")
            .addField(BBOX)
            .named("archive");

    private static final GeometryFactory GEOMETRIES = new GeometryFactory();

    private BoxRows() {}

    static FooterEntries footer() {
        Map<String, String> entries = new LinkedHashMap<>();
        entries.put(
                "geo",
                GeoMetadata.builder()
                        .wkbColumn("geometry", List.of("Polygon"), null, "bbox")
                        .build()
                        .rawString());
        entries.put("zz-first-by-insertion", "1");
        entries.put("aa-second", "{\"unicode\": \"Zürich – 東京\"}");
        return FooterEntries.canonicalOf(entries);
    }

    /** A random box with a deliberately wrong bbox, which the writer must replace; every 10th geometry is null. */
    static Group row(long id, Random random, String label) {
        Group row = new SimpleGroup(SCHEMA);
        row.add("id", id);
        row.add("label", label);
        if (id % 10 != 9) {
            double x = random.nextDouble() * 360 - 180;
            double y = random.nextDouble() * 170 - 85;
            Geometry box = GEOMETRIES.createPolygon(new Coordinate[] {
                new Coordinate(x, y),
                new Coordinate(x + 1, y),
                new Coordinate(x + 1, y + 2),
                new Coordinate(x, y + 2),
                new Coordinate(x, y)
            });
            GeometryCodec.forColumn(SCHEMA, "geometry", GeometryEncoding.WKB).encode(box, row);
        }
        Group stale = row.addGroup("bbox");
        for (String key : List.of("xmin", "ymin", "xmax", "ymax")) {
            stale.add(key, 0.0);
        }
        return row;
    }
}
