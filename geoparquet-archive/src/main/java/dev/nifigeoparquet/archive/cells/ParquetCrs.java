package dev.nifigeoparquet.archive.cells;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.KeyingException.Reason;
import java.util.Locale;
import java.util.Map;

/**
 * Reads the crs of a Parquet {@code GEOMETRY} or {@code GEOGRAPHY} logical type (parquet-format Geospatial.md, "CRS
 * Customization"; docs/archive-format.md, section 6.1):
 * <ul>
 *   <li>absent or empty: OGC:CRS84;</li>
 *   <li>{@code srid:<n>}: EPSG:{@code n}, as out-of-context SRIDs are commonly read; {@code srid:0} declares no CRS
 *       (an undefined one) and is refused;</li>
 *   <li>{@code projjson:<key>}: the PROJJSON document the file's key-value metadata holds under {@code key};</li>
 *   <li>a PROJJSON document itself (text starting with <code>{</code>), as GeoParquet 2.0 writes a non-default crs;</li>
 *   <li>{@code AUTHORITY:CODE}, such as {@code OGC:CRS84} or {@code EPSG:4326}.</li>
 * </ul>
 * Anything else is a value this implementation cannot interpret, and is refused naming it.
 */
public final class ParquetCrs {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SRID = "srid:";
    private static final String PROJJSON = "projjson:";

    private ParquetCrs() {}

    /**
     * The CRS a logical type's crs names.
     *
     * @param crs        the crs parameter, null when absent
     * @param keyValues  the file's key-value metadata, where {@code projjson:<key>} finds its document
     */
    public static SourceCrs resolve(String crs, Map<String, String> keyValues) {
        if (crs == null || crs.isBlank()) {
            return SourceCrs.CRS84;
        }
        String value = crs.strip();
        String lower = value.toLowerCase(Locale.ROOT);
        if (value.startsWith("{")) {
            return ProjJsonCrs.resolve(parse(value, "the crs of the logical type"));
        }
        if (lower.startsWith(SRID)) {
            String srid = value.substring(SRID.length()).strip();
            if (!srid.matches("[0-9]+")) {
                throw new KeyingException(Reason.UNKNOWN_CRS, "crs " + Quoted.of(value) + " is not srid:<number>");
            }
            if (Long.parseLong(srid) == 0) {
                throw new KeyingException(
                        Reason.UNKNOWN_CRS,
                        "crs " + Quoted.of(value) + " declares no CRS (SRID 0 is "
                                + "undefined), so the coordinates cannot be placed on the globe and no feature can be keyed");
            }
            return SourceCrs.identified("EPSG", srid, null);
        }
        if (lower.startsWith(PROJJSON)) {
            String key = value.substring(PROJJSON.length());
            String document = keyValues == null ? null : keyValues.get(key);
            if (document == null) {
                throw new KeyingException(
                        Reason.UNKNOWN_CRS,
                        "crs " + Quoted.of(value) + " names the file property " + Quoted.of(key)
                                + ", which the file's key-value metadata does not hold");
            }
            return ProjJsonCrs.resolve(parse(document, "the file property " + Quoted.of(key)));
        }
        if (SourceCrs.isAuthorityCode(value)) {
            return SourceCrs.parse(value, null);
        }
        throw new KeyingException(
                Reason.UNKNOWN_CRS,
                "crs " + Quoted.of(value) + " is neither srid:<n>, projjson:<key>, "
                        + "a PROJJSON document nor AUTHORITY:CODE, so this implementation cannot interpret it");
    }

    private static JsonNode parse(String document, String what) {
        try {
            return JSON.readTree(document);
        } catch (JsonProcessingException e) {
            throw new KeyingException(
                    Reason.UNKNOWN_CRS, what + " is not a JSON document: " + e.getOriginalMessage(), e);
        }
    }
}
