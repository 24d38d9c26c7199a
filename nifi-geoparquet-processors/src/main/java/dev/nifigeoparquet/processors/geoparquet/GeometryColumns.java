package dev.nifigeoparquet.processors.geoparquet;

import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.GeometryCodec;
import dev.nifigeoparquet.archive.geo.GeometryEncoding;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.processors.record.BinaryValues;
import dev.nifigeoparquet.processors.record.GroupToRecordConverter;
import dev.nifigeoparquet.processors.record.RecordConversionException;
import dev.nifigeoparquet.processors.record.RecordToGroupConverter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.nifi.serialization.record.DataType;
import org.apache.nifi.serialization.record.RecordFieldType;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.Type;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.io.ParseException;
import org.locationtech.jts.io.WKBReader;
import org.locationtech.jts.io.WKTReader;
import org.locationtech.jts.io.WKTWriter;

/**
 * The geometry columns of a Parquet schema and how their values cross into and out of NiFi records: as WKB
 * bytes or WKT text on the NiFi side, in whatever encoding the column has on the Parquet side (WKB, a GeoArrow
 * native layout, or the Parquet GEOMETRY/GEOGRAPHY logical type). Geometry encoding itself stays in the engine's
 * {@link GeometryCodec}; this class only adapts it to the record converters.
 */
public final class GeometryColumns {

    /** EWKB flag bits (Z, M, SRID): GeoParquet requires ISO WKB, so such input is re-encoded. */
    private static final int EWKB_FLAGS = 0xE0000000;

    private GeometryColumns() {}

    /**
     * Top-level geometry columns in schema order: those the {@code geo} metadata lists and those annotated with the
     * Parquet GEOMETRY or GEOGRAPHY logical type.
     */
    static List<String> of(MessageType schema, GeoMetadata geo) {
        List<String> columns = new ArrayList<>();
        for (Type field : schema.getFields()) {
            if ((geo != null && geo.columns().containsKey(field.getName()))
                    || GeometryCodec.isParquetGeospatial(field)) {
                columns.add(field.getName());
            }
        }
        return columns;
    }

    /** The NiFi type of a geometry value in the given format. */
    static DataType dataType(RecordGeometryEncoding format) {
        return format == RecordGeometryEncoding.WKT
                ? RecordFieldType.STRING.getDataType()
                : RecordFieldType.ARRAY.getArrayDataType(RecordFieldType.BYTE.getDataType(), false);
    }

    /** How each geometry column reads into a record. Not thread-safe: one map per open file. */
    static Map<String, GroupToRecordConverter.ColumnOverride> readers(
            final MessageType schema, GeoMetadata geo, RecordGeometryEncoding format) {
        Map<String, GroupToRecordConverter.ColumnOverride> readers = new LinkedHashMap<>();
        for (String column : of(schema, geo)) {
            GeometryCodec codec = GeometryCodec.forFile(schema, column, geo);
            boolean verbatim = format == RecordGeometryEncoding.WKB && codec.encoding() == GeometryEncoding.WKB;
            WKTWriter wktWriter = new WKTWriter(4);
            readers.put(column, new GroupToRecordConverter.ColumnOverride() {
                private long row;

                @Override
                public DataType dataType() {
                    return GeometryColumns.dataType(format);
                }

                @Override
                public Object read(Group group, int fieldIndex) {
                    row++;
                    if (verbatim) {
                        return BinaryValues.boxed(group.getBinary(fieldIndex, 0).getBytes());
                    }
                    Geometry geometry = codec.decode(group, row - 1);
                    return format == RecordGeometryEncoding.WKT
                            ? wktWriter.write(geometry)
                            : BinaryValues.boxed(Wkb.write(geometry));
                }
            });
        }
        return readers;
    }

