package dev.nifigeoparquet.archive.geo;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One geometry column's entry in the {@code geo} metadata.
 *
 * @param encoding       WKB or a GeoArrow native layout
 * @param geometryTypes  e.g. {@code ["Polygon", "MultiPolygon Z"]}; empty means any
 * @param crs            see {@link Crs}
 * @param orientation    {@code "counterclockwise"} when declared
 * @param edges          {@code "planar"} (the default when absent) or {@code "spherical"}
 * @param bbox           [xmin, ymin, xmax, ymax] or with z, when declared
 * @param coveringBbox   GeoParquet 1.1 covering: key (xmin, ymin, xmax, ymax, zmin, zmax) to the column path
 */
public record GeoColumn(
        GeometryEncoding encoding,
        List<String> geometryTypes,
        Crs crs,
        Optional<String> orientation,
        String edges,
        Optional<List<Double>> bbox,
        Optional<Map<String, List<String>>> coveringBbox) {

    public static final String PLANAR = "planar";
    public static final String SPHERICAL = "spherical";
    public static final String COUNTERCLOCKWISE = "counterclockwise";

    public GeoColumn {
        geometryTypes = List.copyOf(geometryTypes);
        coveringBbox = coveringBbox.map(Map::copyOf);
        bbox = bbox.map(List::copyOf);
    }

    public boolean spherical() {
        return SPHERICAL.equals(edges);
    }

    public boolean counterclockwise() {
        return orientation.filter(COUNTERCLOCKWISE::equals).isPresent();
    }
}
