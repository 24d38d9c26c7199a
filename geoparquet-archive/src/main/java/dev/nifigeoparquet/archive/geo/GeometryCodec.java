package dev.nifigeoparquet.archive.geo;

import dev.nifigeoparquet.archive.error.GeometryCodecException;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.CoordinateXYM;
import org.locationtech.jts.geom.CoordinateXYZM;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LineString;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.MultiLineString;
import org.locationtech.jts.geom.MultiPolygon;
import org.locationtech.jts.geom.Point;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;

/**
 * Converts one geometry column of a {@link Group} row to and from a JTS {@link Geometry}: WKB (a plain binary
 * column or the Parquet GEOMETRY logical type) and the GeoArrow native layouts (an x/y[/z][/m] struct for a
 * point, wrapped in one to three Parquet LIST levels for the other types). A null value is a null geometry.
 *
 * <p>Not thread-safe (the WKB reader keeps state); create one per reader or writer.
 */
public final class GeometryCodec {

    private final String column;
    private final int fieldIndex;
    private final GeometryEncoding encoding;
    private final boolean counterclockwise;
    private final GeometryFactory factory = new GeometryFactory();
    private final WKBReader wkbReader = new WKBReader(factory);

    private GeometryCodec(GroupType schema, String column, GeometryEncoding encoding, boolean counterclockwise) {
        if (!schema.containsField(column)) {
            throw new IllegalArgumentException("Schema has no geometry column '" + column + "'");
        }
        this.column = column;
        this.fieldIndex = schema.getFieldIndex(column);
        this.encoding = encoding;
        this.counterclockwise = counterclockwise;
        Type type = schema.getType(fieldIndex);
        if (encoding == GeometryEncoding.WKB
                && !(type.isPrimitive() && type.asPrimitiveType().getPrimitiveTypeName() == PrimitiveTypeName.BINARY)) {
            throw new IllegalArgumentException("WKB column '" + column + "' must be binary, is " + type);
        }
        if (encoding.isNative() && type.isPrimitive()) {
            throw new IllegalArgumentException(
                    "Native " + encoding.jsonName() + " column '" + column + "' must be a group, is " + type);
        }
    }

    /**
     * For a column of a file: the encoding the {@code geo} metadata declares, or WKB for a column annotated with
     * the Parquet GEOMETRY/GEOGRAPHY logical type that {@code geo} does not describe.
     *
     * @param geo the file's parsed {@code geo} entry, or {@code null} when it has none
     */
    public static GeometryCodec forFile(GroupType schema, String column, GeoMetadata geo) {
        if (geo != null && geo.columns().containsKey(column)) {
            return forColumn(schema, column, geo.column(column));
        }
        if (schema.containsField(column) && isParquetGeospatial(schema.getType(column))) {
            return forColumn(schema, column, GeometryEncoding.WKB);
        }
        throw new IllegalArgumentException(
                "'" + column + "' is neither described by geo metadata nor a Parquet GEOMETRY/GEOGRAPHY column");
    }

    /** For a column the {@code geo} metadata describes. */
    public static GeometryCodec forColumn(GroupType schema, String column, GeoColumn geo) {
        return new GeometryCodec(schema, column, geo.encoding(), geo.counterclockwise());
    }

    public static GeometryCodec forColumn(GroupType schema, String column, GeometryEncoding encoding) {
        return new GeometryCodec(schema, column, encoding, false);
    }

    /** For a column annotated with the Parquet GEOMETRY (or GEOGRAPHY) logical type: WKB bytes. */
    public static boolean isParquetGeospatial(Type type) {
        LogicalTypeAnnotation annotation = type.getLogicalTypeAnnotation();
        return annotation instanceof LogicalTypeAnnotation.GeometryLogicalTypeAnnotation
                || annotation instanceof LogicalTypeAnnotation.GeographyLogicalTypeAnnotation;
    }

    public String column() {
        return column;
    }

    public GeometryEncoding encoding() {
        return encoding;
    }

    /**
     * The row's geometry, or {@code null} when the column is null.
     *
     * @param rowIndex only used to name the row in an error
     */
    public Geometry decode(Group row, long rowIndex) {
        if (row.getFieldRepetitionCount(fieldIndex) == 0) {
            return null;
        }
        try {
            if (encoding == GeometryEncoding.WKB) {
                return wkbReader.read(row.getBinary(fieldIndex, 0).getBytes());
            }
            return decodeNative(row.getGroup(fieldIndex, 0));
        } catch (ParseException | RuntimeException e) {
            throw new GeometryCodecException(
                    "Row " + rowIndex + ", column '" + column + "': cannot decode " + encoding.jsonName()
                            + " geometry: " + e.getMessage(),
                    e);
        }
    }

    /** Appends the geometry to the row's column; a null geometry leaves the column null. */
    public void encode(Geometry geometry, Group row) {
        if (geometry == null) {
            return;
        }
        Geometry oriented = counterclockwise ? RingOrientation.counterclockwise(geometry) : geometry;
        if (encoding == GeometryEncoding.WKB) {
            row.add(fieldIndex, Binary.fromConstantByteArray(Wkb.write(oriented)));
        } else {
            encodeNative(oriented, row.addGroup(fieldIndex));
        }
    }

