package dev.nifigeoparquet.archive.testing;

import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;

/** The covering bbox column of GeoParquet 1.1 as test and benchmark schemas declare it. */
public final class CoveringBoxColumn {

    private CoveringBoxColumn() {}

    /** An optional struct of four required doubles, {@code xmin}, {@code ymin}, {@code xmax} and {@code ymax}. */
    public static GroupType optional(String name) {
        return fields(Types.optionalGroup()).named(name);
    }

    /** The same struct, required, as parquet-java schemas declare it beside required columns. */
    public static GroupType required(String name) {
        return fields(Types.requiredGroup()).named(name);
    }

    private static Types.GroupBuilder<GroupType> fields(Types.GroupBuilder<GroupType> group) {
        return group.required(PrimitiveTypeName.DOUBLE)
                .named("xmin")
                .required(PrimitiveTypeName.DOUBLE)
                .named("ymin")
                .required(PrimitiveTypeName.DOUBLE)
                .named("xmax")
                .required(PrimitiveTypeName.DOUBLE)
                .named("ymax");
    }
}
