package dev.nifigeoparquet.archive.parquet;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType;
import org.apache.parquet.schema.Type;

/**
 * Which columns of rows about to be written hold nearly all distinct values, judged on the first rows: a dictionary for
 * them costs more than the values themselves, and parquet-java finds that out only when it writes the page, after
 * hashing every value into a dictionary it then drops. New files written from a delta's rows (an append's, for
 * instance) have no earlier file to learn this from, as a rewritten file does ({@link ColumnEncodings#likeFile}).
 */
public final class DistinctColumns {

    /** Rows looked at: enough to tell identifiers and measures from codes and names of a few values. */
    static final int SAMPLE_ROWS = 128;
    /** Fewer values than this say too little to turn a dictionary off. */
    static final int MIN_VALUES = 32;
    /** A column whose sampled values are at least this share distinct gets no dictionary. */
    static final double DISTINCT_SHARE = 0.9;

    private DistinctColumns() {}

    /**
     * The top-level, non-repeated primitive columns whose values in the first {@value #SAMPLE_ROWS} rows are at least
     * {@value #DISTINCT_SHARE} distinct. Booleans are left out: parquet-java never gives them a dictionary.
     */
    public static Set<String> of(MessageType schema, List<? extends Group> rows) {
        List<? extends Group> sample = rows.subList(0, Math.min(rows.size(), SAMPLE_ROWS));
        Set<String> distinct = new LinkedHashSet<>();
        for (int field = 0; field < schema.getFieldCount(); field++) {
            Type type = schema.getType(field);
            if (!type.isPrimitive()
                    || type.isRepetition(Type.Repetition.REPEATED)
                    || type.asPrimitiveType().getPrimitiveTypeName() == PrimitiveType.PrimitiveTypeName.BOOLEAN) {
                continue;
            }
            Set<Object> values = new HashSet<>();
            int present = 0;
            for (Group row : sample) {
                if (row.getFieldRepetitionCount(field) > 0) {
                    values.add(valueOf(row, field, type.asPrimitiveType()));
                    present++;
                }
            }
            if (present >= MIN_VALUES && values.size() >= DISTINCT_SHARE * present) {
                distinct.add(type.getName());
            }
        }
        return distinct;
    }

    private static Object valueOf(Group row, int field, PrimitiveType type) {
        return switch (type.getPrimitiveTypeName()) {
            case INT32 -> row.getInteger(field, 0);
            case INT64 -> row.getLong(field, 0);
            case FLOAT -> row.getFloat(field, 0);
            case DOUBLE -> row.getDouble(field, 0);
            case INT96 -> row.getInt96(field, 0);
            case BINARY, FIXED_LEN_BYTE_ARRAY -> row.getBinary(field, 0);
            case BOOLEAN -> row.getBoolean(field, 0);
        };
    }
}
