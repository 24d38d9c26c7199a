package dev.nifigeoparquet.processors.geoparquet;

import java.io.IOException;
import org.apache.nifi.serialization.WriteResult;
import org.apache.nifi.serialization.record.Record;
import org.locationtech.jts.geom.Geometry;

/**
 * A Record Writer that can be handed a record's geometry already decoded, as RouteByH3Cell holds it from keying the
 * record: computing the file's covering bbox then does not decode the record's WKB a second time.
 */
public interface PrimaryGeometryRecordWriter {

    /**
     * Writes {@code record} as {@code RecordSetWriter.write(Record)} does. {@code geometry} must be the geometry that
     * the record's {@code geometryField} holds; it is used only when that field is the file's primary geometry column.
     */
    WriteResult write(Record record, String geometryField, Geometry geometry) throws IOException;
}
