package dev.nifigeoparquet.processors.testing;

import dev.nifigeoparquet.archive.ArchiveCreator;
import dev.nifigeoparquet.archive.ArchiveSpec;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.WriterSettings;
import dev.nifigeoparquet.archive.storage.LocalArchiveStorage;
import dev.nifigeoparquet.archive.testing.ArchiveFixtures;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

/** Archives for processor tests, made by the engine from a small template file. */
public final class TestArchives {

    /** Features keyed by {@code id}; geometry as WKB in OGC:CRS84 (the geo block declares no crs). */
    public static final MessageType SCHEMA = MessageTypeParser.parseMessageType("""
            message feature {
              required binary id (STRING);
              optional binary name (STRING);
              optional binary geometry;
            }""");

    public static final String GEO = "{\"version\":\"1.1.0\",\"primary_column\":\"geometry\",\"columns\":{\"geometry\":"
            + "{\"encoding\":\"WKB\",\"geometry_types\":[]}}}";

    private TestArchives() {}

    /** Writes an empty GeoParquet template file carrying {@link #SCHEMA} and {@link #GEO}. */
    public static Path template(Path dir) throws IOException {
        Path file = dir.resolve("template.parquet");
        ArchiveFixtures.writeFile(file, SCHEMA, FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, GEO)), List.of());
        return file;
    }

    /** Creates an empty archive at {@code root}, pinned at {@code resolution}. */
    public static GeoParquetArchive create(Path root, int resolution) throws IOException {
        Path template = template(root.getParent());
        ArchiveSpec spec = ArchiveSpec.fromTemplate(
                new LocalInputFile(template),
                template.toString(),
                List.of("id"),
                null,
                resolution,
                WriterSettings.defaults());
        return ArchiveCreator.create(new LocalArchiveStorage(root), spec, Clock.systemUTC());
    }
}
