package dev.nifigeoparquet.archive.cells;

import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.KeyingException.Reason;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.locationtech.proj4j.CRSFactory;
import org.locationtech.proj4j.CoordinateReferenceSystem;

/**
 * The CRS a feature's coordinates are in, known to be reprojectable to EPSG:4326: either identified as
 * {@code AUTHORITY:CODE} and found in the projection library's database (proj4j with its EPSG database), or defined by
 * projection parameters (a PROJJSON definition without a usable identifier, {@link ProjJsonCrs}). Obtain one from
 * whatever a file declares with {@link DeclaredCrs}, from a GeoParquet {@code crs} value with
 * {@link GeoParquetCrs#resolve}, from a Parquet logical type's crs with {@link ParquetCrs#resolve}, or from an
 * operator's declaration with {@link #declared}.
 *
 * <p>Whatever axis order the CRS declares, coordinates are read as GeoParquet and Parquet store them:
 * x = easting or longitude, y = northing or latitude.
 */
public final class SourceCrs {

    /** GeoParquet's and Parquet's default when a column declares no CRS: WGS 84 longitude/latitude. */
    public static final SourceCrs CRS84 = new SourceCrs("OGC:CRS84", null, "OGC:CRS84", true, null);

    /** CRSs whose x/y already are WGS 84 longitude/latitude in degrees, so keying needs no transform. */
    private static final Set<String> WGS84_LON_LAT = Set.of("OGC:CRS84", "OGC:CRS84H", "EPSG:4326", "EPSG:4979");

    private static final Pattern AUTHORITY_CODE = Pattern.compile("([A-Za-z][A-Za-z0-9_.-]*):([A-Za-z0-9_.-]+)");

    private final String authorityCode;
    private final String definition;
    private final String name;
    private final boolean wgs84LonLat;
    private final String conformanceWarning;

    private SourceCrs(
            String authorityCode, String definition, String name, boolean wgs84LonLat, String conformanceWarning) {
        this.authorityCode = authorityCode;
        this.definition = definition;
        this.name = name;
        this.wgs84LonLat = wgs84LonLat;
        this.conformanceWarning = conformanceWarning;
    }

    /**
     * A CRS an operator declared, such as {@code "EPSG:3857"}. Fails with
     * {@link Reason#UNKNOWN_CRS} if the text is not {@code AUTHORITY:CODE}, or
     * {@link Reason#UNSUPPORTED_CRS} if the projection library does not know it.
     */
    public static SourceCrs declared(String authorityAndCode) {
        return parse(authorityAndCode, null);
    }

    /** Whether the text has the form {@code AUTHORITY:CODE}. */
    static boolean isAuthorityCode(String text) {
        return text != null && AUTHORITY_CODE.matcher(text.strip()).matches();
    }

    /** Parses {@code AUTHORITY:CODE}, attaching {@code warning} for callers to report. */
    static SourceCrs parse(String authorityAndCode, String warning) {
        Matcher m = AUTHORITY_CODE.matcher(authorityAndCode == null ? "" : authorityAndCode.strip());
        if (!m.matches()) {
            throw new KeyingException(
                    Reason.UNKNOWN_CRS,
                    Quoted.of(authorityAndCode)
                            + " is not a CRS identifier of the form AUTHORITY:CODE, such as EPSG:3857");
        }
        return identified(m.group(1), m.group(2), warning);
    }

    /** A CRS named by authority and code; fails unless it can be reprojected to EPSG:4326. */
    static SourceCrs identified(String authority, String code, String warning) {
        String authorityCode = authority.strip().toUpperCase(Locale.ROOT) + ":" + code.strip();
        SourceCrs crs = new SourceCrs(
                authorityCode,
                null,
                authorityCode,
                WGS84_LON_LAT.contains(authorityCode.toUpperCase(Locale.ROOT)),
                warning);
        if (!crs.isWgs84LonLat()) {
            crs.newProj4jCrs();
        }
        return crs;
    }

    /**
     * A CRS defined by projection-library parameters (proj4 syntax, such as {@code +proj=tmerc +lat_0=49 ...}); fails
     * with {@link Reason#UNSUPPORTED_CRS} when the library cannot build it.
     *
     * @param name        what the definition calls the CRS, for messages
     * @param wgs84LonLat whether x/y are WGS 84 longitude/latitude degrees, so no transform is needed
     */
    static SourceCrs defined(String name, String definition, boolean wgs84LonLat) {
        SourceCrs crs = new SourceCrs(null, definition, name, wgs84LonLat, null);
        crs.newProj4jCrs();
        return crs;
    }

    /** The same CRS with {@code warning} attached. */
    SourceCrs withWarning(String warning) {
        return new SourceCrs(authorityCode, definition, name, wgs84LonLat, warning);
    }

    /**
     * {@code AUTHORITY:CODE}, authority in upper case, e.g. {@code EPSG:3857}; null for a CRS defined by its
     * parameters alone (see {@link #toString()}).
     */
    public String authorityCode() {
        return authorityCode;
    }

    /** The projection-library parameters of a CRS defined by them; empty for an identified CRS. */
    public Optional<String> definition() {
        return Optional.ofNullable(definition);
    }

    /** True when x/y are already WGS 84 longitude/latitude degrees and keying needs no transform. */
    public boolean isWgs84LonLat() {
        return wgs84LonLat;
    }

    /**
     * Present when the source was readable but did not follow the GeoParquet specification (for
     * example a {@code crs} given as a string instead of PROJJSON), for callers to report.
     */
    public Optional<String> conformanceWarning() {
        return Optional.ofNullable(conformanceWarning);
    }

    /**
     * A fresh projection-library CRS. Each call builds a new one because proj4j objects are not
     * safe to share between threads.
     */
    CoordinateReferenceSystem newProj4jCrs() {
        try {
            return authorityCode != null
                    ? new CRSFactory().createFromName(authorityCode)
                    : new CRSFactory().createFromParameters(null, definition);
        } catch (RuntimeException e) {
            // proj4j signals unknown codes and unknown authorities with different exception types.
            throw new KeyingException(
                    Reason.UNSUPPORTED_CRS,
                    (authorityCode != null
                                    ? Quoted.of(authorityCode)
                                            + " has no definition in the projection library (proj4j and its EPSG database)"
                                    : Quoted.of(name) + ", defined as " + Quoted.of(definition)
                                            + ", cannot be built by the projection library (proj4j): " + e.getMessage())
                            + ", so it cannot be reprojected to EPSG:4326",
                    e);
        }
    }

    /**
     * Whether coordinates in this CRS and in {@code other} mean the same positions: the same CRS, or two of the
     * WGS 84 longitude/latitude identifiers (OGC:CRS84 and EPSG:4326 store the same x/y in GeoParquet).
     */
    public boolean sameCoordinatesAs(SourceCrs other) {
        return equals(other) || (isWgs84LonLat() && other.isWgs84LonLat());
    }

    /**
     * Identity is the authority and code of an identified CRS, the parameters of a defined one; the name and the
     * warning only describe where the CRS came from.
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof SourceCrs that
                && Objects.equals(authorityCode, that.authorityCode)
                && Objects.equals(definition, that.definition);
    }

    @Override
    public int hashCode() {
        return Objects.hash(authorityCode, definition);
    }

    /** {@code EPSG:3857}, or for a defined CRS its name and parameters: {@code "name" (+proj=...)}. */
    @Override
    public String toString() {
        return authorityCode != null ? authorityCode : Quoted.of(name) + " (" + definition + ")";
    }
}
