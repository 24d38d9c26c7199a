package dev.nifigeoparquet.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import dev.nifigeoparquet.archive.geo.Wkb;
import dev.nifigeoparquet.archive.parquet.FooterEntries;
import dev.nifigeoparquet.archive.synthetic.SyntheticParcels;
import dev.nifigeoparquet.archive.testing.CoveringBoxColumn;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.locationtech.jts.geom.Coordinate;
import org.locationtech.jts.geom.Geometry;
import org.locationtech.jts.geom.GeometryFactory;
import org.locationtech.jts.geom.LinearRing;
import org.locationtech.jts.geom.Polygon;

/**
 * What a parcel looks like as a row: the archive's schema and canonical footer, and each parcel's row and geometry.
 * One model is in use for a whole benchmark run ({@link #use}, from {@code --rows}; child JVMs read the archive's own
 * schema and need none).
 *
 * <ul>
 *   <li>{@link #REALISTIC} (the default): the attribute columns of a county assessor's parcel table, as parcel data
 *       providers publish them (identifiers, owner, situs address, city, postcode, land-use code, zoning, lot and
 *       building area, year built, units, assessed land and improvement values, last sale date and price, tax year,
 *       flags), with their usual nulls (vacant land has no building, no address, often no sale) and cardinalities
 *       (a few hundred cities, dozens of land-use and zoning codes, owner names and addresses nearly unique); polygons
 *       of 8 to 60 vertices (most under 30), 7% with a hole, 4% multipolygons of two parts; and the GeoParquet 1.1
 *       covering {@code bbox} struct, which the engine's writer fills and gives row-group statistics. About 500 bytes a
 *       row before compression.</li>
 *   <li>{@link #NARROW}: the 5 columns of {@link SyntheticParcels} (key, land use, area, version, rectangle), about
 *       44 bytes a row compressed: the benchmark's earlier rows, kept as a second point.</li>
 * </ul>
 *
 * <p>Every value derives from the parcel's fields alone ({@link ParcelWorld.Parcel#detail()} seeds the shape and the
 * attributes, its land use the fields a sale changes), so a parcel's row can be generated again from its index.
 */
enum RowModel {
    REALISTIC,
    NARROW;

    static final String KEY = SyntheticParcels.KEY;
    static final String VERSION = SyntheticParcels.VERSION;
    static final String GEOMETRY = SyntheticParcels.GEOMETRY;
    static final String BBOX = "bbox";

    private static volatile RowModel current = REALISTIC;

    /** The model of this run. */
    static RowModel current() {
        return current;
    }

    /** Sets the model of this run, before anything is generated. */
    static void use(RowModel model) {
        current = model;
    }

    static RowModel named(String name) {
        return switch (name) {
            case "realistic" -> REALISTIC;
            case "narrow" -> NARROW;
            default -> throw new IllegalArgumentException("Unknown row model '" + name + "'; use realistic or narrow");
        };
    }

    String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    private static final double METRES_PER_DEGREE = 111_320;
    private static final GeometryFactory GEOMETRIES = new GeometryFactory();
    private static final MessageType REALISTIC_SCHEMA = realisticSchema();

    /** The land-use codes of the narrow rows. */
    static final String[] NARROW_LAND_USE = {"residential", "agricultural", "commercial", "industrial", "forest"};

