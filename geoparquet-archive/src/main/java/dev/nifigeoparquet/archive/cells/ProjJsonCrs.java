package dev.nifigeoparquet.archive.cells;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.KeyingException.Reason;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.locationtech.proj4j.CRSFactory;

/**
 * Reads a PROJJSON CRS (https://proj.org/specifications/projjson.html) as a {@link SourceCrs}, as
 * docs/archive-format.md, section 6.1, specifies:
 * <ol>
 *   <li>A {@code BoundCRS} is its {@code source_crs} with the datum shift its {@code transformation} gives to WGS 84
 *       (a Helmert transformation: geocentric translations, position vector or coordinate frame rotation); a
 *       {@code CompoundCRS} is its horizontal (first) component.</li>
 *   <li>A CRS with an {@code id}, or else an entry of {@code ids}, that the projection library's database holds
 *       (proj4j with the EPSG database) is that CRS.</li>
 *   <li>Otherwise the CRS is built from its definition: a {@code GeographicCRS} from its datum, a
 *       {@code ProjectedCRS} from its conversion method and parameters (the methods of {@link Method}) over its base
 *       CRS's datum, in the unit of its coordinate system. The datum is taken from the base CRS's identifier when the
 *       database holds it, else from the datum's identifier or name when the projection library knows that datum,
 *       else from its ellipsoid and prime meridian; a datum known by none of these and without a shift to WGS 84 (a
 *       {@code BoundCRS}) is taken to coincide with WGS 84.</li>
 * </ol>
 * Axis order and direction in the coordinate system are not applied: x is easting or longitude, y northing or
 * latitude, as GeoParquet and Parquet store them.
 */
final class ProjJsonCrs {

    private static final double ARC_SECONDS_PER_RADIAN = 180 * 3600 / Math.PI;

    /** Datums the projection library knows by name, by their EPSG datum code and their EPSG name. */
    private static final Map<String, String> KNOWN_DATUMS = Map.ofEntries(
            Map.entry("6326", "WGS84"), Map.entry("World Geodetic System 1984", "WGS84"),
            Map.entry("6269", "NAD83"), Map.entry("North American Datum 1983", "NAD83"),
            Map.entry("6277", "OSGB36"), Map.entry("Ordnance Survey of Great Britain 1936", "OSGB36"),
            Map.entry("6121", "GGRS87"), Map.entry("Greek Geodetic Reference System 1987", "GGRS87"),
            Map.entry("6314", "potsdam"), Map.entry("Deutsches Hauptdreiecksnetz", "potsdam"),
            Map.entry("6223", "carthage"), Map.entry("Carthage", "carthage"),
            Map.entry("6312", "hermannskogel"), Map.entry("Militar-Geographische Institut", "hermannskogel"),
            Map.entry("6299", "ire65"), Map.entry("TM65", "ire65"),
            Map.entry("6272", "nzgd49"), Map.entry("New Zealand Geodetic Datum 1949", "nzgd49"));

    private ProjJsonCrs() {}

    /** The CRS of a PROJJSON object; fails with the reason it cannot be reprojected to EPSG:4326. */
    static SourceCrs resolve(JsonNode projJson) {
        if (projJson == null || !projJson.isObject()) {
            throw new KeyingException(
                    Reason.UNKNOWN_CRS,
                    "a PROJJSON CRS must be a JSON object, not "
                            + (projJson == null ? "nothing" : "a JSON " + projJson.getNodeType()));
        }
        String type = projJson.path("type").asText("");
        return switch (type) {
            case "BoundCRS" -> bound(projJson);
            case "CompoundCRS" -> {
                JsonNode horizontal = projJson.path("components").path(0);
                if (!horizontal.isObject()) {
                    throw new KeyingException(Reason.UNKNOWN_CRS, describe(projJson) + " has no components");
                }
                yield resolve(horizontal);
            }
            default -> identifiedOrDefined(projJson, null);
        };
    }

