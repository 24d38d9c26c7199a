package dev.nifigeoparquet.archive.keying;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.keying.KeyingException.Reason;

import java.util.ArrayList;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Reads the {@code crs} value of a GeoParquet geometry column, as the specification defines it:
 * <ul>
 *   <li>absent: OGC:CRS84 (longitude/latitude on WGS 84);</li>
 *   <li>JSON {@code null}: the CRS is unknown, so features cannot be keyed;</li>
 *   <li>a PROJJSON object: identified by its {@code id}, or else the first usable entry of {@code ids}.</li>
 * </ul>
 * A plain string such as {@code "EPSG:4326"} does not conform but is common in files written by
 * older tools; it is accepted and the result carries a {@link SourceCrs#conformanceWarning()}.
 */
public final class GeoParquetCrs {

    private static final ObjectMapper JSON = new ObjectMapper();

    private GeoParquetCrs() {
    }

    /**
     * Resolves a column's {@code crs}; pass Java {@code null} or a missing node when the column has
     * none. Fails with {@link Reason#UNKNOWN_CRS} when the CRS cannot be identified and with
     * {@link Reason#UNSUPPORTED_CRS} when it is identified but cannot be reprojected.
     */
    public static SourceCrs resolve(JsonNode crs) {
        if (crs == null || crs.isMissingNode()) {
            return SourceCrs.CRS84;
        }
        if (crs.isNull()) {
            throw new KeyingException(Reason.UNKNOWN_CRS,
                    "crs is null, which GeoParquet defines as an unknown CRS; its features cannot be placed on the globe");
        }
        if (crs.isTextual()) {
            return SourceCrs.parse(crs.textValue(), "crs is the string " + Quoted.of(crs.textValue())
                    + " instead of a PROJJSON object as the GeoParquet specification requires");
        }
        if (crs.isObject()) {
            return fromProjJson(crs);
        }
        throw new KeyingException(Reason.UNKNOWN_CRS, "crs must be a PROJJSON object, not a JSON " + crs.getNodeType());
    }

    /**
     * The CRS a {@code geo} block declares for one of its columns (OGC:CRS84 when the column has no {@code crs}), or
     * empty when the block does not describe that column.
     */
    public static Optional<SourceCrs> ofColumn(GeoMetadata geo, String column) {
        JsonNode columnNode;
        try {
            columnNode = JSON.readTree(geo.rawBytes()).path("columns").path(column);
        } catch (IOException e) {
            throw new KeyingException(Reason.UNKNOWN_CRS, "the geo metadata is not JSON: " + e.getMessage(), e);
        }
        if (!columnNode.isObject()) {
            return Optional.empty();
        }
        return Optional.of(resolve(columnNode.get("crs")));
    }

    private static SourceCrs fromProjJson(JsonNode projJson) {
        List<JsonNode> ids = identifiers(projJson);
        if (ids.isEmpty()) {
            throw new KeyingException(Reason.UNKNOWN_CRS, describe(projJson)
                    + " has no id or ids with an authority and code, so it cannot be reprojected to EPSG:4326");
        }
        KeyingException firstFailure = null;
        for (JsonNode id : ids) {
            try {
                return SourceCrs.identified(id.get("authority").asText(), id.get("code").asText(), null);
            } catch (KeyingException e) {
                firstFailure = firstFailure == null ? e : firstFailure;
            }
        }
        throw new KeyingException(Reason.UNSUPPORTED_CRS, describe(projJson) + " is identified only by "
                + ids.stream().map(GeoParquetCrs::authorityCode).toList() + ", which cannot be reprojected to EPSG:4326",
                firstFailure);
    }

    /** {@code id} first, then {@code ids}, keeping only entries with both an authority and a code. */
    private static List<JsonNode> identifiers(JsonNode projJson) {
        List<JsonNode> candidates = new ArrayList<>();
        candidates.add(projJson.path("id"));
        projJson.path("ids").forEach(candidates::add);
        return candidates.stream().filter(GeoParquetCrs::isUsableId).toList();
    }

    private static boolean isUsableId(JsonNode id) {
        return id.path("authority").isTextual() && !id.path("authority").asText().isBlank()
                && (id.path("code").isTextual() || id.path("code").isIntegralNumber())
                && !id.path("code").asText().isBlank();
    }

    private static String authorityCode(JsonNode id) {
        return Quoted.of(id.get("authority").asText() + ":" + id.get("code").asText());
    }

    private static String describe(JsonNode projJson) {
        String type = projJson.path("type").asText("CRS");
        return "PROJJSON " + Quoted.of(type) + " named " + Quoted.of(projJson.path("name").asText("(unnamed)"));
    }
}