    /** Land-use codes, roughly as frequent as in a county roll: mostly single-family homes. */
    private static final String[] LAND_USE_CODES = {
        "1100 SINGLE FAMILY",
        "1100 SINGLE FAMILY",
        "1100 SINGLE FAMILY",
        "1100 SINGLE FAMILY",
        "1100 SINGLE FAMILY",
        "1100 SINGLE FAMILY",
        "1100 SINGLE FAMILY",
        "1101 SFR ACCESSORY UNIT",
        "1200 DUPLEX",
        "1300 TRIPLEX",
        "1400 APARTMENTS 4-9",
        "1500 APARTMENTS 10+",
        "1600 CONDOMINIUM",
        "1700 MOBILE HOME",
        "2100 RETAIL",
        "2200 OFFICE",
        "2300 RESTAURANT",
        "2400 HOTEL",
        "3100 LIGHT INDUSTRIAL",
        "3200 WAREHOUSE",
        "4100 CROPLAND",
        "4200 PASTURE",
        "4300 ORCHARD",
        "5100 TIMBER",
        "6100 CHURCH",
        "6200 SCHOOL",
        "6300 GOVERNMENT",
        "7100 PARK",
        "8100 VACANT RESIDENTIAL",
        "8100 VACANT RESIDENTIAL",
        "8200 VACANT COMMERCIAL",
        "9100 ROAD RIGHT OF WAY"
    };

    private static final String[] ZONING = {
        "R-1", "R-1A", "R-2", "R-3", "R-4", "RM-12", "RM-24", "RE", "RR", "MH", "C-1", "C-2", "C-3", "CBD", "MU-1",
        "MU-2", "O-P", "I-1", "I-2", "A-1", "A-2", "AG-5", "AG-20", "F-1", "OS", "P-F", "PUD", "SP"
    };
    private static final String[] SURNAMES = {
        "SMITH",
        "JOHNSON",
        "WILLIAMS",
        "BROWN",
        "JONES",
        "GARCIA",
        "MILLER",
        "DAVIS",
        "RODRIGUEZ",
        "MARTINEZ",
        "HERNANDEZ",
        "LOPEZ",
        "GONZALEZ",
        "WILSON",
        "ANDERSON",
        "THOMAS",
        "TAYLOR",
        "MOORE",
        "JACKSON",
        "MARTIN",
        "LEE",
        "PEREZ",
        "THOMPSON",
        "WHITE",
        "HARRIS",
        "SANCHEZ",
        "CLARK",
        "RAMIREZ",
        "LEWIS",
        "ROBINSON",
        "WALKER",
        "YOUNG",
        "ALLEN",
        "KING",
        "WRIGHT",
        "SCOTT",
        "TORRES",
        "NGUYEN",
        "HILL",
        "FLORES",
        "GREEN",
        "ADAMS",
        "NELSON",
        "BAKER",
        "HALL",
        "RIVERA",
        "CAMPBELL",
        "MITCHELL",
        "CARTER",
        "ROBERTS",
        "MUELLER",
        "SCHMIDT",
        "SCHNEIDER",
        "FISCHER",
        "WEBER",
        "MEYER",
        "WAGNER",
        "BECKER",
        "SCHULZ",
        "HOFFMANN",
        "DUBOIS",
        "LAMBERT",
        "BERNARD",
        "MOREAU",
        "LAURENT",
        "SIMON",
        "MICHEL",
        "LEFEBVRE",
        "LEROY",
        "ROUX",
        "DE JONG",
        "JANSEN",
        "DE VRIES",
        "VAN DIJK",
        "BAKKER",
        "VISSER",
        "SMIT",
        "MEIJER",
        "ROSSI",
        "RUSSO",
        "FERRARI",
        "ESPOSITO",
        "BIANCHI",
        "ROMANO",
        "COLOMBO"
    };
    private static final String[] GIVEN_NAMES = {
        "JAMES",
        "MARY",
        "ROBERT",
        "PATRICIA",
        "JOHN",
        "JENNIFER",
        "MICHAEL",
        "LINDA",
        "DAVID",
        "ELIZABETH",
        "WILLIAM",
        "BARBARA",
        "RICHARD",
        "SUSAN",
        "JOSEPH",
        "JESSICA",
        "THOMAS",
        "SARAH",
        "CHARLES",
        "KAREN",
        "CHRISTOPHER",
        "LISA",
        "DANIEL",
        "NANCY",
        "MATTHEW",
        "BETTY",
        "ANTHONY",
        "MARGARET",
        "MARK",
        "SANDRA",
        "PAUL",
        "ASHLEY",
        "STEVEN",
        "KIMBERLY",
        "ANDREW",
        "EMILY",
        "KENNETH",
        "DONNA",
        "JOSHUA",
        "MICHELLE",
        "PIERRE",
        "MARIE",
        "JEAN",
        "ANNA",
        "HANS",
        "PETRA",
        "JAN",
        "SOPHIE",
        "LUCA",
        "GIULIA",
        "PETER",
        "CLAUDIA",
        "KLAUS",
        "ELENA"
    };
    private static final String[] ENTITY_WORDS = {
        "OAKWOOD",
        "RIVERSIDE",
        "SUMMIT",
        "PINNACLE",
        "HERITAGE",
        "MERIDIAN",
        "CEDAR",
        "NORTHGATE",
        "HARBOR",
        "SILVERLINE",
        "GOLDEN",
        "PRAIRIE",
        "EAGLE",
        "CRESTVIEW",
        "LAKESHORE",
        "GRANITE"
    };
    private static final String[] ENTITY_KINDS = {
        "LLC",
        "PROPERTIES LLC",
        "HOLDINGS LLC",
        "INVESTMENTS INC",
        "PARTNERS LP",
        "REAL ESTATE TRUST",
        "DEVELOPMENT CORP"
    };
    private static final String[] STREET_WORDS = {
        "MAIN",
        "OAK",
        "PINE",
        "MAPLE",
        "CEDAR",
        "ELM",
        "WASHINGTON",
        "LAKE",
        "HILL",
        "PARK",
        "VIEW",
        "SUNSET",
        "RIDGE",
        "CHURCH",
        "MILL",
        "SPRING",
        "RIVER",
        "FOREST",
        "MEADOW",
        "HIGHLAND",
        "VALLEY",
        "WILLOW",
        "BIRCH",
        "CHESTNUT",
        "WALNUT",
        "JEFFERSON",
        "LINCOLN",
        "MADISON",
        "FRANKLIN",
        "JACKSON",
        "ORCHARD",
        "GARDEN",
        "STATION",
        "SCHOOL",
        "MARKET",
        "BRIDGE",
        "CANAL",
        "HARBOR",
        "SPRUCE",
        "ASPEN"
    };
    private static final String[] STREET_SUFFIXES = {"ST", "AVE", "RD", "DR", "LN", "CT", "WAY", "BLVD", "PL", "CIR"};
    private static final String[] CITY_STEMS = {
        "SPRING", "GREEN", "FAIR", "OAK", "RIVER", "MAPLE", "WEST", "EAST", "NORTH", "SOUTH", "LAKE", "HILL", "STONE",
        "BROOK", "CLEAR", "SILVER", "MILL", "ASH", "ELM", "PINE"
    };
    private static final String[] CITY_ENDINGS = {
        "FIELD", "VILLE", "TON", "WOOD", "DALE", "PORT", "BURG", "FORD", "HAVEN", "MONT", "CREST", "VIEW", "BRIDGE",
        "WATER", "LAND", "SIDE", "GATE", "HURST", "STEAD", "WICK"
    };

