package dev.nifigeoparquet.archive.verify;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.GeoParquetArchive;
import dev.nifigeoparquet.archive.cells.DeclaredCrs;
import dev.nifigeoparquet.archive.cells.SourceCrs;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import dev.nifigeoparquet.archive.geo.GeoBlockDiff;
import dev.nifigeoparquet.archive.parquet.ArrowSchemaEntry;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.parquet.ParquetFooter;
import dev.nifigeoparquet.archive.parquet.ParquetSchemaJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.parquet.schema.MessageType;

/**
 * Compares one file's footer with the archive's: schema, every canonical entry byte for byte, the {@code geo}
 * block (with a JSON-level diff when its bytes differ) and the CRS it resolves to.
 *
 * <p>In files that predate an adoption, what GeoPandas and pyarrow write per file is a known variation, not a
 * problem: the {@code geo} block's {@code bbox} and {@code geometry_types}, the {@code pandas} block's RangeIndex
 * ({@code start}, {@code stop}, {@code step} of an index of kind {@code range}), and the copies of both blocks inside
 * {@code ARROW:schema} (whose columns must still be described exactly alike). Adoption refuses a directory whose
 * files this check finds a problem in, so an adopted archive verifies as consistent.
 */
public final class FooterCheck {

    /** The key pandas (and so GeoPandas) writes its DataFrame metadata under. */
    private static final String PANDAS = "pandas";

    /** {@code geo} paths whose per-file values adopted archives are known to carry (GeoPandas writes both). */
    private static final Pattern ADOPTION_VARIATION = Pattern.compile("columns\\.[^.]+\\.(bbox|geometry_types)");

    private final MessageType schema;
    private final JsonNode schemaJson;
    private final FooterEntries canonical;
    private final JsonNode canonicalGeo;
    private final String geometryColumn;
    private final SourceCrs crs;

    /** The check of an archive's files (or, during adoption, of the archive about to be adopted). */
    public static FooterCheck of(GeoParquetArchive archive) {
        return new FooterCheck(
                archive.schema(),
                archive.canonicalFooter(),
                archive.descriptor().geometryColumn(),
                archive.sourceCrs());
    }

    /** The problems a footer has, known variations left out. */
    public List<Problem> problemsOf(String file, ParquetFooter footer, boolean predatesAdoption) {
        Findings findings = new Findings();
        check(file, footer, predatesAdoption, findings);
        return findings.problems;
    }

    FooterCheck(MessageType schema, FooterEntries canonical, String geometryColumn, SourceCrs crs) {
        this.schema = schema;
        this.schemaJson = ParquetSchemaJson.toJson(schema);
        this.canonical = canonical;
        this.geometryColumn = geometryColumn;
        this.crs = crs;
        try {
            this.canonicalGeo =
                    canonical.geo() == null ? null : ArchiveJson.mapper().readTree(canonical.geo());
        } catch (IOException e) {
            throw new IllegalStateException("The archive's canonical geo block is not JSON", e);
        }
    }

    /**
     * Checks a footer.
     *
     * @param predatesAdoption the file was committed no later than the archive's adoption, so per-file
     *                         {@code bbox}/{@code geometry_types} and extra entries are known variations
     */
    void check(String file, ParquetFooter footer, boolean predatesAdoption, Findings findings) {
        JsonNode actualSchema = ParquetSchemaJson.toJson(footer.schema());
        if (!actualSchema.equals(schemaJson)) {
            ObjectNode detail = JsonNodeFactory.instance.objectNode();
            detail.put("expected", schema.toString());
            detail.put("actual", footer.schema().toString());
            detail.set("differences", schemaDifferences(schemaJson, actualSchema));
            findings.problem(
                    new Problem(file, ProblemKind.SCHEMA_MISMATCH, "schema differs from the archive's", detail));
        }
        checkCrs(file, footer, findings);
        Map<String, String> entries = footer.keyValues();
        for (Map.Entry<String, String> entry : canonical.asMap().entrySet()) {
            String key = entry.getKey();
            String actual = entries.get(key);
            if (key.equals(FooterEntries.GEO)) {
                checkGeo(file, actual, predatesAdoption, findings);
            } else if (actual == null) {
                findings.problem(new Problem(
                        file, ProblemKind.FOOTER_MISMATCH, "lacks the canonical footer entry '" + key + "'", null));
            } else if (!actual.equals(entry.getValue())) {
                String variation = predatesAdoption ? perFileVariation(key, entry.getValue(), actual) : null;
                Problem problem = new Problem(
                        file,
                        ProblemKind.FOOTER_MISMATCH,
                        "footer entry '" + key + "' differs from the canonical value ("
                                + actual.length() + " characters, canonical "
                                + entry.getValue().length() + ")"
                                + (variation == null ? "" : ": " + variation),
                        null);
                findings.problemOrVariation(problem, variation != null);
            }
        }
        for (String key : entries.keySet()) {
            if (FooterEntries.isCanonical(key) && !canonical.asMap().containsKey(key)) {
                Problem extra = new Problem(
                        file,
                        ProblemKind.FOOTER_MISMATCH,
                        "carries footer entry '" + key + "', which is not one of the archive's canonical entries",
                        null);
                findings.problemOrVariation(extra, predatesAdoption);
            }
        }
    }

