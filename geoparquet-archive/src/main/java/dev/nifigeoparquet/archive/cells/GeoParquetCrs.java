package dev.nifigeoparquet.archive.cells;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.KeyingException.Reason;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import java.io.IOException;
import java.util.Optional;

/**
 * Reads the {@code crs} value of a GeoParquet geometry column, as the specification defines it:
 * <ul>
 *   <li>absent: OGC:CRS84 (longitude/latitude on WGS 84);</li>
 *   <li>JSON {@code null}: the CRS is explicitly undefined, so features cannot be keyed;</li>
 *   <li>a PROJJSON object: identified by its {@code id} (or an entry of {@code ids}) when the projection library's
 *       database holds it, else built from its definition ({@link ProjJsonCrs}).</li>
 * </ul>
 * A plain string such as {@code "EPSG:4326"} does not conform but is common in files written by
 * older tools; it is accepted and the result carries a {@link SourceCrs#conformanceWarning()}.
 */
public final class GeoParquetCrs {

    private static final ObjectMapper JSON = new ObjectMapper();

    private GeoParquetCrs() {}

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
            throw new KeyingException(
                    Reason.UNKNOWN_CRS,
                    "crs is null: GeoParquet's explicitly undefined CRS, so the "
                            + "coordinates cannot be placed on the globe and no feature can be keyed; give the column its CRS");
        }
        if (crs.isTextual()) {
            return SourceCrs.parse(
                    crs.textValue(),
                    "crs is the string " + Quoted.of(crs.textValue())
                            + " instead of a PROJJSON object as the GeoParquet specification requires");
        }
        if (crs.isObject()) {
            return ProjJsonCrs.resolve(crs);
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
}