    private static SourceCrs bound(JsonNode bound) {
        JsonNode source = bound.path("source_crs");
        if (!source.isObject()) {
            throw new KeyingException(Reason.UNKNOWN_CRS, describe(bound) + " has no source_crs");
        }
        if (!isWgs84(bound.path("target_crs"))) {
            throw new KeyingException(
                    Reason.UNSUPPORTED_CRS,
                    describe(bound) + " gives a datum shift to " + describe(bound.path("target_crs"))
                            + ", not to WGS 84, so it cannot be reprojected to EPSG:4326");
        }
        return identifiedOrDefined(source, towgs84(bound.path("transformation"), bound));
    }

    private static SourceCrs identifiedOrDefined(JsonNode crs, String towgs84) {
        List<JsonNode> ids = identifiers(crs);
        KeyingException identification = null;
        for (JsonNode id : ids) {
            try {
                return SourceCrs.identified(
                        id.get("authority").asText(), id.get("code").asText(), null);
            } catch (KeyingException e) {
                identification = identification == null ? e : identification;
            }
        }
        try {
            return defined(crs, towgs84);
        } catch (KeyingException e) {
            if (identification == null) {
                throw e;
            }
            throw new KeyingException(
                    Reason.UNSUPPORTED_CRS,
                    describe(crs) + " is identified only by "
                            + ids.stream().map(ProjJsonCrs::authorityCode).toList()
                            + ", which the projection library does not hold, "
                            + "and cannot be built from its definition: " + e.getMessage(),
                    identification);
        }
    }

    // ---- Building from the definition

    private static SourceCrs defined(JsonNode crs, String towgs84) {
        String type = crs.path("type").asText("");
        String name = crs.path("name").asText("(unnamed)");
        return switch (type) {
            case "GeographicCRS", "GeodeticCRS" -> {
                requireEllipsoidal(crs);
                String datum = datum(crs, towgs84);
                boolean wgs84 = towgs84 == null && datum.equals("+datum=WGS84");
                yield SourceCrs.defined(name, "+proj=longlat " + datum + " +no_defs", wgs84);
            }
            case "ProjectedCRS" -> {
                JsonNode base = crs.path("base_crs");
                if (!base.isObject()) {
                    throw new KeyingException(Reason.UNKNOWN_CRS, describe(crs) + " has no base_crs to build it from");
                }
                JsonNode conversion = crs.path("conversion");
                if (!conversion.isObject()) {
                    throw new KeyingException(
                            Reason.UNKNOWN_CRS, describe(crs) + " has no conversion to build it from");
                }
                Method method = Method.of(conversion.path("method"))
                        .orElseThrow(() -> new KeyingException(
                                Reason.UNSUPPORTED_CRS,
                                describe(crs) + " uses the conversion method "
                                        + Quoted.of(conversion
                                                .path("method")
                                                .path("name")
                                                .asText("(unnamed)"))
                                        + ", which this implementation does not build (it builds " + Method.supported()
                                        + ")"));
                Parameters parameters = new Parameters(conversion.path("parameters"), crs);
                String datum = method == Method.PSEUDO_MERCATOR ? pseudoMercatorDatum(base) : datum(base, towgs84);
                yield SourceCrs.defined(
                        name, method.definition(parameters) + " " + datum + " " + units(crs) + " +no_defs", false);
            }
            case "" ->
                throw new KeyingException(
                        Reason.UNKNOWN_CRS, describe(crs) + " has no type, so it cannot be read as a CRS");
            default ->
                throw new KeyingException(
                        Reason.UNSUPPORTED_CRS,
                        describe(crs)
                                + " is not a geographic or projected CRS, so it cannot be reprojected to EPSG:4326");
        };
    }

    private static void requireEllipsoidal(JsonNode crs) {
        JsonNode cs = crs.path("coordinate_system");
        String subtype = cs.path("subtype").asText("ellipsoidal");
        if (!subtype.equals("ellipsoidal")) {
            throw new KeyingException(
                    Reason.UNSUPPORTED_CRS,
                    describe(crs) + " has a " + subtype + " coordinate system, not longitude and latitude");
        }
        for (JsonNode axis : cs.path("axis")) {
            if (Math.abs(inUnit(1, axis.path("unit"), "degree", Math.PI / 180) - 1) > 1e-12) {
                throw new KeyingException(
                        Reason.UNSUPPORTED_CRS,
                        describe(crs) + " has longitude and latitude in " + Quoted.of(unitName(axis.path("unit")))
                                + ", not degrees");
            }
        }
    }

