package dev.nifigeoparquet.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

/** The row counts UpsertGeoParquetPartition writes as {@code geoparquet.rows.*} attributes. */
final class Counts {

    /** The attributes that count rows; {@code geoparquet.rows.net} is a difference and may be negative. */
    static final List<String> COUNTS = List.of(
            "geoparquet.rows.before",
            "geoparquet.rows.after",
            "geoparquet.rows.inserted",
            "geoparquet.rows.updated",
            "geoparquet.rows.deleted");

    private Counts() {}

    /** Every count attribute is present and not negative on every FlowFile. */
    static void requireNonNegative(List<? extends FlowFileView> flowFiles) {
        for (FlowFileView flowFile : flowFiles) {
            for (String count : COUNTS) {
                String value = flowFile.attribute(count);
                assertTrue(
                        value != null && Long.parseLong(value) >= 0,
                        count + " = " + value + " on " + rowAttributes(flowFile));
            }
        }
    }

    static long sum(List<? extends FlowFileView> flowFiles, String attribute) {
        return flowFiles.stream()
                .mapToLong(flowFile -> Long.parseLong(flowFile.attribute(attribute)))
                .sum();
    }

    private static String rowAttributes(FlowFileView flowFile) {
        StringBuilder text = new StringBuilder("{h3.cell=" + flowFile.attribute("h3.cell"));
        for (Map.Entry<String, String> attribute : flowFile.attributes().entrySet()) {
            if (attribute.getKey().startsWith("geoparquet.rows.")
                    || attribute.getKey().equals("geoparquet.partitions.touched")) {
                text.append(", ").append(attribute.getKey()).append('=').append(attribute.getValue());
            }
        }
        return text.append('}').toString();
    }
}
