package dev.nifigeoparquet.archive.parquet;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroup;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Types;
import org.junit.jupiter.api.Test;

/** Columns of nearly distinct values are told from columns of a few values by the first rows of a delta. */
class DistinctColumnsTest {

    private static final MessageType SCHEMA = Types.buildMessage()
            .required(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType())
            .named("parcel_id")
            .optional(PrimitiveTypeName.BINARY)
            .as(LogicalTypeAnnotation.stringType())
            .named("zoning")
            .optional(PrimitiveTypeName.DOUBLE)
            .named("lot_area_m2")
            .optional(PrimitiveTypeName.INT32)
            .named("year_built")
            .optional(PrimitiveTypeName.INT64)
            .named("last_sale_price")
            .optional(PrimitiveTypeName.BOOLEAN)
            .named("vacant")
            .optionalGroup()
            .required(PrimitiveTypeName.DOUBLE)
            .named("xmin")
            .named("bbox")
            .named("parcels");

    @Test
    void identifiersAndMeasuresAreDistinctCodesAreNot() {
        List<Group> rows = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            Group row = new SimpleGroup(SCHEMA);
            row.add("parcel_id", "P-" + i);
            row.add("zoning", "R" + i % 6);
            row.add("lot_area_m2", 300.0 + i * 1.25);
            row.add("year_built", 1900 + i % 40);
            if (i % 3 != 0) {
                row.add("last_sale_price", 100_000L + 37L * i);
            }
            row.add("vacant", i % 2 == 0);
            row.addGroup("bbox").add("xmin", (double) i);
            rows.add(row);
        }

        assertEquals(
                Set.of("parcel_id", "lot_area_m2", "last_sale_price"),
                DistinctColumns.of(SCHEMA, rows),
                "ids and measures, not codes, booleans or nested columns");
    }

    @Test
    void tooFewRowsOrValuesKeepTheDictionary() {
        List<Group> rows = new ArrayList<>();
        for (int i = 0; i < DistinctColumns.MIN_VALUES - 1; i++) {
            Group row = new SimpleGroup(SCHEMA);
            row.add("parcel_id", "P-" + i);
            rows.add(row);
        }
        assertEquals(Set.of(), DistinctColumns.of(SCHEMA, rows));
        assertEquals(Set.of(), DistinctColumns.of(SCHEMA, List.of()));
    }
}
