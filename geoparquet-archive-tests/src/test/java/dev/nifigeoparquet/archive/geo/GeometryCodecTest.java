package dev.nifigeoparquet.archive.geo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.nifigeoparquet.archive.error.GeometryCodecException;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.testing.ParquetRows;
import dev.nifigeoparquet.archive.testing.PeerData;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.locationtech.jts.algorithm.Orientation;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.Polygon;
import org.locationtech.jts.io.WKTReader;

class GeometryCodecTest {

    private static final MessageType WKB_SCHEMA = Types.buildMessage()
            .optional(PrimitiveTypeName.BINARY)
            .named("geometry")
            .named("s");

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"point", "linestring", "polygon", "multipoint", "multilinestring", "multipolygon"})
    void encodingANativeRowReproducesTheProducersLayoutExactly(String type) throws Exception {
        ParquetRows.Contents contents =
                ParquetRows.read(PeerData.copy("geoparquet-1.1.0/data-" + type + "-encoding_native.parquet", dir));
        MessageType schema = contents.footer().schema();
        GeoColumn column = GeoMetadata.parse(contents.footer().keyValues().get(FooterEntries.GEO))
                .column("geometry");
        GeometryCodec codec = GeometryCodec.forColumn(schema, "geometry", column);

        for (int row = 0; row < contents.rows().size(); row++) {
            Group original = contents.rows().get(row);
            Group encoded = new SimpleGroup(schema);
            codec.encode(codec.decode(original, row), encoded);
            assertEquals(geometryField(original), geometryField(encoded), type + " row " + row);
        }
    }

    @Test
    void wkbIsLittleEndianIsoWithZ() throws Exception {
        Group row = new SimpleGroup(WKB_SCHEMA);
        GeometryCodec codec = GeometryCodec.forColumn(WKB_SCHEMA, "geometry", GeometryEncoding.WKB);
        Geometry pointZ = new WKTReader().read("POINT Z (1 2 3)");
        codec.encode(pointZ, row);
        ByteBuffer wkb =
                ByteBuffer.wrap(row.getBinary("geometry", 0).getBytes()).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1, wkb.get(0), "little endian");
        assertEquals(1001, wkb.getInt(1), "ISO type code of POINT Z");
        assertEquals(1 + 4 + 3 * 8, wkb.capacity());
        assertTrue(pointZ.equalsExact(codec.decode(row, 0)));
        assertEquals(3, codec.decode(row, 0).getCoordinate().getZ());
    }

    @Test
    void everyPeerWktRoundTripsThroughOurWkbWithItsTypeCode() throws Exception {
        // geospatial.yaml's WKT covers every type in XY, Z, M and ZM; its file stores the producer's ISO WKB.
        ParquetRows.Contents contents =
                ParquetRows.read(PeerData.copy("parquet-format-geospatial/geospatial.parquet", dir));
        GeometryCodec codec = GeometryCodec.forColumn(contents.footer().schema(), "geometry", GeometryEncoding.WKB);
        int compared = 0;
        for (int row = 0; row < contents.rows().size(); row++) {
            Group original = contents.rows().get(row);
            Geometry geometry = codec.decode(original, row);
            if (geometry == null || geometry.isEmpty()) {
                continue; // EMPTY encodings differ legitimately (e.g. POINT EMPTY as NaNs)
            }
            byte[] theirs = original.getBinary("geometry", 0).getBytes();
            byte[] ours = Wkb.write(geometry);
            assertEquals(
                    ByteBuffer.wrap(theirs).order(ByteOrder.LITTLE_ENDIAN).getInt(1),
                    ByteBuffer.wrap(ours).order(ByteOrder.LITTLE_ENDIAN).getInt(1),
                    "type code, row " + row + ": " + geometry);
            assertTrue(Arrays.equals(theirs, ours), "row " + row + ": " + geometry);
            compared++;
        }
        assertTrue(compared > 100, "compared " + compared);
    }

    @Test
    void counterclockwiseOrientationIsAppliedWhenEncoding() throws Exception {
        // Exterior ring clockwise, hole counterclockwise: the opposite of what "counterclockwise" requires.
        Geometry clockwise = new WKTReader().read("POLYGON ((0 0, 0 10, 10 10, 10 0, 0 0), (2 2, 4 2, 4 4, 2 4, 2 2))");
        GeoColumn ccw = GeoMetadata.builder()
                .wkbColumn("geometry", List.of("Polygon"), null, null)
                .columnField("geometry", "orientation", "counterclockwise")
                .build()
                .primary();
        GeometryCodec codec = GeometryCodec.forColumn(WKB_SCHEMA, "geometry", ccw);
        Group row = new SimpleGroup(WKB_SCHEMA);
        codec.encode(clockwise, row);

        Polygon written = (Polygon) codec.decode(row, 0);
        assertTrue(Orientation.isCCW(written.getExteriorRing().getCoordinateSequence()), "exterior CCW");
        assertFalse(Orientation.isCCW(written.getInteriorRingN(0).getCoordinateSequence()), "hole CW");
        assertTrue(written.equalsTopo(clockwise), "same shape");
    }

    @Test
    void truncatedWkbNamesRowColumnAndReason() {
        Group row = new SimpleGroup(WKB_SCHEMA);
        byte[] wkb = Wkb.write(new GeometryFactory().createPoint(new Coordinate(1, 2)));
        row.add("geometry", Binary.fromConstantByteArray(Arrays.copyOf(wkb, 9)));
        GeometryCodec codec = GeometryCodec.forColumn(WKB_SCHEMA, "geometry", GeometryEncoding.WKB);
        var e = assertThrows(GeometryCodecException.class, () -> codec.decode(row, 17));
        assertTrue(e.getMessage().contains("Row 17"), e.getMessage());
        assertTrue(e.getMessage().contains("'geometry'"), e.getMessage());
        assertTrue(e.getMessage().toLowerCase(Locale.ROOT).contains("end of"), e.getMessage());
    }

    @Test
    void nullStaysNull() {
        Group row = new SimpleGroup(WKB_SCHEMA);
        GeometryCodec codec = GeometryCodec.forColumn(WKB_SCHEMA, "geometry", GeometryEncoding.WKB);
        codec.encode(null, row);
        assertEquals(0, row.getFieldRepetitionCount("geometry"));
        assertEquals(null, codec.decode(row, 0));
    }

    @Test
    void encodingMustMatchTheColumnType() {
        var e = assertThrows(
                IllegalArgumentException.class,
                () -> GeometryCodec.forColumn(WKB_SCHEMA, "geometry", GeometryEncoding.POLYGON));
        assertTrue(e.getMessage().contains("geometry"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> GeometryCodec.forColumn(WKB_SCHEMA, "geom", GeometryEncoding.WKB));
    }

    private static String geometryField(Group row) {
        return row.getFieldRepetitionCount("geometry") == 0
                ? "null"
                : row.getGroup("geometry", 0).toString();
    }
}
