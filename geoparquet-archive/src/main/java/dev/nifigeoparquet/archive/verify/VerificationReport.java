package dev.nifigeoparquet.archive.verify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.nifigeoparquet.archive.format.ArchiveJson;
import java.util.List;
import java.util.OptionalLong;

/**
 * What verification found.
 *
 * @param archive         where the archive is
 * @param crs             the archive's CRS in short form, e.g. {@code EPSG:4326} (from the PROJJSON id) or
 *                        {@code OGC:CRS84} when the {@code geo} block has no {@code crs}
 * @param partitions      partitions verified
 * @param files           live files the verified partitions' commit entries list
 * @param rows            rows the verified partitions' commit entries hold
 * @param rowsRead        rows actually read from the files
 * @param expectedRows    the expected total it was reconciled against, if any
 * @param keysChecked     whether key uniqueness was checked (false for archives without key columns)
 * @param problems        what is wrong, each naming the file
 * @param knownVariations differences that are expected and not problems: per-file {@code bbox} and
 *                        {@code geometry_types} in files of an adopted archive that predate the adoption
 * @param rowsPlaced      rows whose placement was checked (keyed again), or empty when the check was not asked for
 */
public record VerificationReport(
        String archive,
        String crs,
        int partitions,
        int files,
        long rows,
        long rowsRead,
        OptionalLong expectedRows,
        boolean keysChecked,
        List<Problem> problems,
        List<Problem> knownVariations,
        OptionalLong rowsPlaced) {

    public VerificationReport {
        problems = List.copyOf(problems);
        knownVariations = List.copyOf(knownVariations);
    }

    /** True when there are no problems (known variations do not count). */
    public boolean consistent() {
        return problems.isEmpty();
    }

    public List<Problem> problemsOf(ProblemKind kind) {
        return problems.stream().filter(problem -> problem.kind() == kind).toList();
    }

    public ObjectNode toJson() {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode node = json.objectNode();
        node.put("consistent", consistent());
        node.put("archive", archive);
        node.put("crs", crs);
        node.put("partitions", partitions);
        node.put("files", files);
        node.put("rows", rows);
        node.put("rowsRead", rowsRead);
        if (expectedRows.isPresent()) {
            node.put("expectedRows", expectedRows.getAsLong());
        }
        node.put("keysChecked", keysChecked);
        if (rowsPlaced.isPresent()) {
            node.put("rowsPlaced", rowsPlaced.getAsLong());
        }
        ArrayNode problemArray = node.putArray("problems");
        problems.forEach(problem -> problemArray.add(problem.toJson()));
        ArrayNode variationArray = node.putArray("knownVariations");
        knownVariations.forEach(variation -> variationArray.add(variation.toJson()));
        return node;
    }

    /** {@link #toJson()} as pretty-printed text, for {@code verify --json}. */
    public String toJsonString() {
        try {
            return ArchiveJson.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(toJson());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("A verification report always serialises", e);
        }
    }

    @Override
    public String toString() {
        return "VerificationReport[" + (consistent() ? "consistent" : problems.size() + " problems") + ", " + partitions
                + " partitions, " + files + " files, " + rows + " rows, crs " + crs + ", " + knownVariations.size()
                + " known variations]";
    }
}