    /**
     * The datum part of a definition: from the geographic CRS's identifier when the database holds it, else from the
     * datum, with the shift of a BoundCRS when there is one.
     */
    private static String datum(JsonNode geographic, String towgs84) {
        if (towgs84 == null) {
            for (JsonNode id : identifiers(geographic)) {
                Optional<String> known = datumOfIdentified(
                        id.get("authority").asText() + ":" + id.get("code").asText());
                if (known.isPresent()) {
                    return known.get();
                }
            }
        }
        JsonNode datum = geographic.has("datum") ? geographic.path("datum") : geographic.path("datum_ensemble");
        if (!datum.isObject()) {
            throw new KeyingException(
                    Reason.UNKNOWN_CRS, describe(geographic) + " has neither datum nor datum_ensemble");
        }
        String primeMeridian = primeMeridian(
                datum.has("prime_meridian") ? datum.path("prime_meridian") : geographic.path("prime_meridian"));
        if (towgs84 == null) {
            Optional<String> known = knownDatum(datum);
            if (known.isPresent()) {
                return "+datum=" + known.get() + primeMeridian;
            }
        }
        return ellipsoid(datum.path("ellipsoid"), geographic)
                + (towgs84 == null ? "" : " +towgs84=" + towgs84)
                + primeMeridian;
    }

    /** The datum parameters the database's definition of an identified geographic CRS gives. */
    private static Optional<String> datumOfIdentified(String authorityCode) {
        String parameters;
        try {
            parameters = new CRSFactory().createFromName(authorityCode).getParameterString();
        } catch (RuntimeException unknown) {
            return Optional.empty();
        }
        List<String> datum = new ArrayList<>();
        for (String parameter : parameters.trim().split("\\s+", -1)) {
            String key = parameter.replaceFirst("^\\+", "").split("=", 2)[0];
            if (List.of("datum", "ellps", "a", "b", "rf", "f", "R", "towgs84", "nadgrids", "pm")
                    .contains(key)) {
                datum.add(parameter.startsWith("+") ? parameter : "+" + parameter);
            }
        }
        return datum.isEmpty() ? Optional.empty() : Optional.of(String.join(" ", datum));
    }

    private static Optional<String> knownDatum(JsonNode datum) {
        for (JsonNode id : identifiers(datum)) {
            if (id.get("authority").asText().equalsIgnoreCase("EPSG")
                    && KNOWN_DATUMS.containsKey(id.get("code").asText())) {
                return Optional.of(KNOWN_DATUMS.get(id.get("code").asText()));
            }
        }
        String name = datum.path("name").asText("");
        if (name.startsWith("World Geodetic System 1984")) {
            return Optional.of("WGS84"); // the datum, its realizations (G1762, ...) and their ensemble
        }
        return Optional.ofNullable(KNOWN_DATUMS.get(name));
    }

    private static boolean isWgs84(JsonNode geographic) {
        for (JsonNode id : identifiers(geographic)) {
            String code = id.get("authority").asText().toUpperCase(Locale.ROOT) + ":"
                    + id.get("code").asText();
            if (code.equals("EPSG:4326") || code.equals("OGC:CRS84")) {
                return true;
            }
        }
        JsonNode datum = geographic.has("datum") ? geographic.path("datum") : geographic.path("datum_ensemble");
        return knownDatum(datum).filter("WGS84"::equals).isPresent();
    }

    private static String ellipsoid(JsonNode ellipsoid, JsonNode crs) {
        if (!ellipsoid.isObject()) {
            throw new KeyingException(Reason.UNKNOWN_CRS, describe(crs) + " has a datum without an ellipsoid");
        }
        if (ellipsoid.has("radius")) {
            double radius = length(ellipsoid.path("radius"), crs);
            return "+a=" + radius + " +b=" + radius;
        }
        double a = length(ellipsoid.path("semi_major_axis"), crs);
        if (ellipsoid.has("inverse_flattening")) {
            // As +a and +b: proj4j reads +rf and +f as if they were each other's reciprocal.
            double rf = ellipsoid.path("inverse_flattening").asDouble();
            return rf == 0 ? "+a=" + a + " +b=" + a : "+a=" + a + " +b=" + a * (1 - 1 / rf);
        }
        if (ellipsoid.has("semi_minor_axis")) {
            return "+a=" + a + " +b=" + length(ellipsoid.path("semi_minor_axis"), crs);
        }
        throw new KeyingException(
                Reason.UNKNOWN_CRS,
                describe(crs) + " has an ellipsoid with neither inverse_flattening, semi_minor_axis nor radius");
    }