    // ---- GeoArrow native: decoding

    private Geometry decodeNative(Group value) {
        return switch (encoding) {
            case POINT -> point(value);
            case LINESTRING -> factory.createLineString(coordinates(value));
            case POLYGON -> polygon(value);
            case MULTIPOINT -> factory.createMultiPointFromCoords(coordinates(value));
            case MULTILINESTRING ->
                factory.createMultiLineString(NativeLists.elements(value).stream()
                        .map(line -> factory.createLineString(coordinates(line)))
                        .toArray(LineString[]::new));
            case MULTIPOLYGON ->
                factory.createMultiPolygon(
                        NativeLists.elements(value).stream().map(this::polygon).toArray(Polygon[]::new));
            case WKB -> throw new IllegalStateException("not native");
        };
    }

    private Point point(Group struct) {
        Coordinate coordinate = coordinate(struct);
        // GeoArrow writes POINT EMPTY as all-NaN coordinates.
        return Double.isNaN(coordinate.x) && Double.isNaN(coordinate.y)
                ? factory.createPoint()
                : factory.createPoint(coordinate);
    }

    private Polygon polygon(Group rings) {
        List<Group> ringList = NativeLists.elements(rings);
        if (ringList.isEmpty()) {
            return factory.createPolygon();
        }
        LinearRing shell = factory.createLinearRing(coordinates(ringList.get(0)));
        LinearRing[] holes = ringList.subList(1, ringList.size()).stream()
                .map(ring -> factory.createLinearRing(coordinates(ring)))
                .toArray(LinearRing[]::new);
        return factory.createPolygon(shell, holes);
    }

    private Coordinate[] coordinates(Group list) {
        return NativeLists.elements(list).stream()
                .map(GeometryCodec::coordinate)
                .toArray(Coordinate[]::new);
    }

    private static Coordinate coordinate(Group struct) {
        GroupType type = struct.getType();
        double x = struct.getDouble("x", 0);
        double y = struct.getDouble("y", 0);
        boolean hasZ = type.containsField("z");
        boolean hasM = type.containsField("m");
        if (hasZ && hasM) {
            return new CoordinateXYZM(x, y, struct.getDouble("z", 0), struct.getDouble("m", 0));
        }
        if (hasM) {
            return new CoordinateXYM(x, y, struct.getDouble("m", 0));
        }
        return hasZ ? new Coordinate(x, y, struct.getDouble("z", 0)) : new Coordinate(x, y);
    }

    // ---- GeoArrow native: encoding

    private void encodeNative(Geometry geometry, Group value) {
        switch (encoding) {
            case POINT -> writeCoordinate(geometry.isEmpty() ? emptyPoint() : geometry.getCoordinate(), value);
            case LINESTRING, MULTIPOINT -> writeCoordinates(geometry.getCoordinates(), value);
            case POLYGON -> writePolygon(require(geometry, Polygon.class), value);
            case MULTILINESTRING -> {
                MultiLineString lines = require(geometry, MultiLineString.class);
                for (int i = 0; i < lines.getNumGeometries(); i++) {
                    writeCoordinates(lines.getGeometryN(i).getCoordinates(), NativeLists.addElement(value));
                }
            }
            case MULTIPOLYGON -> {
                MultiPolygon polygons = require(geometry, MultiPolygon.class);
                for (int i = 0; i < polygons.getNumGeometries(); i++) {
                    writePolygon((Polygon) polygons.getGeometryN(i), NativeLists.addElement(value));
                }
            }
            case WKB -> throw new IllegalStateException("not native");
        }
    }

    private <T extends Geometry> T require(Geometry geometry, Class<T> type) {
        if (!type.isInstance(geometry)) {
            throw new IllegalArgumentException("Column '" + column + "' stores " + encoding.jsonName()
                    + " geometries, got " + geometry.getGeometryType());
        }
        return type.cast(geometry);
    }

    private static Coordinate emptyPoint() {
        return new Coordinate(Double.NaN, Double.NaN, Double.NaN);
    }

    private void writePolygon(Polygon polygon, Group rings) {
        if (polygon.isEmpty()) {
            return;
        }
        writeCoordinates(polygon.getExteriorRing().getCoordinates(), NativeLists.addElement(rings));
        for (int i = 0; i < polygon.getNumInteriorRing(); i++) {
            writeCoordinates(polygon.getInteriorRingN(i).getCoordinates(), NativeLists.addElement(rings));
        }
    }

    private static void writeCoordinates(Coordinate[] coordinates, Group list) {
        for (Coordinate coordinate : coordinates) {
            writeCoordinate(coordinate, NativeLists.addElement(list));
        }
    }

    private static void writeCoordinate(Coordinate coordinate, Group struct) {
        GroupType type = struct.getType();
        struct.add("x", coordinate.getX());
        struct.add("y", coordinate.getY());
        if (type.containsField("z")) {
            struct.add("z", coordinate.getZ());
        }
        if (type.containsField("m")) {
            struct.add("m", coordinate.getM());
        }
    }
}
