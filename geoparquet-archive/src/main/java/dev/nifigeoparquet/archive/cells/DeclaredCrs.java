package dev.nifigeoparquet.archive.cells;

import dev.nifigeoparquet.archive.error.KeyingException;
import dev.nifigeoparquet.archive.error.KeyingException.Reason;
import dev.nifigeoparquet.archive.geo.GeoMetadata;
import java.util.Map;
import java.util.Optional;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.GeographyLogicalTypeAnnotation;
import org.apache.parquet.schema.LogicalTypeAnnotation.GeometryLogicalTypeAnnotation;

/**
 * The one reading of the CRS a Parquet file declares for a geometry column, and the one check that a file's
 * coordinates may be taken as being in a given CRS. The archive, its verification, the command line's and the
 * processors' delta readers, and RouteByH3Cell all ask here.
 *
 * <p>A file declares a column's CRS in its {@code geo} block ({@link GeoParquetCrs}) when the block describes the
 * column, and in the column's {@code GEOMETRY}/{@code GEOGRAPHY} logical type ({@link ParquetCrs}) when it has one.
 * When it declares both, they must agree; a column with neither declares nothing.
 */
public final class DeclaredCrs {

    private DeclaredCrs() {}

    /**
     * The CRS the file declares for {@code column}; empty when neither a {@code geo} block nor a geospatial logical
     * type describes it.
     *
     * @param keyValues the file's key-value metadata ({@code geo}, and the properties {@code projjson:<key>} names)
     * @throws KeyingException when the declaration cannot be used: an undefined CRS, one the projection library cannot
     *                         build, or a {@code geo} block and a logical type that disagree
     */
    public static Optional<SourceCrs> of(GroupType schema, Map<String, String> keyValues, String column) {
        Optional<SourceCrs> fromGeo = Optional.empty();
        String geo = keyValues.get("geo");
        if (geo != null) {
            GeoMetadata block;
            try {
                block = GeoMetadata.parse(geo);
            } catch (IllegalArgumentException e) {
                throw new KeyingException(Reason.UNKNOWN_CRS, "the geo metadata cannot be read: " + e.getMessage(), e);
            }
            fromGeo = GeoParquetCrs.ofColumn(block, column);
        }
        Optional<SourceCrs> fromType = ofLogicalType(schema, keyValues, column);
        if (fromGeo.isPresent() && fromType.isPresent() && !fromGeo.get().sameCoordinatesAs(fromType.get())) {
            throw new KeyingException(
                    Reason.CONFLICTING_CRS,
                    "column '" + column + "' is in " + fromGeo.get() + " by its geo metadata but in " + fromType.get()
                            + " by its Parquet logical type");
        }
        return fromGeo.isPresent() ? fromGeo : fromType;
    }

    /** The CRS of the column's {@code GEOMETRY}/{@code GEOGRAPHY} logical type, if it has one. */
    public static Optional<SourceCrs> ofLogicalType(GroupType schema, Map<String, String> keyValues, String column) {
        if (!schema.containsField(column)) {
            return Optional.empty();
        }
        LogicalTypeAnnotation annotation = schema.getType(column).getLogicalTypeAnnotation();
        if (annotation instanceof GeometryLogicalTypeAnnotation geometry) {
            return Optional.of(ParquetCrs.resolve(geometry.getCrs(), keyValues));
        }
        if (annotation instanceof GeographyLogicalTypeAnnotation geography) {
            return Optional.of(ParquetCrs.resolve(geography.getCrs(), keyValues));
        }
        return Optional.empty();
    }

    /**
     * Why a file's coordinates in {@code column} cannot be taken as being in {@code expected}: it declares another CRS,
     * or a declaration that cannot be used. Empty when they can, including when the file declares nothing.
     */
    public static Optional<String> mismatch(
            GroupType schema, Map<String, String> keyValues, String column, SourceCrs expected) {
        Optional<SourceCrs> declared;
        try {
            declared = of(schema, keyValues, column);
        } catch (KeyingException e) {
            return Optional.of("it declares a CRS for column '" + column + "' that cannot be used: " + e.getMessage());
        }
        if (declared.isPresent() && !declared.get().sameCoordinatesAs(expected)) {
            return Optional.of("it puts column '" + column + "' in " + declared.get() + ", not in " + expected);
        }
        return Optional.empty();
    }
}
