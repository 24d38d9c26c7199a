package dev.nifigeoparquet.archive.parquet;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The one rule for which footer key-value entries belong to the archive and which belong to a single file.
 *
 * <p><b>Canonical</b> entries describe the data, not the file: {@code geo} (GeoParquet metadata), and whatever
 * the archive's original writer put beside it, such as pyarrow's {@code ARROW:schema} or GeoPandas'
 * {@code pandas}. They are copied byte for byte, in their original order, into every file the archive writes,
 * so that any reader sees exactly what the archive's creator wrote. They are never regenerated.
 *
 * <p><b>Per-file</b> entries are written by the Parquet library for each file and must not be copied:
 * {@code writer.model.name} (parquet-java sets it itself and refuses a caller's value).
 */
public final class FooterEntries {

    /** GeoParquet metadata key. */
    public static final String GEO = "geo";

    /** Keys parquet-java writes into each file itself. */
    public static final Set<String> PER_FILE_KEYS = Set.of("writer.model.name");

    private final Map<String, String> canonical;

    private FooterEntries(Map<String, String> canonical) {
        this.canonical = Collections.unmodifiableMap(canonical);
    }

    /** Keeps the canonical entries of a footer, in footer order. */
    public static FooterEntries canonicalOf(Map<String, String> footerKeyValues) {
        Map<String, String> kept = new LinkedHashMap<>();
        footerKeyValues.forEach((key, value) -> {
            if (isCanonical(key)) {
                kept.put(key, Objects.requireNonNull(value, () -> "footer entry " + key + " has no value"));
            }
        });
        return new FooterEntries(kept);
    }

    public static boolean isCanonical(String key) {
        return !PER_FILE_KEYS.contains(key);
    }

    /** The entries in the order they are written. */
    public Map<String, String> asMap() {
        return canonical;
    }

    /** The raw {@code geo} value, if there is one. */
    public String geo() {
        return canonical.get(GEO);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FooterEntries that && canonical.equals(that.canonical);
    }

    @Override
    public int hashCode() {
        return canonical.hashCode();
    }

    @Override
    public String toString() {
        return "FooterEntries" + canonical.keySet();
    }
}
