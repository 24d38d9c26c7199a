package dev.nifigeoparquet.archive.format;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.List;

/**
 * What adoption of an existing archive found and decided, kept in the descriptor so verification can tell a
 * known variation in adopted files from a problem.
 *
 * @param adoptedAt           when the archive was adopted
 * @param referenceFile       the file whose schema and footer entries were taken
 * @param distinctGeoBlocks   how many different {@code geo} values the adopted files carry
 * @param canonicalDerived    whether the canonical {@code geo} block was derived rather than copied verbatim
 * @param derivation          what the derivation changed, in words (empty when not derived)
 * @param geoDifferences      the JSON-level differences of the distinct blocks against the reference block
 * @param warnings            conformance warnings (for example a {@code crs} that is not PROJJSON); bytes are never changed
 * @param rehomedRows         rows that lay outside the partition of their cell and were moved into it (0 when none
 *                            did; adoption refuses such rows unless asked to move them)
 */
public record AdoptionRecord(
        Instant adoptedAt,
        String referenceFile,
        int distinctGeoBlocks,
        boolean canonicalDerived,
        List<String> derivation,
        JsonNode geoDifferences,
        List<String> warnings,
        long rehomedRows) {

    public AdoptionRecord {
        derivation = List.copyOf(derivation);
        warnings = List.copyOf(warnings);
    }
}