    private static MessageType realisticSchema() {
        Types.MessageTypeBuilder b = Types.buildMessage();
        b.required(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named(KEY);
        b.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("apn");
        b.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("owner_name");
        b.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("situs_address");
        b.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("city");
        b.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("postcode");
        b.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("land_use_code");
        b.optional(PrimitiveTypeName.BINARY)
                .as(LogicalTypeAnnotation.stringType())
                .named("zoning");
        b.required(PrimitiveTypeName.DOUBLE).named("lot_area_m2");
        b.optional(PrimitiveTypeName.DOUBLE).named("building_area_m2");
        b.optional(PrimitiveTypeName.INT32).named("year_built");
        b.optional(PrimitiveTypeName.INT32).named("units");
        b.optional(PrimitiveTypeName.INT64).named("assessed_land_value");
        b.optional(PrimitiveTypeName.INT64).named("assessed_improvement_value");
        b.optional(PrimitiveTypeName.INT32).as(LogicalTypeAnnotation.dateType()).named("last_sale_date");
        b.optional(PrimitiveTypeName.INT64).named("last_sale_price");
        b.required(PrimitiveTypeName.INT32).named("tax_year");
        b.required(PrimitiveTypeName.BOOLEAN).named("vacant");
        b.optional(PrimitiveTypeName.BOOLEAN).named("homestead_exempt");
        b.required(PrimitiveTypeName.INT64)
                .as(LogicalTypeAnnotation.timestampType(true, LogicalTypeAnnotation.TimeUnit.MICROS))
                .named(VERSION);
        b.required(PrimitiveTypeName.BINARY).named(GEOMETRY);
        b.addField(CoveringBoxColumn.optional(BBOX));
        return b.named("parcels");
    }

    /** The archive's schema. */
    MessageType schema() {
        return this == NARROW ? SyntheticParcels.schema() : REALISTIC_SCHEMA;
    }

    /** The archive's canonical footer: a GeoParquet 1.1 block in OGC:CRS84. */
    FooterEntries footer() {
        return footer(null);
    }

    /** The canonical footer with this CRS (PROJJSON) in the {@code geo} block; null leaves it out (OGC:CRS84). */
    FooterEntries footer(JsonNode crs) {
        GeoMetadata geo = this == NARROW
                ? GeoMetadata.builder()
                        .wkbColumn(GEOMETRY, List.of("Polygon"), crs, null)
                        .build()
                : GeoMetadata.builder()
                        .wkbColumn(GEOMETRY, List.of("Polygon", "MultiPolygon"), crs, BBOX)
                        .build();
        return FooterEntries.canonicalOf(Map.of(FooterEntries.GEO, geo.rawString()));
    }

    /** The schema's top-level column names, in order, for SQL. */
    List<String> columns() {
        return schema().getFields().stream().map(Type::getName).toList();
    }

    /** The columns as a comma-separated SQL list, each prefixed with {@code qualifier} (may be empty). */
    String columnList(String qualifier) {
        return String.join(
                ", ", columns().stream().map(column -> qualifier + column).toList());
    }

    /** Distinct land-use values a parcel cycles through when its attributes are corrected. */
    int landUses() {
        return this == NARROW ? NARROW_LAND_USE.length : LAND_USE_CODES.length;
    }

    /** The parcel's geometry: a rectangle (narrow), or a polygon of 8 to 60 vertices, a hole or a second part. */
    Geometry geometry(ParcelWorld.Parcel parcel) {
        double lon = parcel.lon();
        double lat = parcel.lat();
        double width = parcel.width();
        double height = parcel.height();
        if (this == NARROW) {
            return GEOMETRIES.createPolygon(new Coordinate[] {
                new Coordinate(lon, lat),
                new Coordinate(lon + width, lat),
                new Coordinate(lon + width, lat + height),
                new Coordinate(lon, lat + height),
                new Coordinate(lon, lat)
            });
        }
        SplittableRandom random = new SplittableRandom(parcel.detail());
        double cx = lon + width / 2;
        double cy = lat + height / 2;
        double u = random.nextDouble();
        int vertices = 8 + (int) (52 * u * u * u);
        Polygon main;
        LinearRing shell = ring(cx, cy, width / 2, height / 2, vertices, 0.78, 1.0, true, random);
        if (random.nextDouble() < 0.07) {
            LinearRing hole = ring(cx, cy, width / 2, height / 2, 4 + random.nextInt(9), 0.15, 0.32, false, random);
            main = GEOMETRIES.createPolygon(shell, new LinearRing[] {hole});
        } else {
            main = GEOMETRIES.createPolygon(shell);
        }
        if (random.nextDouble() < 0.04) {
            LinearRing satellite = ring(
                    cx + width * 0.8, cy, width * 0.2, height * 0.2, 6 + random.nextInt(7), 0.8, 1.0, true, random);
            return GEOMETRIES.createMultiPolygon(new Polygon[] {main, GEOMETRIES.createPolygon(satellite)});
        }
        return main;
    }

    /**
     * A star-shaped ring around (cx, cy): {@code n} vertices at increasing (or, for a hole, decreasing) angles, each at
     * a random fraction {@code [lo, hi)} of the radii, so it never crosses itself and a hole stays inside its shell.
     */
    private static LinearRing ring(
            double cx,
            double cy,
            double rx,
            double ry,
            int n,
            double lo,
            double hi,
            boolean ccw,
            SplittableRandom random) {
        Coordinate[] coordinates = new Coordinate[n + 1];
        double step = 2 * Math.PI / n;
        for (int i = 0; i < n; i++) {
            double angle = (ccw ? i : n - i) * step + random.nextDouble() * step * 0.6;
            double f = lo + random.nextDouble() * (hi - lo);
            coordinates[i] = new Coordinate(cx + rx * f * Math.cos(angle), cy + ry * f * Math.sin(angle));
        }
        coordinates[n] = coordinates[0].copy();
        return GEOMETRIES.createLinearRing(coordinates);
    }

    /** The parcel's row, versioned {@code updatedAtMicros}. */
    Group row(ParcelWorld.Parcel parcel, long updatedAtMicros) {
        Geometry geometry = geometry(parcel);
        if (this == NARROW) {
            Group row = new SimpleGroup(schema());
            row.add(KEY, parcel.id());
            row.add("land_use", NARROW_LAND_USE[parcel.landUse() % NARROW_LAND_USE.length]);
            row.add(
                    "area_m2",
                    parcel.width()
                            * parcel.height()
                            * METRES_PER_DEGREE
                            * METRES_PER_DEGREE
                            * Math.cos(Math.toRadians(parcel.lat())));
            row.add(VERSION, updatedAtMicros);
            row.add(GEOMETRY, Binary.fromConstantByteArray(Wkb.write(geometry)));
            return row;
        }
        return realisticRow(parcel, geometry, updatedAtMicros);
    }

    private static Group realisticRow(ParcelWorld.Parcel parcel, Geometry geometry, long updatedAtMicros) {
        SplittableRandom random = new SplittableRandom(parcel.detail() ^ 0x5DEECE66DL);
        Group row = new SimpleGroup(REALISTIC_SCHEMA);
        row.add(KEY, parcel.id());
        int town = Math.floorMod(parcel.town(), 100_000);
        if (random.nextDouble() >= 0.005) {
            long apn = Math.floorMod(parcel.detail(), 1_000_000_000L);
            row.add(
                    "apn",
                    String.format(Locale.ROOT, "%03d-%03d-%03d", apn / 1_000_000, apn / 1_000 % 1_000, apn % 1_000));
        }
        String landUse = LAND_USE_CODES[parcel.landUse() % LAND_USE_CODES.length];
        boolean vacant = landUse.startsWith("8")
                || landUse.startsWith("4")
                || landUse.startsWith("5")
                || landUse.startsWith("7")
                || landUse.startsWith("9");
        // What a sale changes follows the land use, which a correction in the delta changes too.
        SplittableRandom sale = new SplittableRandom(parcel.detail() * 31 + parcel.landUse());
        if (sale.nextDouble() >= 0.015) {
            row.add("owner_name", ownerName(sale));
        }
        if (!vacant || random.nextDouble() < 0.3) {
            if (random.nextDouble() >= 0.02) {
                row.add(
                        "situs_address",
                        (1 + random.nextInt(9_899)) + " "
                                + STREET_WORDS[(town * 7 + random.nextInt(12)) % STREET_WORDS.length] + " "
                                + STREET_SUFFIXES[random.nextInt(STREET_SUFFIXES.length)]);
            }
        } else {
            random.nextInt();
        }
        if (random.nextDouble() >= 0.01) {
            row.add(
                    "city",
                    CITY_STEMS[town % CITY_STEMS.length]
                            + CITY_ENDINGS[town / CITY_STEMS.length % CITY_ENDINGS.length]
                            + (town >= CITY_STEMS.length * CITY_ENDINGS.length
                                    ? " " + (town / (CITY_STEMS.length * CITY_ENDINGS.length))
                                    : ""));
        }
        if (random.nextDouble() >= 0.01) {
            row.add("postcode", String.format(Locale.ROOT, "%05d", (10_000 + town * 37 + random.nextInt(4)) % 100_000));
        }
        row.add("land_use_code", landUse);
        if (random.nextDouble() >= 0.04) {
            row.add("zoning", ZONING[(parcel.landUse() * 3 + random.nextInt(4)) % ZONING.length]);
        }
        double lotArea =
                geometry.getArea() * METRES_PER_DEGREE * METRES_PER_DEGREE * Math.cos(Math.toRadians(parcel.lat()));
        row.add("lot_area_m2", Math.round(lotArea * 100) / 100.0);
        int units = landUse.startsWith("15")
                ? 10 + random.nextInt(190)
                : landUse.startsWith("14")
                        ? 4 + random.nextInt(6)
                        : landUse.startsWith("13") ? 3 : landUse.startsWith("12") ? 2 : 1;
        if (!vacant) {
            row.add("building_area_m2", Math.round(lotArea * (0.15 + random.nextDouble() * 0.5) * 10) / 10.0);
            row.add("year_built", 1880 + (int) (144 * Math.sqrt(random.nextDouble())));
            row.add("units", units);
        }
        long landValue = 5_000 + (long) (lotArea * (40 + random.nextInt(400)));
        if (random.nextDouble() >= 0.01) {
            row.add("assessed_land_value", landValue / 100 * 100);
        }
        if (!vacant) {
            row.add("assessed_improvement_value", (long) (landValue * (0.8 + random.nextDouble() * 3)) / 100 * 100);
        }
        if (sale.nextDouble() < 0.65) {
            int days = 1_826 + sale.nextInt(18_993); // 1975-01-01 .. 2026-12-31
            row.add("last_sale_date", days);
            if (sale.nextDouble() >= 0.12) {
                row.add("last_sale_price", (long) (landValue * (1 + sale.nextDouble() * 4)) / 1_000 * 1_000);
            }
        }
        row.add("tax_year", 2025);
        row.add("vacant", vacant);
        if (!vacant && random.nextDouble() >= 0.1) {
            row.add("homestead_exempt", landUse.startsWith("11") && random.nextDouble() < 0.6);
        }
        row.add(VERSION, updatedAtMicros);
        row.add(GEOMETRY, Binary.fromConstantByteArray(Wkb.write(geometry)));
        return row;
    }

    private static String ownerName(SplittableRandom random) {
        double kind = random.nextDouble();
        if (kind < 0.82) {
            String name =
                    SURNAMES[random.nextInt(SURNAMES.length)] + " " + GIVEN_NAMES[random.nextInt(GIVEN_NAMES.length)];
            if (random.nextDouble() < 0.5) {
                name += " " + (char) ('A' + random.nextInt(26));
            }
            if (random.nextDouble() < 0.3) {
                name += " & " + GIVEN_NAMES[random.nextInt(GIVEN_NAMES.length)];
            }
            return name;
        }
        if (kind < 0.9) {
            return SURNAMES[random.nextInt(SURNAMES.length)] + " FAMILY TRUST";
        }
        if (kind < 0.97) {
            return ENTITY_WORDS[random.nextInt(ENTITY_WORDS.length)] + " "
                    + ENTITY_WORDS[random.nextInt(ENTITY_WORDS.length)] + " "
                    + ENTITY_KINDS[random.nextInt(ENTITY_KINDS.length)];
        }
        return random.nextBoolean()
                ? "CITY OF " + CITY_STEMS[random.nextInt(CITY_STEMS.length)]
                        + CITY_ENDINGS[random.nextInt(CITY_ENDINGS.length)]
                : "STATE OF " + CITY_STEMS[random.nextInt(CITY_STEMS.length)];
    }
}
