package dev.nifigeoparquet.archive;

import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import dev.nifigeoparquet.archive.parquet.ArrowSchemaEntry;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Derives an archive's canonical footer entries from one file's, where that file carries what describes only
 * itself: the {@code geo} block's file-level {@code bbox} (GeoPandas writes one), and the copy of the {@code geo}
 * block that pyarrow puts inside {@code ARROW:schema}. Creation from a template and adoption derive the same way
 * (docs/archive-format.md, sections 7 and 8).
 */
public final class CanonicalFooters {

    private CanonicalFooters() {}

    /**
     * The {@code geo} block without the file-level {@code bbox} of any column, written compactly; null when no
     * column has one (the block is then kept byte for byte).
     */
    static String withoutFileBbox(String geo, List<String> columnsWithBbox) {
        ObjectNode block;
        try {
            block = (ObjectNode) ArchiveJson.mapper().readTree(geo);
        } catch (IOException | ClassCastException e) {
            return null; // not a JSON object: reported where the block is validated
        }
        for (var column : block.path("columns").properties()) {
            if (column.getValue() instanceof ObjectNode node && node.remove("bbox") != null) {
                columnsWithBbox.add(column.getKey());
            }
        }
        return columnsWithBbox.isEmpty() ? null : compact(block);
    }

    public static String compact(ObjectNode block) {
        try {
            return ArchiveJson.mapper()
                    .writer()
                    .without(SerializationFeature.INDENT_OUTPUT)
                    .writeValueAsString(block);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * {@code entries} with {@code geo} replaced by {@code geo}, and the copy of {@code geo} inside
     * {@code ARROW:schema} replaced too when there is one, so no canonical entry keeps the file's own block.
     * Appends what it replaced to {@code derivation}.
     */
    public static FooterEntries withGeo(FooterEntries entries, String geo, List<String> derivation) {
        Map<String, String> replaced = new LinkedHashMap<>(entries.asMap());
        replaced.put(FooterEntries.GEO, geo);
        String arrow = entries.asMap().get(ArrowSchemaEntry.KEY);
        if (arrow != null) {
            try {
                ArrowSchemaEntry schema = ArrowSchemaEntry.parse(arrow);
                String copy = schema.metadata().get(FooterEntries.GEO);
                if (copy != null && !copy.equals(geo)) {
                    replaced.put(ArrowSchemaEntry.KEY, schema.withMetadataValue(FooterEntries.GEO, geo));
                    derivation.add("replaced the copy of 'geo' inside '" + ArrowSchemaEntry.KEY
                            + "' with the canonical block");
                }
            } catch (IllegalArgumentException notArrow) {
                // Kept as written: verification compares it byte for byte.
            }
        }
        return FooterEntries.canonicalOf(replaced);
    }

    /** A template's entries with any file-level bbox removed; what was removed is added to {@code notes}. */
    static FooterEntries withoutFileBbox(FooterEntries entries, List<String> notes) {
        if (entries.geo() == null) {
            return entries;
        }
        List<String> columns = new ArrayList<>();
        String stripped = withoutFileBbox(entries.geo(), columns);
        if (stripped == null) {
            return entries;
        }
        notes.add("removed the file-level 'bbox' of column(s) " + columns
                + " from the canonical 'geo' block (it describes "
                + "one file's extent and cannot stay true in every file of the archive)");
        return withGeo(entries, stripped, notes);
    }
}
