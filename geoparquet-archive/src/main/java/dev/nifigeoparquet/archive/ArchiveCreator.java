package dev.nifigeoparquet.archive;

import dev.nifigeoparquet.archive.format.ArchiveDescriptor;
import dev.nifigeoparquet.archive.storage.ArchiveStorage;
import java.io.IOException;
import java.time.Clock;

/** Creates a new, empty archive from validated settings: one exclusive write of the descriptor. */
public final class ArchiveCreator {

    private ArchiveCreator() {}

    public static GeoParquetArchive create(ArchiveStorage storage, ArchiveSpec spec, Clock clock) throws IOException {
        ArchiveDescriptor descriptor = new ArchiveDescriptor(
                ArchiveDescriptor.FORMAT_VERSION,
                clock.instant(),
                spec.h3Resolution(),
                spec.keyingRule(),
                spec.geometryColumn(),
                spec.keyColumns(),
                spec.versionColumn(),
                ArchiveDescriptor.schemaText(spec.schema()),
                ArchiveDescriptor.schemaJson(spec.schema()),
                ArchiveDescriptor.footerEntries(spec.footer()),
                spec.writer(),
                spec.protocol(),
                spec.compaction(),
                null,
                spec.keyColumns().isEmpty() ? 0 : ArchiveDescriptor.DEFAULT_KEY_INDEX_SHARDS);
        return GeoParquetArchive.writeDescriptor(storage, descriptor, clock);
    }
}