    private void checkGeo(String file, String actualText, boolean predatesAdoption, Findings findings) {
        if (actualText == null) {
            findings.problem(new Problem(file, ProblemKind.GEO_MISMATCH, "has no geo entry", null));
            return;
        }
        JsonNode actual;
        try {
            actual = ArchiveJson.mapper().readTree(actualText);
        } catch (IOException e) {
            findings.problem(
                    new Problem(file, ProblemKind.GEO_MISMATCH, "geo entry is not JSON: " + e.getMessage(), null));
            return;
        }
        if (actualText.equals(canonical.geo())) {
            return;
        }
        List<GeoBlockDiff.Difference> differences = GeoBlockDiff.differences(canonicalGeo, actual);
        ArrayNode keyOrder = keyOrderDifferences("", canonicalGeo, actual, JsonNodeFactory.instance.arrayNode());
        ObjectNode detail = JsonNodeFactory.instance.objectNode();
        List<String> what = new ArrayList<>();
        if (!differences.isEmpty()) {
            detail.set("differences", GeoBlockDiff.toJson(differences));
            differences.forEach(difference -> what.add(difference.path()));
        }
        if (!keyOrder.isEmpty()) {
            detail.set("keyOrder", keyOrder);
            what.add("key order");
        }
        if (what.isEmpty()) {
            what.add("formatting only (whitespace or number spelling)");
        }
        String message = "geo bytes differ from the canonical block: " + String.join(", ", what);
        boolean knownVariation = predatesAdoption
                && !differences.isEmpty()
                && differences.stream()
                        .allMatch(difference ->
                                ADOPTION_VARIATION.matcher(difference.path()).matches());
        findings.problemOrVariation(new Problem(file, ProblemKind.GEO_MISMATCH, message, detail), knownVariation);
    }