    private static String primeMeridian(JsonNode meridian) {
        if (!meridian.isObject()) {
            return "";
        }
        JsonNode longitude = meridian.path("longitude");
        double degrees = longitude.isObject()
                ? inUnit(longitude.path("value").asDouble(), longitude.path("unit"), "degree", Math.PI / 180)
                : inUnit(longitude.asDouble(), meridian.path("unit"), "degree", Math.PI / 180);
        return degrees == 0 ? "" : " +pm=" + degrees;
    }

    /** Web Mercator projects WGS 84 coordinates as if they were on a sphere of the ellipsoid's semi-major axis. */
    private static String pseudoMercatorDatum(JsonNode base) {
        JsonNode datum = base.has("datum") ? base.path("datum") : base.path("datum_ensemble");
        double a = datum.path("ellipsoid").isObject()
                ? length(datum.path("ellipsoid").path("semi_major_axis"), base)
                : 6378137;
        return "+a=" + a + " +b=" + a + " +nadgrids=@null";
    }

    /** The unit of a projected CRS's coordinates. */
    private static String units(JsonNode crs) {
        JsonNode axis = crs.path("coordinate_system").path("axis").path(0);
        double metres = factor(axis.path("unit"), "metre", 1);
        return metres == 1 ? "+units=m" : "+to_meter=" + metres;
    }

    /**
     * The datum shift of a BoundCRS's transformation as proj4 {@code towgs84} values: translations in metres, rotations in
     * arc-seconds by the position vector convention, scale in parts per million.
     */
    private static String towgs84(JsonNode transformation, JsonNode bound) {
        JsonNode method = transformation.path("method");
        String name = method.path("name").asText("").toLowerCase(Locale.ROOT);
        String code = method.path("id").path("code").asText("");
        Parameters parameters = new Parameters(transformation.path("parameters"), bound);
        double dx = parameters.length("8605", "X-axis translation");
        double dy = parameters.length("8606", "Y-axis translation");
        double dz = parameters.length("8607", "Z-axis translation");
        if (name.startsWith("geocentric translations")
                || List.of("9603", "1031", "1035").contains(code)) {
            return dx + "," + dy + "," + dz;
        }
        boolean positionVector = name.startsWith("position vector")
                || List.of("9606", "1033", "1037").contains(code);
        boolean coordinateFrame = name.startsWith("coordinate frame")
                || List.of("9607", "1032", "1038").contains(code);
        if (!positionVector && !coordinateFrame) {
            throw new KeyingException(
                    Reason.UNSUPPORTED_CRS,
                    describe(bound) + " shifts its datum to WGS 84 by "
                            + Quoted.of(method.path("name").asText("(unnamed)"))
                            + ", which this implementation does not apply "
                            + "(it applies geocentric translations and the position vector and coordinate frame Helmert transformations)");
        }
        double sign = positionVector ? 1 : -1;
        double rx = sign * parameters.arcSeconds("8608", "X-axis rotation");
        double ry = sign * parameters.arcSeconds("8609", "Y-axis rotation");
        double rz = sign * parameters.arcSeconds("8610", "Z-axis rotation");
        double ppm = parameters.partsPerMillion("8611", "Scale difference");
        return dx + "," + dy + "," + dz + "," + rx + "," + ry + "," + rz + "," + ppm;
    }

    // ---- Conversion methods

