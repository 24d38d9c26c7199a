package dev.nifigeoparquet.archive.testing;

import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/** The covering bbox column of GeoParquet 1.1 as test and benchmark schemas declare it. */
public final class CoveringBoxColumn {

    private CoveringBoxColumn() {}

    /** An optional struct of four required doubles, {@code xmin}, {@code ymin}, {@code xmax} and {@code ymax}. */
    public static GroupType optional(String name) {
        return Types.optionalGroup()
                .required(PrimitiveTypeName.DOUBLE)
                .named("xmin")
                .required(PrimitiveTypeName.DOUBLE)
                .named("ymin")
                .required(PrimitiveTypeName.DOUBLE)
                .named("xmax")
                .required(PrimitiveTypeName.DOUBLE)
                .named("ymax")
                .named(name);
    }
}