    /**
     * What a canonical entry and a file's differ in, when that is only what GeoPandas and pyarrow write per file;
     * null when they differ in anything else.
     */
    private String perFileVariation(String key, String canonicalValue, String actualValue) {
        try {
            return switch (key) {
                case PANDAS -> pandasRangeOnly(canonicalValue, actualValue) ? "its RangeIndex" : null;
                case ArrowSchemaEntry.KEY -> arrowSchemaVariation(canonicalValue, actualValue);
                default -> null;
            };
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    /** Two {@code pandas} blocks that differ only in the bounds of RangeIndex entries (each file's own row count). */
    private static boolean pandasRangeOnly(String canonicalValue, String actualValue) throws IOException {
        JsonNode canonicalPandas = ArchiveJson.mapper().readTree(canonicalValue);
        JsonNode actual = ArchiveJson.mapper().readTree(actualValue);
        return withoutRangeBounds(canonicalPandas).equals(withoutRangeBounds(actual));
    }

    private static JsonNode withoutRangeBounds(JsonNode pandas) {
        JsonNode copy = pandas.deepCopy();
        for (JsonNode index : copy.path("index_columns")) {
            if (index instanceof ObjectNode range
                    && "range".equals(range.path("kind").asText())) {
                range.remove(List.of("start", "stop", "step"));
            }
        }
        return copy;
    }

    /**
     * ARROW:schema entries that describe the same columns and carry the same metadata but for their copies of
     * {@code geo} (per-file bbox and geometry_types) and {@code pandas} (RangeIndex bounds).
     */
    private String arrowSchemaVariation(String canonicalValue, String actualValue) throws IOException {
        ArrowSchemaEntry expected = ArrowSchemaEntry.parse(canonicalValue);
        ArrowSchemaEntry actual = ArrowSchemaEntry.parse(actualValue);
        if (!expected.describeSchema().equals(actual.describeSchema())
                || !List.copyOf(expected.metadata().keySet())
                        .equals(List.copyOf(actual.metadata().keySet()))) {
            return null;
        }
        List<String> varying = new ArrayList<>();
        for (Map.Entry<String, String> entry : expected.metadata().entrySet()) {
            String other = actual.metadata().get(entry.getKey());
            if (other.equals(entry.getValue())) {
                continue;
            }
            boolean known = switch (entry.getKey()) {
                case FooterEntries.GEO -> geoPerFileOnly(entry.getValue(), other);
                case PANDAS -> pandasRangeOnly(entry.getValue(), other);
                default -> false;
            };
            if (!known) {
                return null;
            }
            varying.add("its copy of '" + entry.getKey() + "'");
        }
        return String.join(" and ", varying);
    }

    private static boolean geoPerFileOnly(String canonicalValue, String actualValue) throws IOException {
        List<GeoBlockDiff.Difference> differences = GeoBlockDiff.differences(
                ArchiveJson.mapper().readTree(canonicalValue),
                ArchiveJson.mapper().readTree(actualValue));
        return differences.stream()
                .allMatch(difference ->
                        ADOPTION_VARIATION.matcher(difference.path()).matches());
    }

    /** The CRS the file declares for the geometry column, in its geo block or its logical type, is the archive's. */
    private void checkCrs(String file, ParquetFooter footer, Findings findings) {
        SourceCrs fileCrs;
        try {
            fileCrs = DeclaredCrs.of(footer.schema(), footer.keyValues(), geometryColumn)
                    .orElse(null);
        } catch (KeyingException e) {
            findings.problem(
                    new Problem(file, ProblemKind.CRS_MISMATCH, "crs cannot be identified: " + e.getMessage(), null));
            return;
        }
        if (fileCrs == null) {
            findings.problem(new Problem(
                    file,
                    ProblemKind.CRS_MISMATCH,
                    "declares no CRS for column '" + geometryColumn
                            + "' (neither geo metadata nor a geospatial logical type describes it)",
                    null));
        } else if (!fileCrs.equals(crs)) {
            ObjectNode detail = JsonNodeFactory.instance.objectNode();
            detail.put("expected", crs.toString());
            detail.put("actual", fileCrs.toString());
            findings.problem(new Problem(
                    file, ProblemKind.CRS_MISMATCH, "crs is " + fileCrs + ", the archive's is " + crs, detail));
        }
    }

    /**
     * The schema elements (and column orders) that differ, as {path, expected, actual}, compared in the footer form:
     * two schemas are the same only when every element is, logical type parameters included.
     */
    private static ArrayNode schemaDifferences(JsonNode expected, JsonNode actual) {
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (String field : List.of(ParquetSchemaJson.SCHEMA, ParquetSchemaJson.COLUMN_ORDERS)) {
            JsonNode a = expected.path(field);
            JsonNode b = actual.path(field);
            for (int i = 0; i < Math.max(a.size(), b.size()); i++) {
                if (!a.path(i).equals(b.path(i))) {
                    ObjectNode difference = out.addObject();
                    difference.put("path", field + "[" + i + "]");
                    difference.set("expected", a.path(i).isMissingNode() ? null : a.get(i));
                    difference.set("actual", b.path(i).isMissingNode() ? null : b.get(i));
                }
            }
        }
        return out;
    }

    /** Objects whose keys appear in a different order, as {path, expected: [keys], actual: [keys]}. */
    private static ArrayNode keyOrderDifferences(String path, JsonNode expected, JsonNode actual, ArrayNode out) {
        if (!expected.isObject() || !actual.isObject()) {
            return out;
        }
        List<String> expectedKeys = keys(expected);
        List<String> actualKeys = keys(actual);
        List<String> commonExpected = new ArrayList<>(expectedKeys);
        commonExpected.retainAll(actualKeys);
        List<String> commonActual = new ArrayList<>(actualKeys);
        commonActual.retainAll(expectedKeys);
        if (!commonExpected.equals(commonActual)) {
            ObjectNode node = out.addObject();
            node.put("path", path.isEmpty() ? "(root)" : path);
            commonExpected.forEach(node.putArray("expected")::add);
            commonActual.forEach(node.putArray("actual")::add);
        }
        for (String key : commonExpected) {
            keyOrderDifferences(path.isEmpty() ? key : path + "." + key, expected.get(key), actual.get(key), out);
        }
        return out;
    }

    private static List<String> keys(JsonNode object) {
        List<String> keys = new ArrayList<>();
        for (Iterator<String> names = object.fieldNames(); names.hasNext(); ) {
            keys.add(names.next());
        }
        return keys;
    }
}