    /** The conversion methods a ProjectedCRS is built from, by EPSG method code and name. */
    @SuppressWarnings("ImmutableEnumChecker") // every definition is a lambda that captures nothing
    enum Method {
        TRANSVERSE_MERCATOR(
                "9807",
                "Transverse Mercator",
                p -> "+proj=tmerc" + p.degrees("lat_0", "8801", "Latitude of natural origin")
                        + p.degrees("lon_0", "8802", "Longitude of natural origin")
                        + p.unity("k_0", "8805", "Scale factor at natural origin")
                        + p.falseEastingAndNorthing()),
        LAMBERT_CONIC_CONFORMAL_2SP(
                "9802",
                "Lambert Conic Conformal (2SP)",
                p -> "+proj=lcc"
                        + p.degrees("lat_0", "8821", "Latitude of false origin")
                        + p.degrees("lon_0", "8822", "Longitude of false origin")
                        + p.degrees("lat_1", "8823", "Latitude of 1st standard parallel")
                        + p.degrees("lat_2", "8824", "Latitude of 2nd standard parallel")
                        + p.metres("x_0", "8826", "Easting at false origin")
                        + p.metres("y_0", "8827", "Northing at false origin")),
        LAMBERT_CONIC_CONFORMAL_1SP(
                "9801",
                "Lambert Conic Conformal (1SP)",
                p -> "+proj=lcc"
                        + p.degrees("lat_0", "8801", "Latitude of natural origin")
                        + p.degrees("lat_1", "8801", "Latitude of natural origin")
                        + p.degrees("lon_0", "8802", "Longitude of natural origin")
                        + p.unity("k_0", "8805", "Scale factor at natural origin")
                        + p.falseEastingAndNorthing()),
        ALBERS_EQUAL_AREA(
                "9822",
                "Albers Equal Area",
                p -> "+proj=aea"
                        + p.degrees("lat_0", "8821", "Latitude of false origin")
                        + p.degrees("lon_0", "8822", "Longitude of false origin")
                        + p.degrees("lat_1", "8823", "Latitude of 1st standard parallel")
                        + p.degrees("lat_2", "8824", "Latitude of 2nd standard parallel")
                        + p.metres("x_0", "8826", "Easting at false origin")
                        + p.metres("y_0", "8827", "Northing at false origin")),
        LAMBERT_AZIMUTHAL_EQUAL_AREA(
                "9820",
                "Lambert Azimuthal Equal Area",
                p -> "+proj=laea"
                        + p.degrees("lat_0", "8801", "Latitude of natural origin")
                        + p.degrees("lon_0", "8802", "Longitude of natural origin")
                        + p.falseEastingAndNorthing()),
        MERCATOR_A(
                "9804",
                "Mercator (variant A)",
                p -> "+proj=merc" + p.degrees("lon_0", "8802", "Longitude of natural origin")
                        + p.unity("k_0", "8805", "Scale factor at natural origin")
                        + p.falseEastingAndNorthing()),
        MERCATOR_B(
                "9805",
                "Mercator (variant B)",
                p -> "+proj=merc" + p.degrees("lat_ts", "8823", "Latitude of 1st standard parallel")
                        + p.degrees("lon_0", "8802", "Longitude of natural origin")
                        + p.falseEastingAndNorthing()),
        PSEUDO_MERCATOR(
                "1024",
                "Popular Visualisation Pseudo Mercator",
                p -> "+proj=merc +lat_ts=0 +k=1"
                        + p.degrees("lon_0", "8802", "Longitude of natural origin")
                        + p.falseEastingAndNorthing()),
        POLAR_STEREOGRAPHIC_A(
                "9810",
                "Polar Stereographic (variant A)",
                p -> "+proj=stere"
                        + p.degrees("lat_0", "8801", "Latitude of natural origin")
                        + p.degrees("lon_0", "8802", "Longitude of natural origin")
                        + p.unity("k_0", "8805", "Scale factor at natural origin")
                        + p.falseEastingAndNorthing()),
        POLAR_STEREOGRAPHIC_B(
                "9829",
                "Polar Stereographic (variant B)",
                p -> "+proj=stere +lat_0="
                        + (p.angle("8832", "Latitude of standard parallel") < 0 ? "-90" : "90")
                        + p.degrees("lat_ts", "8832", "Latitude of standard parallel")
                        + p.degrees("lon_0", "8833", "Longitude of origin")
                        + p.falseEastingAndNorthing()),
        OBLIQUE_STEREOGRAPHIC(
                "9809",
                "Oblique Stereographic",
                p -> "+proj=sterea"
                        + p.degrees("lat_0", "8801", "Latitude of natural origin")
                        + p.degrees("lon_0", "8802", "Longitude of natural origin")
                        + p.unity("k_0", "8805", "Scale factor at natural origin")
                        + p.falseEastingAndNorthing()),
        EQUIDISTANT_CYLINDRICAL(
                "1028",
                "Equidistant Cylindrical",
                p -> "+proj=eqc"
                        + p.degrees("lat_ts", "8823", "Latitude of 1st standard parallel")
                        + p.degrees("lon_0", "8802", "Longitude of natural origin")
                        + p.falseEastingAndNorthing()),
        CASSINI_SOLDNER(
                "9806",
                "Cassini-Soldner",
                p -> "+proj=cass"
                        + p.degrees("lat_0", "8801", "Latitude of natural origin")
                        + p.degrees("lon_0", "8802", "Longitude of natural origin")
                        + p.falseEastingAndNorthing());

