package dev.nifigeoparquet.archive.delta;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.parquet.schema.MessageType;

/** Archives of parcels as a parquet-java template makes them: keyed by {@code parcel_id}, H3 resolution 5. */
final class ParcelArchives {

    private ParcelArchives() {}

    /** Creates the archive at {@code root} from the template's schema and raw {@code geo} block. */
    static GeoParquetArchive create(Path root, MessageType schema, String geo) throws IOException {
        ArchiveSpec spec = ArchiveSpec.of(
                schema,
                FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, geo)),
                List.of("parcel_id"),
                null,
                5,
                WriterSettings.defaults(),
                "parcels");
        return ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
    }
}