    /**
     * How each geometry column is written from a record value: WKB bytes ({@code byte[]}, an array of
     * {@code Byte}, a {@code ByteBuffer}), WKB as hexadecimal text (how JSON and CSV writers render bytes), or WKT
     * text. Text made only of hexadecimal digit pairs is never valid WKT, so the two text forms cannot be confused.
     * ISO WKB going into a WKB column is kept byte for byte (after checking it parses); anything else is decoded and
     * encoded for the column. Not thread-safe: one map per writer.
     */
    public static Map<String, RecordToGroupConverter.ColumnOverride> writers(
            final MessageType schema, GeoMetadata geo) {
        Map<String, RecordToGroupConverter.ColumnOverride> writers = new LinkedHashMap<>();
        for (String column : of(schema, geo)) {
            GeometryCodec codec = GeometryCodec.forFile(schema, column, geo);
            boolean keepIsoWkb = codec.encoding() == GeometryEncoding.WKB
                    && (geo == null
                            || !geo.columns().containsKey(column)
                            || !geo.column(column).counterclockwise());
            WKBReader wkbReader = new WKBReader();
            WKTReader wktReader = new WKTReader();
            writers.put(column, (row, fieldIndex, value, path) -> {
                final Geometry geometry;
                if (value instanceof CharSequence text && isHexWkb(text)) {
                    byte[] wkb = HexFormat.of().parseHex(text);
                    try {
                        geometry = wkbReader.read(wkb);
                    } catch (ParseException | RuntimeException e) {
                        throw RecordConversionException.forValue(
                                path,
                                value,
                                RecordConversionException.Reason.UNPARSEABLE,
                                "is not valid hexadecimal WKB: " + e.getMessage());
                    }
                    if (keepIsoWkb && isIsoWkb(wkb)) {
                        row.add(fieldIndex, Binary.fromConstantByteArray(wkb));
                        return;
                    }
                } else if (value instanceof CharSequence text) {
                    try {
                        geometry = wktReader.read(text.toString());
                    } catch (ParseException | RuntimeException e) {
                        throw RecordConversionException.forValue(
                                path,
                                value,
                                RecordConversionException.Reason.UNPARSEABLE,
                                "is not valid WKT: " + e.getMessage());
                    }
                } else {
                    byte[] wkb = bytesOf(value, path);
                    try {
                        geometry = wkbReader.read(wkb);
                    } catch (ParseException | RuntimeException e) {
                        throw RecordConversionException.forValue(
                                path,
                                value,
                                RecordConversionException.Reason.UNPARSEABLE,
                                "is not valid WKB: " + e.getMessage());
                    }
                    if (keepIsoWkb && isIsoWkb(wkb)) {
                        row.add(fieldIndex, Binary.fromConstantByteArray(wkb == value ? wkb.clone() : wkb));
                        return;
                    }
                }
                try {
                    codec.encode(geometry, row);
                } catch (RuntimeException e) {
                    throw RecordConversionException.forValue(
                            path,
                            value,
                            RecordConversionException.Reason.WRONG_TYPE,
                            "cannot be stored in this column: " + e.getMessage());
                }
            });
        }
        return writers;
    }

    /** Hexadecimal digit pairs starting with a WKB byte-order marker (00 or 01); no WKT text looks like this. */
    private static boolean isHexWkb(CharSequence text) {
        if (text.length() < 10
                || text.length() % 2 != 0
                || text.charAt(0) != '0'
                || (text.charAt(1) != '0' && text.charAt(1) != '1')) {
            return false;
        }
        for (int i = 0; i < text.length(); i++) {
            if (Character.digit(text.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean isIsoWkb(byte[] wkb) {
        if (wkb.length < 5) {
            return false;
        }
        ByteOrder order = wkb[0] == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        return (ByteBuffer.wrap(wkb, 1, 4).order(order).getInt() & EWKB_FLAGS) == 0;
    }

    private static byte[] bytesOf(Object value, String path) {
        byte[] bytes = BinaryValues.bytesOrNull(value);
        if (bytes == null) {
            throw RecordConversionException.forValue(
                    path,
                    value,
                    RecordConversionException.Reason.WRONG_TYPE,
                    "is not a geometry (expected WKB bytes or a WKT string)");
        }
        return bytes;
    }
}