        private final String code;
        private final String name;
        private final Function<Parameters, String> definition;

        Method(String code, String name, Function<Parameters, String> definition) {
            this.code = code;
            this.name = name;
            this.definition = definition;
        }

        String definition(Parameters parameters) {
            return definition.apply(parameters);
        }

        static Optional<Method> of(JsonNode method) {
            String code = method.path("id").path("authority").asText("").equalsIgnoreCase("EPSG")
                    ? method.path("id").path("code").asText("")
                    : "";
            String name = method.path("name").asText("");
            for (Method candidate : values()) {
                if (candidate.code.equals(code) || candidate.name.equalsIgnoreCase(name)) {
                    return Optional.of(candidate);
                }
            }
            return Optional.empty();
        }

        static List<String> supported() {
            return Arrays.stream(values()).map(method -> method.name).toList();
        }
    }

    /** The parameters of a conversion or transformation, found by EPSG parameter code or by name. */
    static final class Parameters {
        private final Map<String, JsonNode> byKey = new LinkedHashMap<>();
        private final JsonNode crs;

        Parameters(JsonNode parameters, JsonNode crs) {
            this.crs = crs;
            for (JsonNode parameter : parameters) {
                JsonNode id = parameter.path("id");
                if (id.path("authority").asText("").equalsIgnoreCase("EPSG") && id.has("code")) {
                    byKey.put("code:" + id.path("code").asText(), parameter);
                }
                byKey.put("name:" + parameter.path("name").asText("").toLowerCase(Locale.ROOT), parameter);
            }
        }

        private Optional<JsonNode> find(String code, String name) {
            JsonNode parameter = byKey.get("code:" + code);
            return Optional.ofNullable(
                    parameter != null ? parameter : byKey.get("name:" + name.toLowerCase(Locale.ROOT)));
        }

        private JsonNode require(String code, String name) {
            return find(code, name)
                    .orElseThrow(() -> new KeyingException(
                            Reason.UNKNOWN_CRS,
                            describe(crs) + " lacks the parameter " + Quoted.of(name) + " (EPSG " + code + ")"));
        }

        /** An angle in degrees. */
        double angle(String code, String name) {
            JsonNode parameter = require(code, name);
            return inUnit(parameter.path("value").asDouble(), parameter.path("unit"), "degree", Math.PI / 180);
        }

        /** An angle in arc-seconds. */
        double arcSeconds(String code, String name) {
            JsonNode parameter = require(code, name);
            return inUnit(
                    parameter.path("value").asDouble(),
                    parameter.path("unit"),
                    "arc-second",
                    1 / ARC_SECONDS_PER_RADIAN);
        }

        double length(String code, String name) {
            JsonNode parameter = require(code, name);
            return parameter.path("value").asDouble() * factor(parameter.path("unit"), "metre", 1);
        }

        double scale(String code, String name) {
            JsonNode parameter = require(code, name);
            return parameter.path("value").asDouble() * factor(parameter.path("unit"), "unity", 1);
        }

        /** A scale difference in parts per million. */
        double partsPerMillion(String code, String name) {
            JsonNode parameter = require(code, name);
            return inUnit(parameter.path("value").asDouble(), parameter.path("unit"), "parts per million", 1e-6);
        }

