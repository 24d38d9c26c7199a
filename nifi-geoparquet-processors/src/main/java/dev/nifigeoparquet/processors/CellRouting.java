package dev.nifigeoparquet.processors;

import dev.nifigeoparquet.archive.cells.CrsReprojector;
import dev.nifigeoparquet.archive.cells.H3Keyer;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.processors.geometry.GeometryExtractor;
import dev.nifigeoparquet.processors.geometry.UnkeyableRecordException;
import java.util.function.Supplier;
import org.apache.nifi.serialization.record.Record;
import org.locationtech.jts.geom.Geometry;

/**
 * How one processor schedule keys records: where the geometry is read, which CRS it is in, which CRS it leaves in,
 * and the archive's keyer. Thread-safe; each task makes its own {@link Task} for the non-thread-safe readers.
 *
 * @param keyer  the keyer at the archive's pinned resolution (or the configured one without an archive service)
 * @param source the CRS incoming geometries are in
 * @param target the CRS outgoing geometries are in: the archive's
 */
record CellRouting(
        H3Keyer keyer,
        SourceCrs source,
        SourceCrs target,
        CrsReprojector reprojector,
        Supplier<GeometryExtractor> extractors) {

    /** A record's cell, and its geometry in the target CRS: as keyed, and as ISO WKB. */
    @SuppressWarnings("ArrayRecordComponent") // carries bytes along, never compared or hashed
    record Keyed(String cell, Geometry geometry, byte[] wkb) {}

    Task newTask() {
        return new Task(extractors.get());
    }

    final class Task {
        private final GeometryExtractor extractor;

        private Task(GeometryExtractor extractor) {
            this.extractor = extractor;
        }

        /**
         * Keys one record: its geometry is read, converted to the archive's CRS, and keyed there, exactly as the
         * engine keys the row when the delta is applied.
         */
        Keyed key(Record record) throws UnkeyableRecordException {
            Geometry converted = converted(record);
            return new Keyed(cellOf(converted), converted, Wkb.write(converted));
        }

        /** Only the record's cell, for the pass that finds the distinct cells. */
        String cellOf(Record record) throws UnkeyableRecordException {
            return cellOf(converted(record));
        }

        private Geometry converted(Record record) throws UnkeyableRecordException {
            Geometry geometry = extractor.extract(record);
            try {
                return reprojector.reproject(geometry, source, target);
            } catch (KeyingException e) {
                throw new UnkeyableRecordException(e.reason().name(), e.getMessage(), e);
            }
        }

        private String cellOf(Geometry converted) throws UnkeyableRecordException {
            try {
                return keyer.cellOf(converted, target);
            } catch (KeyingException e) {
                throw new UnkeyableRecordException(e.reason().name(), e.getMessage(), e);
            }
        }
    }
}
