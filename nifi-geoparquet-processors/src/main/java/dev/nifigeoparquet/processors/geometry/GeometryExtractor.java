package dev.nifigeoparquet.processors.geometry;

import static dev.nifigeoparquet.processors.geometry.UnkeyableRecordException.INVALID_GEOMETRY;
import static dev.nifigeoparquet.processors.geometry.UnkeyableRecordException.MISSING_GEOMETRY;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.Optional;
import org.apache.nifi.serialization.record.Record;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKTReader;

/**
 * Reads a record's geometry in the configured {@link GeometryFormat}. Holds JTS readers, which are not thread-safe:
 * use one instance per task.
 */
public final class GeometryExtractor {

    private final GeometryFormat format;
    private final FieldPath geometryField;
    private final FieldPath longitudeField;
    private final FieldPath latitudeField;
    private final GeometryFactory factory = new GeometryFactory();
    private final WKBReader wkbReader = new WKBReader(factory);
    private final WKTReader wktReader = new WKTReader(factory);
    private final GeoJsonGeometries geoJson = new GeoJsonGeometries(factory);

    /**
     * @param geometryField  the field holding the geometry (unused for {@link GeometryFormat#LON_LAT})
     * @param longitudeField the x field (only for {@link GeometryFormat#LON_LAT})
     * @param latitudeField  the y field (only for {@link GeometryFormat#LON_LAT})
     */
    public GeometryExtractor(
            GeometryFormat format, FieldPath geometryField, FieldPath longitudeField, FieldPath latitudeField) {
        this.format = format;
        this.geometryField = geometryField;
        this.longitudeField = longitudeField;
        this.latitudeField = latitudeField;
    }

    /** The record's geometry; fails with the reason when the record has none or it cannot be read. */
    public Geometry extract(Record record) throws UnkeyableRecordException {
        if (format == GeometryFormat.LON_LAT) {
            double x = ordinate(record, longitudeField);
            double y = ordinate(record, latitudeField);
            return factory.createPoint(new Coordinate(x, y));
        }
        Object value = required(record, geometryField);
        try {
            return switch (format) {
                case WKB -> wkbReader.read(wkbBytes(value));
                case WKT -> {
                    if (!(value instanceof String text)) {
                        throw new IllegalArgumentException("WKT must be a string, found "
                                + value.getClass().getSimpleName());
                    }
                    yield wktReader.read(text);
                }
                case GEOJSON -> geoJson.read(value);
                case LON_LAT -> throw new IllegalStateException("handled above");
            };
        } catch (ParseException | IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            throw new UnkeyableRecordException(
                    INVALID_GEOMETRY,
                    "field '" + geometryField + "' is not valid " + format.getDisplayName() + ": " + e.getMessage(),
                    e);
        }
    }

    private static Object required(Record record, FieldPath field) throws UnkeyableRecordException {
        Optional<Object> value = field.valueOf(record);
        if (value.isEmpty() || (value.get() instanceof String text && text.isBlank())) {
            throw new UnkeyableRecordException(MISSING_GEOMETRY, "field '" + field + "' is missing, null or blank");
        }
        return value.get();
    }

    private static double ordinate(Record record, FieldPath field) throws UnkeyableRecordException {
        Object value = required(record, field);
        if (value instanceof Number number) {
            return number.doubleValue();
        }
        try {
            return Double.parseDouble(value.toString().strip());
        } catch (NumberFormatException e) {
            throw new UnkeyableRecordException(
                    INVALID_GEOMETRY, "field '" + field + "' holds '" + value + "', which is not a number");
        }
    }

    private static byte[] wkbBytes(Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        if (value instanceof ByteBuffer buffer) {
            ByteBuffer copy = buffer.duplicate();
            byte[] bytes = new byte[copy.remaining()];
            copy.get(bytes);
            return bytes;
        }
        if (value instanceof Object[] array) {
            byte[] bytes = new byte[array.length];
            for (int i = 0; i < array.length; i++) {
                if (!(array[i] instanceof Number number)) {
                    throw new IllegalArgumentException("element " + i + " of the byte array is " + array[i]);
                }
                bytes[i] = number.byteValue();
            }
            return bytes;
        }
        if (value instanceof String hex) {
            try {
                return HexFormat.of().parseHex(hex.strip());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("a WKB string must be hexadecimal: " + e.getMessage());
            }
        }
        throw new IllegalArgumentException("WKB must be bytes or a hexadecimal string, found "
                + value.getClass().getSimpleName());
    }
}