        String degrees(String key, String code, String name) {
            return find(code, name).isPresent() ? " +" + key + "=" + angle(code, name) : "";
        }

        String metres(String key, String code, String name) {
            return find(code, name).isPresent() ? " +" + key + "=" + length(code, name) : "";
        }

        /** The false easting and northing (EPSG 8806, 8807) most projection methods share. */
        String falseEastingAndNorthing() {
            return metres("x_0", "8806", "False easting") + metres("y_0", "8807", "False northing");
        }

        String unity(String key, String code, String name) {
            return find(code, name).isPresent() ? " +" + key + "=" + scale(code, name) : "";
        }
    }

    // ---- Units

    /**
     * How many base units (radians for angles, metres for lengths, unity for scales) one {@code unit} is: a unit object
     * carries its {@code conversion_factor}; a unit given by name is one of PROJJSON's shorthand names; an absent unit
     * is {@code implied}, worth {@code impliedFactor}.
     */
    private static double factor(JsonNode unit, String implied, double impliedFactor) {
        if (unit.isObject()) {
            if (!unit.path("conversion_factor").isNumber()) {
                throw new KeyingException(
                        Reason.UNKNOWN_CRS, "the unit " + Quoted.of(unitName(unit)) + " has no conversion_factor");
            }
            return unit.path("conversion_factor").asDouble();
        }
        String name = unit.isTextual() ? unit.asText() : implied;
        return switch (name) {
            case "metre", "meter", "unity" -> 1;
            case "degree" -> Math.PI / 180;
            case "arc-second" -> 1 / ARC_SECONDS_PER_RADIAN;
            case "parts per million" -> 1e-6;
            default -> {
                if (name.equals(implied)) {
                    yield impliedFactor;
                }
                throw new KeyingException(
                        Reason.UNKNOWN_CRS,
                        "the unit " + Quoted.of(name) + " is not one PROJJSON names without a conversion_factor");
            }
        };
    }

    /**
     * A value in {@code unit} expressed in {@code target} (worth {@code targetFactor} base units): unchanged when the
     * unit is the target, so that parameters given in it keep their exact decimal value.
     */
    private static double inUnit(double value, JsonNode unit, String target, double targetFactor) {
        if (unit.isMissingNode()
                || unit.isNull()
                || (unit.isTextual() && unit.asText().equals(target))
                || (unit.isObject() && unit.path("name").asText().equals(target))) {
            return value;
        }
        return value * factor(unit, target, targetFactor) / targetFactor;
    }

    private static String unitName(JsonNode unit) {
        return unit.isObject() ? unit.path("name").asText("(unnamed)") : unit.asText("(none)");
    }

    private static double length(JsonNode value, JsonNode crs) {
        if (value.isNumber()) {
            return value.asDouble();
        }
        if (value.isObject() && value.path("value").isNumber()) {
            return value.path("value").asDouble() * factor(value.path("unit"), "metre", 1);
        }
        throw new KeyingException(Reason.UNKNOWN_CRS, describe(crs) + " has an ellipsoid axis that is not a length");
    }

    // ---- Identifiers

    /** {@code id} first, then {@code ids}, keeping only entries with both an authority and a code. */
    static List<JsonNode> identifiers(JsonNode node) {
        List<JsonNode> candidates = new ArrayList<>();
        candidates.add(node.path("id"));
        node.path("ids").forEach(candidates::add);
        return candidates.stream().filter(ProjJsonCrs::isUsableId).toList();
    }

    private static boolean isUsableId(JsonNode id) {
        return id.path("authority").isTextual()
                && !id.path("authority").asText().isBlank()
                && (id.path("code").isTextual() || id.path("code").isIntegralNumber())
                && !id.path("code").asText().isBlank();
    }

    private static String authorityCode(JsonNode id) {
        return Quoted.of(id.get("authority").asText() + ":" + id.get("code").asText());
    }

    static String describe(JsonNode projJson) {
        String type = projJson.path("type").asText("CRS");
        return "PROJJSON " + Quoted.of(type) + " named "
                + Quoted.of(projJson.path("name").asText("(unnamed)"));
    }
}
