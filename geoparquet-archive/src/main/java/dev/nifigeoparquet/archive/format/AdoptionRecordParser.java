package dev.nifigeoparquet.archive.format;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.error.ArchiveFormatException;
import java.io.IOException;

/**
 * The JSON of the descriptor's {@code adoption} object (docs/archive-format.md, section 8): what adoption found and
 * derived. Field names are the format's, written out here.
 */
final class AdoptionRecordParser {

    private static final String ADOPTED_AT = "adoptedAt";
    private static final String REFERENCE_FILE = "referenceFile";
    private static final String DISTINCT_GEO_BLOCKS = "distinctGeoBlocks";
    private static final String CANONICAL_DERIVED = "canonicalDerived";
    private static final String DERIVATION = "derivation";
    /** Free-form JSON, kept as adoption wrote it: a report for operators, not interpreted by readers. */
    private static final String GEO_DIFFERENCES = "geoDifferences";

    private static final String WARNINGS = "warnings";
    /** Written only when adoption re-homed rows; absent means 0. */
    private static final String REHOMED_ROWS = "rehomedRows";

    private AdoptionRecordParser() {}

    static void toJson(AdoptionRecord adoption, JsonGenerator generator) throws IOException {
        generator.writeStartObject();
        generator.writeStringField(ADOPTED_AT, adoption.adoptedAt().toString());
        generator.writeStringField(REFERENCE_FILE, adoption.referenceFile());
        generator.writeNumberField(DISTINCT_GEO_BLOCKS, adoption.distinctGeoBlocks());
        generator.writeBooleanField(CANONICAL_DERIVED, adoption.canonicalDerived());
        JsonFields.writeStrings(generator, DERIVATION, adoption.derivation());
        generator.writeFieldName(GEO_DIFFERENCES);
        if (adoption.geoDifferences() == null) {
            generator.writeNull();
        } else {
            generator.writeTree(adoption.geoDifferences());
        }
        JsonFields.writeStrings(generator, WARNINGS, adoption.warnings());
        if (adoption.rehomedRows() > 0) {
            generator.writeNumberField(REHOMED_ROWS, adoption.rehomedRows());
        }
        generator.writeEndObject();
    }

    static AdoptionRecord fromJson(JsonFields fields) throws ArchiveFormatException {
        JsonNode differences = fields.raw(GEO_DIFFERENCES);
        return new AdoptionRecord(
                fields.requiredInstant(ADOPTED_AT),
                fields.requiredString(REFERENCE_FILE),
                fields.requiredInt(DISTINCT_GEO_BLOCKS),
                fields.requiredBoolean(CANONICAL_DERIVED),
                fields.requiredStrings(DERIVATION),
                differences == null ? null : differences.deepCopy(),
                fields.requiredStrings(WARNINGS),
                rehomedRows(fields));
    }

    private static long rehomedRows(JsonFields fields) throws ArchiveFormatException {
        Long rows = fields.optionalLong(REHOMED_ROWS);
        if (rows != null && rows < 0) {
            throw new ArchiveFormatException(
                    fields.file(), "adoption field '" + REHOMED_ROWS + "' is negative: " + rows);
        }
        return rows == null ? 0 : rows;
    }
}
